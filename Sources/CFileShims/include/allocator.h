#ifndef HEXMASK_ALLOCATOR_H
#define HEXMASK_ALLOCATOR_H

// Makes glibc map every block of `bytes` or more on its own and unmap it when freed,
// instead of raising that threshold (up to 32 MiB) after the first such free and keeping
// the blocks in per-thread arenas; smaller freed blocks stay in the heap (up to 64 MiB of
// its top) for the next ones. A C shim: mallopt lives in <malloc.h>, which Swift's
// Glibc module does not include. Does nothing where there is no mallopt.
void hm_return_large_blocks(int bytes);

// Gives the freed memory every arena keeps (the trim threshold above, per thread) back to
// the system: a batch calls it after each file, so that -j N threads do not each keep up to
// 64 MiB between files while the memory budget counts them as free.
void hm_give_back_freed(void);

// Makes glibc fill every block malloc returns (calloc's excepted) with one known byte, so
// that memory a decoder forgets to write holds the same bytes on every run instead of what
// an earlier picture of the batch left there (libde265 leaves the blocks of a damaged HEVC
// stream unwritten). Does nothing where there is no mallopt.
void hm_fill_new_blocks(void);

#endif
