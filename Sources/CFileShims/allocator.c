#include "allocator.h"

#include <stdlib.h>  // defines __GLIBC__ on glibc

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#endif

void hm_return_large_blocks(int bytes) {
#if defined(__linux__) && defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, bytes);
#else
  (void)bytes;
#endif
}
