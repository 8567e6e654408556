/*
 * owned_block.h -- the reference protocol of the FFI objects _core makes itself, each holding
 * one strong reference to a Python object: the tensor views of tensor_view.c (their owner) and
 * the function blocks of callback_block.c (their callable).
 *
 * The last FFI reference may go on any thread, with or without the GIL, or after the
 * interpreter has gone: the deleter takes the GIL itself, drops the Python reference when the
 * strong count ends and hands the block back when the weak count does, and does nothing at all
 * once Python is gone (the reference and the block are then left to the process exit). A block
 * whose count is still the fresh one (one strong reference, no weak ones) is reachable only by
 * its holder, so that holder may release it at once, without the atomic protocol.
 */
#ifndef TVM_FFI_PYTHON_OWNED_BLOCK_H_
#define TVM_FFI_PYTHON_OWNED_BLOCK_H_

#include "base.h"
#include "../runtime/refcount.h"

/* The body of such a deleter: `*ref` is the block's Python reference, `free_block` returns the
 * block to its pool (called with the GIL held). */
static inline void core_owned_block_delete(void* block, int flags, PyObject** ref,
                                           void (*free_block)(void* block)) {
  if (!core_python_alive()) return;
  PyGILState_STATE gil = PyGILState_Ensure();
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) Py_CLEAR(*ref);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) free_block(block);
  PyGILState_Release(gil);
}

/* Whether the caller holds the only reference to `obj` and nobody a weak one. */
static inline int core_owned_block_is_sole(TVMFFIObject* obj) {
  return __atomic_load_n(&obj->combined_ref_count, __ATOMIC_ACQUIRE) == FFI_FRESH_REFCOUNT;
}

#endif /* TVM_FFI_PYTHON_OWNED_BLOCK_H_ */
