/*
 * callback_block.h -- the ffi.Function objects that carry Python callables (callback_block.c).
 */
#ifndef TVM_FFI_PYTHON_CALLBACK_BLOCK_H_
#define TVM_FFI_PYTHON_CALLBACK_BLOCK_H_

#include "base.h"

/* An ffi.Function as every caller sees it (header, then the cell at +24 whose safe_call gets
 * the block itself), followed by what only this extension reads: the callable. */
typedef struct {
  TVMFFIObject header;
  TVMFFIFunctionCell cell;
  PyObject* callable; /* strong reference; NULL once the last strong FFI reference went */
} CoreCallbackBlock;

/* A function object whose calls go to `call(block, args, n, result)`, holding a new reference
 * to `callable`. 0, or -1 with MemoryError. GIL held. */
int core_callback_block_new(PyObject* callable, TVMFFISafeCallType call, TVMFFIObjectHandle* out);
/* Whether `handle` is a block made here around exactly `callable`. */
int core_callback_block_holds(TVMFFIObjectHandle handle, PyObject* callable);
/* Releases `handle` right away when it is a block whose only reference is the caller's (a call
 * argument the callee did not keep), returning 1; 0 leaves it to TVMFFIObjectDecRef. GIL held:
 * it spares the deleter's GIL round trip and the atomic protocol. */
int core_callback_block_release_sole(TVMFFIObjectHandle handle);
int core_callback_block_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_CALLBACK_BLOCK_H_ */
