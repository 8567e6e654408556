/*
 * exported_kernels.c -- the kernel-style symbols of the testing library (TESTING_FIXTURES.md,
 * "Related C-level fixtures"): two typed functions exported as `__tvm_ffi_<name>`, each with
 * the `__tvm_ffi__metadata_<name>` (and, for one, `__tvm_ffi__doc_<name>`) symbols that
 * TVM_FFI_DLL_EXPORT_TYPED_FUNC(_DOC) emit when TVM_FFI_DLL_EXPORT_INCLUDE_METADATA is on
 * (ABI.md 7.1). C++ test programs link against these names, so a program built for the
 * reference's testing library links against ours too; `load_module` of the library finds
 * them as functions with metadata and a docstring.
 */
#include <stdlib.h>
#include <string.h>

#include "testing_internal.h"

#define EXPORTED_SAFE_CALL(name) \
  TESTING_EXPORT int name(void* handle, const TVMFFIAny* args, int32_t num_args, \
                          TVMFFIAny* result);                                    \
  int name(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result)

static const TestingFixture kSchemaIdInt = {
    .name = "testing_dll_schema_id_int",
    .signature = "testing_dll_schema_id_int(0: int) -> int",
    .schema = SCHEMA_FN(T_INT, T_INT),
    .num_params = 1,
};

static const TestingFixture kAddWithDocstring = {
    .name = "testing_dll_test_add_with_docstring",
    .signature = "testing_dll_test_add_with_docstring(0: int, 1: int) -> int",
    .schema = SCHEMA_FN(T_INT, T_INT "," T_INT),
    .num_params = 2,
};

/* numpy-style, as the reference's fixture documents it. */
static const char kAddDoc[] =
    "Add two integers and return the sum.\n\n"
    "Parameters\n----------\n"
    "a : int\n    First integer\n"
    "b : int\n    Second integer\n\n"
    "Returns\n-------\n"
    "result : int\n    Sum of a and b";

/* A String result made by the runtime from `text`. */
static int return_text(const char* text, size_t size, TVMFFIAny* result) {
  TVMFFIByteArray bytes = {text, size};
  return TVMFFIStringFromByteArray(&bytes, result);
}

static int return_metadata(const TestingFixture* fx, TVMFFIAny* result) {
  char* metadata = testing_schema_metadata(fx->schema, NULL);
  if (metadata == NULL) return testing_raise("MemoryError", "out of memory");
  int rc = return_text(metadata, strlen(metadata), result);
  free(metadata);
  return rc;
}

/* testing_dll_schema_id_int(x: int) -> int: returns x (a bool counts as an int). */
EXPORTED_SAFE_CALL(__tvm_ffi_testing_dll_schema_id_int) {
  (void)handle;
  int64_t x;
  if (num_args != kSchemaIdInt.num_params) return testing_arity_mismatch(&kSchemaIdInt, num_args);
  if (testing_arg_int(&kSchemaIdInt, args, 0, &x) != 0) return -1;
  testing_ret_int(result, x);
  return 0;
}

EXPORTED_SAFE_CALL(__tvm_ffi__metadata_testing_dll_schema_id_int) {
  (void)handle, (void)args, (void)num_args;
  return return_metadata(&kSchemaIdInt, result);
}

/* testing_dll_test_add_with_docstring(a: int, b: int) -> int: a + b, wrapping on overflow. */
EXPORTED_SAFE_CALL(__tvm_ffi_testing_dll_test_add_with_docstring) {
  (void)handle;
  int64_t a, b;
  if (num_args != kAddWithDocstring.num_params) {
    return testing_arity_mismatch(&kAddWithDocstring, num_args);
  }
  if (testing_arg_int(&kAddWithDocstring, args, 0, &a) != 0) return -1;
  if (testing_arg_int(&kAddWithDocstring, args, 1, &b) != 0) return -1;
  testing_ret_int(result, (int64_t)((uint64_t)a + (uint64_t)b));
  return 0;
}

EXPORTED_SAFE_CALL(__tvm_ffi__metadata_testing_dll_test_add_with_docstring) {
  (void)handle, (void)args, (void)num_args;
  return return_metadata(&kAddWithDocstring, result);
}

EXPORTED_SAFE_CALL(__tvm_ffi__doc_testing_dll_test_add_with_docstring) {
  (void)handle, (void)args, (void)num_args;
  return return_text(kAddDoc, sizeof(kAddDoc) - 1, result);
}
