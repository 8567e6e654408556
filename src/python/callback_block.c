/*
 * callback_block.c -- the ffi.Function objects that carry Python callables.
 *
 * A Python callable becomes an FFI function whenever it is passed to one, converted or
 * registered: in a loop that passes a lambda, once per call. Through TVMFFIFunctionCreate that
 * costs a heap allocation and free, the runtime's resource trampoline on every call, and a GIL
 * round trip in the deleter. The object is made here instead, as one block: the header (type
 * index kTVMFFIFunction), the function cell at +24 that every caller reads (its safe_call
 * receives the block itself, so the Python trampoline finds the callable without a hop;
 * cpp_call stays NULL, as the ABI requires of functions not made by C++ code), then a strong
 * reference to the callable. Blocks are recycled through a pool that is touched only with the
 * GIL held, and a call argument that nobody kept goes back to it without the atomic protocol.
 */
#include "callback_block.h"

#include <stdlib.h>

#include "owned_block.h"

#define POOL_MAX 64
static CoreCallbackBlock* g_pool[POOL_MAX];
static int g_pool_size = 0;

/* Blocks alive, for leak checks next to ffi.LiveObjectCount; changed only under the GIL. */
static long g_live_blocks;

static void block_free(void* self) {
  CoreCallbackBlock* block = (CoreCallbackBlock*)self;
  --g_live_blocks;
  if (g_pool_size < POOL_MAX) {
    g_pool[g_pool_size++] = block;
  } else {
    free(block);
  }
}

static void block_deleter(void* self, int flags) {
  core_owned_block_delete(self, flags, &((CoreCallbackBlock*)self)->callable, block_free);
}

int core_callback_block_new(PyObject* callable, TVMFFISafeCallType call,
                            TVMFFIObjectHandle* out) {
  CoreCallbackBlock* block;
  if (g_pool_size > 0) {
    block = g_pool[--g_pool_size];
  } else {
    block = (CoreCallbackBlock*)malloc(sizeof(CoreCallbackBlock));
    if (block == NULL) {
      PyErr_NoMemory();
      return -1;
    }
  }
  ++g_live_blocks;
  block->header.combined_ref_count = FFI_FRESH_REFCOUNT;
  block->header.type_index = kTVMFFIFunction;
  block->header.__padding = 0;
  block->header.deleter = block_deleter;
  block->cell.safe_call = call;
  block->cell.cpp_call = NULL;
  Py_INCREF(callable);
  block->callable = callable;
  *out = (TVMFFIObjectHandle)block;
  return 0;
}

int core_callback_block_holds(TVMFFIObjectHandle handle, PyObject* callable) {
  const CoreCallbackBlock* block = (const CoreCallbackBlock*)handle;
  return block->header.deleter == block_deleter && block->callable == callable;
}

int core_callback_block_release_sole(TVMFFIObjectHandle handle) {
  CoreCallbackBlock* block = (CoreCallbackBlock*)handle;
  if (block->header.deleter != block_deleter || !core_owned_block_is_sole(&block->header)) {
    return 0;
  }
  Py_CLEAR(block->callable);
  block_free(block);
  return 1;
}

static PyObject* mod_live_callbacks(PyObject* self, PyObject* unused) {
  (void)self;
  (void)unused;
  return PyLong_FromLong(g_live_blocks);
}

static PyMethodDef block_methods[] = {
    {"_live_callbacks", mod_live_callbacks, METH_NOARGS,
     "Function objects made by _core around Python callables that are still alive (for leak "
     "checks)."},
    {NULL, NULL, 0, NULL},
};

int core_callback_block_init(PyObject* module) {
  return PyModule_AddFunctions(module, block_methods);
}
