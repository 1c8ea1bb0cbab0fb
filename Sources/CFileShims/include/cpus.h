#ifndef HEXMASK_CPUS_H
#define HEXMASK_CPUS_H

// The CPUs in the calling thread's affinity mask (sched_getaffinity), or -1 when it cannot
// be read. A C shim: glibc declares sched_getaffinity and CPU_COUNT only with _GNU_SOURCE.
int hm_cpus_allowed(void);

#endif
