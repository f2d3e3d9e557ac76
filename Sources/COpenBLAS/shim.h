#ifndef ACTIONLAB_COPENBLAS_SHIM_H
#define ACTIONLAB_COPENBLAS_SHIM_H
#include <cblas.h>
#include <malloc.h>

/* glibc's mallopt(M_MMAP_THRESHOLD) and mallopt(M_TRIM_THRESHOLD) for the process-wide numeric
   setup of BLAS.swift (HeapRetention.swift); 1 when both are accepted, else 0. */
static inline int actionlab_retain_freed_heap(int mmap_threshold, int trim_threshold) {
    return mallopt(M_MMAP_THRESHOLD, mmap_threshold) == 1 && mallopt(M_TRIM_THRESHOLD, trim_threshold) == 1;
}
#endif
