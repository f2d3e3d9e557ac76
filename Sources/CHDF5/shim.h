#ifndef ACTIONLAB_CHDF5_SHIM_H
#define ACTIONLAB_CHDF5_SHIM_H
#include <hdf5.h>

/*
 * HDF5 exposes many constants as macros that expand to casts or to global identifiers that
 * exist only after H5open(). Swift cannot import those, so each one becomes a static inline
 * function here. Swift code never spells their numeric values.
 */

/* Property lists. */
static inline hid_t actionlab_H5P_DEFAULT(void) { return H5P_DEFAULT; }
static inline hid_t actionlab_H5P_FILE_ACCESS(void) { return H5P_FILE_ACCESS; }
static inline hid_t actionlab_H5P_FILE_CREATE(void) { return H5P_FILE_CREATE; }
static inline hid_t actionlab_H5P_DATASET_CREATE(void) { return H5P_DATASET_CREATE; }
static inline hid_t actionlab_H5P_GROUP_CREATE(void) { return H5P_GROUP_CREATE; }
static inline hid_t actionlab_H5P_LINK_CREATE(void) { return H5P_LINK_CREATE; }

/* Native memory types. */
static inline hid_t actionlab_H5T_NATIVE_FLOAT(void) { return H5T_NATIVE_FLOAT; }
static inline hid_t actionlab_H5T_NATIVE_DOUBLE(void) { return H5T_NATIVE_DOUBLE; }
static inline hid_t actionlab_H5T_NATIVE_INT64(void) { return H5T_NATIVE_INT64; }
static inline hid_t actionlab_H5T_C_S1(void) { return H5T_C_S1; }
static inline size_t actionlab_H5T_VARIABLE(void) { return H5T_VARIABLE; }

/* Dataspaces. */
static inline hid_t actionlab_H5S_ALL(void) { return H5S_ALL; }

/* File access flags. */
static inline unsigned actionlab_H5F_ACC_RDONLY(void) { return H5F_ACC_RDONLY; }
static inline unsigned actionlab_H5F_ACC_RDWR(void) { return H5F_ACC_RDWR; }
static inline unsigned actionlab_H5F_ACC_TRUNC(void) { return H5F_ACC_TRUNC; }
static inline unsigned actionlab_H5F_ACC_EXCL(void) { return H5F_ACC_EXCL; }

/* Error stacks. */
static inline hid_t actionlab_H5E_DEFAULT(void) { return H5E_DEFAULT; }

/* Filters. */
static inline H5Z_filter_t actionlab_H5Z_FILTER_DEFLATE(void) { return H5Z_FILTER_DEFLATE; }

#endif
