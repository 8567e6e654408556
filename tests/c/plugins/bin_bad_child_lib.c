/* bin_bad_child_lib.c -- one module that imports node 5, which does not exist. */
#include "library_bin.h"

TVM_FFI_DLL_EXPORT const unsigned char __tvm_ffi__library_bin[] = {
    U64(52),
    U64(2), U64(0), U64(1),
    U64(1), U64(5),
    U64(4), '_', 'l', 'i', 'b',
};
_Static_assert(sizeof(__tvm_ffi__library_bin) == 8 + 52, "payload size field matches");
