// giflib (Debian's libgif-dev) reports errors through return values and an error code,
// never longjmp, so Swift calls it directly. It ships no pkg-config file: the header is
// found in the default include path and the module map links "gif" itself.
#include <gif_lib.h>
