// libheif reports errors through return values (struct heif_error) and never longjmps, so
// Swift calls it directly.
#include <libheif/heif.h>
