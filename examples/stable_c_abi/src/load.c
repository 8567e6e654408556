/*
 * load.c -- calls the add_one_cpu kernel through the stable C ABI, from plain C.
 *
 * Usage: load [path/to/add_one_cpu.so]   (default: build/add_one_cpu.so)
 *
 * The kernel library is opened with dlopen, its exported symbol is wrapped into a TVM-FFI
 * function object, and the function is called with DLTensor arguments. The same calling code
 * works for any function object: one from a kernel, a Python callable, or a C++ lambda.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

/* [aux.begin] */
/* Prints "<kind>: <message>" of the error the last failed call raised, then releases it. */
static void print_raised_error(const char* what) {
  TVMFFIObjectHandle error = NULL;
  TVMFFIErrorMoveFromRaised(&error);
  if (error == NULL) {
    printf("%s: failed without an error object\n", what);
    return;
  }
  const TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(error);
  printf("%s: %.*s: %.*s\n", what, (int)cell->kind.size, cell->kind.data, (int)cell->message.size,
         cell->message.data);
  TVMFFIObjectDecRef(error);
}

/* A 1-D float32 CPU tensor over caller-owned memory. */
static DLTensor make_vector(float* data, int64_t* shape, int64_t* strides) {
  DLTensor t;
  memset(&t, 0, sizeof(t));
  t.data = data;
  t.device.device_type = kDLCPU;
  t.device.device_id = 0;
  t.ndim = 1;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 32;
  t.dtype.lanes = 1;
  t.shape = shape;
  t.strides = strides;
  t.byte_offset = 0;
  return t;
}

/* A borrowed DLTensor* argument; unused bytes of an Any must be zero. */
static TVMFFIAny tensor_arg(DLTensor* t) {
  TVMFFIAny arg;
  memset(&arg, 0, sizeof(arg));
  arg.type_index = kTVMFFIDLTensorPtr;
  arg.v_ptr = t;
  return arg;
}

/* An int argument. */
static TVMFFIAny int_arg(int64_t value) {
  TVMFFIAny arg;
  memset(&arg, 0, sizeof(arg));
  arg.type_index = kTVMFFIInt;
  arg.v_int64 = value;
  return arg;
}

/* Calls f(args...); prints the raised error and returns -1 when the call fails. */
static int call(TVMFFIObjectHandle f, TVMFFIAny* args, int32_t num_args, const char* what) {
  TVMFFIAny result;
  memset(&result, 0, sizeof(result)); /* type_index 0 = None, as the convention requires */
  if (TVMFFIFunctionCall(f, args, num_args, &result) != 0) {
    print_raised_error(what);
    return -1;
  }
  return 0;
}

static void print_vector(const char* label, const float* data, int64_t n) {
  printf("%s = [", label);
  for (int64_t i = 0; i < n; ++i) printf(i == 0 ? "%g" : ", %g", data[i]);
  printf("]\n");
}

/* Function-object deleter: the function owns the library, so closing it happens last. */
static void close_library(void* library) { dlclose(library); }
/* [aux.end] */

int main(int argc, char** argv) {
  /* [main.begin] */
  const char* path = argc > 1 ? argv[1] : "build/add_one_cpu.so";

  /* Step 1: load the kernel library. */
  void* library = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
  if (library == NULL) {
    fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
    return 1;
  }

  /* Step 2: find add_one_cpu and wrap it as a function object that owns the library. */
  TVMFFISafeCallType add_one_cpu = (TVMFFISafeCallType)dlsym(library, "__tvm_ffi_add_one_cpu");
  if (add_one_cpu == NULL) {
    fprintf(stderr, "%s does not export __tvm_ffi_add_one_cpu\n", path);
    dlclose(library);
    return 1;
  }
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionCreate(library, add_one_cpu, close_library, &f) != 0) {
    print_raised_error("TVMFFIFunctionCreate");
    dlclose(library);
    return 1;
  }

  /* Step 3: call it with two DLTensor arguments, y = x + 1. */
  float x_data[5] = {1, 2, 3, 4, 5};
  float y_data[5] = {0};
  int64_t shape[1] = {5};
  int64_t strides[1] = {1};
  DLTensor x = make_vector(x_data, shape, strides);
  DLTensor y = make_vector(y_data, shape, strides);
  TVMFFIAny args[2] = {tensor_arg(&x), tensor_arg(&y)};
  int status = call(f, args, 2, "add_one_cpu");
  if (status == 0) {
    print_vector("x", x_data, 5);
    print_vector("y", y_data, 5);
  }

  /* Errors come back as objects carrying a kind and a message. Here y is too short... */
  int64_t short_shape[1] = {3};
  DLTensor y_short = make_vector(y_data, short_shape, strides);
  TVMFFIAny short_args[2] = {tensor_arg(&x), tensor_arg(&y_short)};
  if (call(f, short_args, 2, "expected error") == 0) status = -1;
  /* ...and here the second argument is not a tensor at all. */
  TVMFFIAny int_args[2] = {tensor_arg(&x), int_arg(7)};
  if (call(f, int_args, 2, "expected error") == 0) status = -1;

  /* Step 4: release the function; its deleter closes the library. */
  TVMFFIObjectDecRef(f);
  return status == 0 ? 0 : 1;
  /* [main.end] */
}
