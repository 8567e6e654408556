/* bin_oversize_lib.c -- declares far more payload bytes than the symbol holds. */
#include "library_bin.h"

TVM_FFI_DLL_EXPORT const unsigned char __tvm_ffi__library_bin[] = {
    U64(4000),
    U64(2), U64(0), U64(0),
    U64(0),
    U64(4), '_', 'l', 'i', 'b',
};
