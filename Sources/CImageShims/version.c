#include "image_shims.h"
int hm_shims_version(void) { return 1; }
