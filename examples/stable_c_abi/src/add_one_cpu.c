/*
 * add_one_cpu.c -- a CPU kernel written in plain C against the stable C ABI.
 *
 * The library exports one symbol, __tvm_ffi_add_one_cpu, with the universal calling convention
 * (TVMFFISafeCallType). Any TVM-FFI host (the C loader in load.c, Python, C++) can call it:
 *   add_one_cpu(x, y): y[i] = x[i] + 1 for 1-D float32 CPU tensors x and y of equal length.
 */
#include <stdio.h>
#include <tvm/ffi/c_api.h>

/* [example.begin] */
/* Raises an error of the given kind in the caller's thread and returns the ABI's failure code. */
static int raise_error(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

/* Step 1 helper: a tensor argument arrives either as a borrowed DLTensor* or as a Tensor object,
 * whose DLTensor sits right after the object header. Anything else is a TypeError. */
static int get_tensor_arg(const TVMFFIAny* args, int index, const char* name, DLTensor** out) {
  char message[160];
  int32_t type_index = args[index].type_index;
  if (type_index == kTVMFFIDLTensorPtr) {
    *out = (DLTensor*)args[index].v_ptr;
    return 0;
  }
  if (type_index == kTVMFFITensor) {
    *out = TVMFFITensorGetDLTensorPtr(args[index].v_obj);
    return 0;
  }
  snprintf(message, sizeof(message),
           "add_one_cpu: argument #%d (%s) must be a tensor, got type index %d", index, name,
           (int)type_index);
  return raise_error("TypeError", message);
}

/* Checks that t is a 1-D float32 tensor in CPU memory. */
static int check_float32_vector(const DLTensor* t, const char* name) {
  char message[160];
  if (t->dtype.code != kDLFloat || t->dtype.bits != 32 || t->dtype.lanes != 1) {
    snprintf(message, sizeof(message),
             "add_one_cpu: %s must be float32, got dtype code=%d bits=%d lanes=%d", name,
             t->dtype.code, t->dtype.bits, t->dtype.lanes);
    return raise_error("TypeError", message);
  }
  if (t->ndim != 1) {
    snprintf(message, sizeof(message), "add_one_cpu: %s must be 1-D, got ndim=%d", name,
             (int)t->ndim);
    return raise_error("ValueError", message);
  }
  if (t->device.device_type != kDLCPU) {
    snprintf(message, sizeof(message), "add_one_cpu: %s must be on the CPU, got device type %d",
             name, (int)t->device.device_type);
    return raise_error("ValueError", message);
  }
  return 0;
}

/* Element i of a 1-D float32 tensor; strides are in elements, NULL means contiguous. */
static float* element(const DLTensor* t, int64_t i) {
  int64_t stride = t->strides != NULL ? t->strides[0] : 1;
  return (float*)((char*)t->data + t->byte_offset) + i * stride;
}

TVM_FFI_DLL_EXPORT int __tvm_ffi_add_one_cpu(void* handle, const TVMFFIAny* args,
                                             int32_t num_args, TVMFFIAny* result) {
  DLTensor* x;
  DLTensor* y;
  char message[160];
  (void)handle; /* this kernel keeps no per-function state */
  if (num_args != 2) {
    snprintf(message, sizeof(message), "add_one_cpu: expected 2 arguments (x, y), got %d",
             (int)num_args);
    return raise_error("TypeError", message);
  }
  /* Step 1: unpack and validate the two tensors. */
  if (get_tensor_arg(args, 0, "x", &x) != 0 || get_tensor_arg(args, 1, "y", &y) != 0) return -1;
  if (check_float32_vector(x, "x") != 0 || check_float32_vector(y, "y") != 0) return -1;
  if (x->shape[0] != y->shape[0]) {
    snprintf(message, sizeof(message),
             "add_one_cpu: x and y must have the same shape, got [%lld] and [%lld]",
             (long long)x->shape[0], (long long)y->shape[0]);
    return raise_error("ValueError", message);
  }
  /* Step 2: the computation. */
  for (int64_t i = 0; i < x->shape[0]; ++i) {
    *element(y, i) = *element(x, i) + 1.0f;
  }
  /* Step 3: no return value; the caller pre-set *result to None, write it explicitly anyway. */
  result->type_index = kTVMFFINone;
  result->zero_padding = 0;
  result->v_int64 = 0;
  return 0;
}
/* [example.end] */
