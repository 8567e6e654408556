/*
 * our_c_kernel.c -- a C kernel built against OUR headers (include/) and linked with our
 * libtvm_ffi.so without an rpath; the tests load it into processes that run the REFERENCE
 * runtime, which must serve it unchanged.
 *
 * Exports through the stable C ABI (symbol prefix __tvm_ffi_):
 *   add_one(x, y)          y[i] = x[i] + 1 for 1-D float32 CPU tensors
 *   check_positive(v)      returns v when it is a positive int, raises ValueError otherwise
 */
#include <stdio.h>
#include <tvm/ffi/c_api.h>

/* A tensor arrives as a borrowed DLTensor* or as a Tensor object (DLTensor after the header). */
static const DLTensor* as_dltensor(const TVMFFIAny* arg) {
  if (arg->type_index == kTVMFFIDLTensorPtr) return (const DLTensor*)arg->v_ptr;
  if (arg->type_index == kTVMFFITensor) return TVMFFITensorGetDLTensorPtr(arg->v_obj);
  return NULL;
}

static int raise_error(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

/* Names the actual argument type with the loading runtime's own type key. */
static int raise_type_mismatch(const char* func, int index, const char* expected,
                               const TVMFFIAny* arg) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(arg->type_index);
  char msg[256];
  snprintf(msg, sizeof msg, "%s: argument #%d expected `%s` but got `%.*s`", func, index,
           expected, (int)info->type_key.size, info->type_key.data);
  return raise_error("TypeError", msg);
}

static int check_num_args(const char* func, int32_t expected, int32_t actual) {
  if (expected == actual) return 0;
  char msg[128];
  snprintf(msg, sizeof msg, "%s: expected %d arguments but got %d", func, (int)expected,
           (int)actual);
  return raise_error("TypeError", msg);
}

static int is_float32_vector(const DLTensor* t) {
  return t->ndim == 1 && t->dtype.code == kDLFloat && t->dtype.bits == 32 && t->dtype.lanes == 1 &&
         t->device.device_type == kDLCPU && (t->strides == NULL || t->strides[0] == 1);
}

TVM_FFI_DLL_EXPORT int __tvm_ffi_add_one(void* self, const TVMFFIAny* args, int32_t num_args,
                                         TVMFFIAny* result) {
  (void)self;
  if (check_num_args("add_one", 2, num_args) != 0) return -1;
  const DLTensor* x = as_dltensor(&args[0]);
  if (x == NULL) return raise_type_mismatch("add_one", 0, "DLTensor*", &args[0]);
  const DLTensor* y = as_dltensor(&args[1]);
  if (y == NULL) return raise_type_mismatch("add_one", 1, "DLTensor*", &args[1]);
  if (!is_float32_vector(x) || !is_float32_vector(y)) {
    return raise_error("ValueError", "add_one: expected contiguous 1-D float32 CPU tensors");
  }
  if (x->shape[0] != y->shape[0]) {
    char msg[128];
    snprintf(msg, sizeof msg, "add_one: shape mismatch, x has %lld elements but y has %lld",
             (long long)x->shape[0], (long long)y->shape[0]);
    return raise_error("ValueError", msg);
  }
  const float* src = (const float*)((const char*)x->data + x->byte_offset);
  float* dst = (float*)((char*)y->data + y->byte_offset);
  for (int64_t i = 0; i < x->shape[0]; ++i) dst[i] = src[i] + 1.0f;
  result->type_index = kTVMFFINone;
  return 0;
}

TVM_FFI_DLL_EXPORT int __tvm_ffi_check_positive(void* self, const TVMFFIAny* args,
                                                int32_t num_args, TVMFFIAny* result) {
  (void)self;
  if (check_num_args("check_positive", 1, num_args) != 0) return -1;
  if (args[0].type_index != kTVMFFIInt) {
    return raise_type_mismatch("check_positive", 0, "int", &args[0]);
  }
  if (args[0].v_int64 <= 0) {
    char msg[128];
    snprintf(msg, sizeof msg, "check_positive: expected a positive value but got %lld",
             (long long)args[0].v_int64);
    return raise_error("ValueError", msg);
  }
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = args[0].v_int64;
  return 0;
}
