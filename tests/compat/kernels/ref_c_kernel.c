/*
 * ref_c_kernel.c -- a plain C kernel built against the REFERENCE tvm-ffi headers
 * (build/refpkg/tvm_ffi/include), the way a kernel author using the reference package would.
 *
 * Exports through the stable C ABI (symbol prefix __tvm_ffi_):
 *   add_one(x, y)   y[i] = x[i] + 1 for 1-D float32 CPU tensors
 *
 * A tensor argument arrives either as a borrowed DLTensor* (kTVMFFIDLTensorPtr) or as a Tensor
 * object (kTVMFFITensor) whose DLTensor sits right after the 24-byte object header. The reference
 * c_api.h only offers the cell accessors to C++, so C code does the offset arithmetic itself.
 * Errors are raised with TVMFFIErrorSetRaisedFromCStr: the runtime that loaded us builds them.
 */
#include <stdio.h>
#include <tvm/ffi/c_api.h>

static const DLTensor* as_dltensor(const TVMFFIAny* arg) {
  if (arg->type_index == kTVMFFIDLTensorPtr) return (const DLTensor*)arg->v_ptr;
  if (arg->type_index == kTVMFFITensor) {
    return (const DLTensor*)((const char*)arg->v_obj + sizeof(TVMFFIObject));
  }
  return NULL;
}

static int raise_error(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

/* Names the actual argument type with the runtime's own type key, like the C++ headers do. */
static int raise_type_mismatch(int index, const TVMFFIAny* arg) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(arg->type_index);
  char msg[256];
  snprintf(msg, sizeof msg, "add_one: argument #%d expected `DLTensor*` but got `%.*s`", index,
           (int)info->type_key.size, info->type_key.data);
  return raise_error("TypeError", msg);
}

static int is_float32_vector(const DLTensor* t) {
  return t->ndim == 1 && t->dtype.code == kDLFloat && t->dtype.bits == 32 && t->dtype.lanes == 1 &&
         t->device.device_type == kDLCPU && (t->strides == NULL || t->strides[0] == 1);
}

TVM_FFI_DLL_EXPORT int __tvm_ffi_add_one(void* self, const TVMFFIAny* args, int32_t num_args,
                                         TVMFFIAny* result) {
  (void)self;
  if (num_args != 2) {
    char msg[128];
    snprintf(msg, sizeof msg, "add_one: expected 2 arguments but got %d", (int)num_args);
    return raise_error("TypeError", msg);
  }
  const DLTensor* x = as_dltensor(&args[0]);
  if (x == NULL) return raise_type_mismatch(0, &args[0]);
  const DLTensor* y = as_dltensor(&args[1]);
  if (y == NULL) return raise_type_mismatch(1, &args[1]);
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
  result->type_index = kTVMFFINone; /* void function: result stays None */
  return 0;
}
