#ifdef __linux__
#define _GNU_SOURCE  // sched_getaffinity, CPU_COUNT
#endif
#include "cpus.h"

#include <sched.h>

int hm_cpus_allowed(void) {
#ifdef __linux__
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
  return CPU_COUNT(&set);
#else
  return -1;
#endif
}
