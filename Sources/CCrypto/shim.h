#ifndef ACTIONLAB_CCRYPTO_SHIM_H
#define ACTIONLAB_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#endif
