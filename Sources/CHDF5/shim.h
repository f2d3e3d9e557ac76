#ifndef ACTIONLAB_CHDF5_SHIM_H
#define ACTIONLAB_CHDF5_SHIM_H
#include <hdf5.h>
#endif
