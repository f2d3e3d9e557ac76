#ifndef ACTIONLAB_COPENBLAS_SHIM_H
#define ACTIONLAB_COPENBLAS_SHIM_H
#include <cblas.h>
#endif
