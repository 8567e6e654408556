/*
 * function_object.h -- the layout of function objects made by TVMFFIFunctionCreate. Shared by
 * the runtime (function.c) and by the Python extension, which recognises its own Python
 * callbacks by their resource call (src/python/gil_policy.c): they keep the GIL when called.
 */
#ifndef TVM_FFI_RUNTIME_FUNCTION_OBJECT_H_
#define TVM_FFI_RUNTIME_FUNCTION_OBJECT_H_

#include <tvm/ffi/c_api.h>

/* The cell's safe_call is the runtime's one trampoline, which hands `resource` to
 * `resource_call`; built-ins put their own safe_call into the cell and leave the rest unused. */
typedef struct {
  TVMFFIObject header;
  TVMFFIFunctionCell cell;
  void* resource;
  TVMFFISafeCallType resource_call;
  void (*resource_release)(void* resource);
} FunctionObject;

#endif /* TVM_FFI_RUNTIME_FUNCTION_OBJECT_H_ */
