/* bin_unknown_kind_lib.c -- node 1 has a kind nobody registered a bytes loader for. */
#include "library_bin.h"

TVM_FFI_DLL_EXPORT const unsigned char __tvm_ffi__library_bin[] = {
    U64(86),
    U64(3), U64(0), U64(1), U64(1),
    U64(1), U64(1),
    U64(4), '_', 'l', 'i', 'b',
    U64(7), 'n', 'o', 'l', 'o', 'a', 'd', 'r',
    U64(3), 'a', 'b', 'c',
};
_Static_assert(sizeof(__tvm_ffi__library_bin) == 8 + 86, "payload size field matches");
