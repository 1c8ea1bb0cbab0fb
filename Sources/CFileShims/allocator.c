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

void hm_fill_new_blocks(void) {
#if defined(__GLIBC__)
  // M_PERTURB fills new blocks with the complement of this byte, freed ones with the byte.
  mallopt(M_PERTURB, 0xFF);
#endif
}
