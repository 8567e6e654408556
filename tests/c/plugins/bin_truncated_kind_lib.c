/* bin_truncated_kind_lib.c -- a valid import tree followed by a kind string whose length
 * (100) runs past the end of the declared payload. */
#include "library_bin.h"

TVM_FFI_DLL_EXPORT const unsigned char __tvm_ffi__library_bin[] = {
    U64(44),
    U64(2), U64(0), U64(0), /* one module, no imports */
    U64(0),                 /* no child indices */
    U64(100), '_', 'l', 'i', 'b',
};
_Static_assert(sizeof(__tvm_ffi__library_bin) == 8 + 44, "payload size field matches");
