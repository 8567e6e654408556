/* bin_cyclic_lib.c -- node 0 ("_lib") and node 1 ("testblob") import each other. */
#include "library_bin.h"

TVM_FFI_DLL_EXPORT const unsigned char __tvm_ffi__library_bin[] = {
    U64(97),
    U64(3), U64(0), U64(1), U64(2), /* node 0 -> [0,1), node 1 -> [1,2) */
    U64(2), U64(1), U64(0),         /* node 0 imports 1, node 1 imports 0 */
    U64(4), '_', 'l', 'i', 'b',
    U64(8), 't', 'e', 's', 't', 'b', 'l', 'o', 'b',
    U64(5), 'h', 'e', 'l', 'l', 'o',
};
_Static_assert(sizeof(__tvm_ffi__library_bin) == 8 + 97, "payload size field matches");
