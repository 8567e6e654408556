/*
 * add_one.c -- the quickstart kernel: add_one(x, y) writes y[i] = x[i] + 1.
 *
 * x and y are 1-D float32 CPU tensors of the same length. The function is exported as
 * __tvm_ffi_add_one with the universal calling convention (TVMFFISafeCallType), which is all
 * tvm_ffi.load_module needs to find it as `module.add_one`. Only the stable C header is used.
 */
#include <stdio.h>
#include <tvm/ffi/c_api.h>

/* Puts an error into the calling thread's error slot and returns the ABI's failure code. */
static int fail(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

/* Tensors arrive as a borrowed DLTensor* (from C callers) or as a tensor object (from Python,
 * which wraps NumPy arrays, torch tensors and tvm_ffi.Tensor this way). */
static DLTensor* as_tensor(const TVMFFIAny* arg) {
  if (arg->type_index == kTVMFFIDLTensorPtr) return (DLTensor*)arg->v_ptr;
  if (arg->type_index == kTVMFFITensor) return TVMFFITensorGetDLTensorPtr(arg->v_obj);
  return NULL;
}

static int is_float32_cpu_vector(const DLTensor* t) {
  return t->dtype.code == kDLFloat && t->dtype.bits == 32 && t->dtype.lanes == 1 && t->ndim == 1 &&
         t->device.device_type == kDLCPU;
}

/* Address of element i; strides count elements, and NULL strides mean a compact tensor. */
static float* at(const DLTensor* t, int64_t i) {
  int64_t step = t->strides != NULL ? t->strides[0] : 1;
  return (float*)((char*)t->data + t->byte_offset) + i * step;
}

TVM_FFI_DLL_EXPORT int __tvm_ffi_add_one(void* self, const TVMFFIAny* args, int32_t num_args,
                                         TVMFFIAny* result) {
  char message[128];
  (void)self;
  if (num_args != 2) {
    snprintf(message, sizeof(message), "add_one(x, y) takes 2 arguments, got %d", (int)num_args);
    return fail("TypeError", message);
  }
  DLTensor* x = as_tensor(&args[0]);
  DLTensor* y = as_tensor(&args[1]);
  if (x == NULL || y == NULL) return fail("TypeError", "add_one(x, y): x and y must be tensors");
  if (!is_float32_cpu_vector(x) || !is_float32_cpu_vector(y)) {
    return fail("TypeError", "add_one(x, y): x and y must be 1-D float32 CPU tensors");
  }
  if (x->shape[0] != y->shape[0]) {
    snprintf(message, sizeof(message), "add_one(x, y): lengths differ (%lld vs %lld)",
             (long long)x->shape[0], (long long)y->shape[0]);
    return fail("ValueError", message);
  }
  for (int64_t i = 0; i < x->shape[0]; ++i) *at(y, i) = *at(x, i) + 1.0f;
  /* No return value: the result is None. */
  result->type_index = kTVMFFINone;
  result->zero_padding = 0;
  result->v_int64 = 0;
  return 0;
}
