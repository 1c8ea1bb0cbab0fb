#include "image_shims.h"

// Lets Swift code check that it links against the shims it was written for.
int hm_shims_version(void) { return 3; }
