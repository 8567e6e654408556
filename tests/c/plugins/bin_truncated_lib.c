/* bin_truncated_lib.c -- the declared payload (24 bytes) ends inside the indptr vector, which
 * claims three values: the loader must stop at the window instead of reading on. */
#include "library_bin.h"

TVM_FFI_DLL_EXPORT const unsigned char __tvm_ffi__library_bin[] = {
    U64(24),
    U64(3), U64(0), U64(1), /* the third indptr value is missing */
};
_Static_assert(sizeof(__tvm_ffi__library_bin) == 8 + 24, "payload size field matches");
