#include "allocator.h"

#include <stdlib.h>  // defines __GLIBC__ on glibc

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#endif

void hm_return_large_blocks(int bytes) {
#if defined(__linux__) && defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, bytes);
  // Setting the threshold also stops glibc from raising the trim threshold with it, which
  // stays at 128 KiB: the heap's top is then given back and faulted in again on every
  // burst of small blocks (an animation's frames: a fifth of the time in page faults).
  // Freed small blocks up to this much are kept; the large ones still go back at once.
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
#else
  (void)bytes;
#endif
}

void hm_give_back_freed(void) {
#if defined(__linux__) && defined(__GLIBC__)
  malloc_trim(0);
#endif
}

void hm_fill_new_blocks(void) {
#if defined(__GLIBC__)
  // M_PERTURB fills new blocks with the complement of this byte, freed ones with the byte.
  mallopt(M_PERTURB, 0xFF);
#endif
}
