/*
 * run_on_ref.c -- runs a kernel built against OUR headers on the REFERENCE runtime.
 *
 * Built against the reference headers and linked with the reference libtvm_ffi.so. The kernel
 * records `NEEDED libtvm_ffi.so` without an rpath, so dlopen binds it to the runtime this
 * process already loaded: the reference one. Usage:
 *
 *   run_on_ref <reference libtvm_ffi.so> <our_c_kernel.so>
 *
 * The exit status is the number of failed tests.
 */
#define _GNU_SOURCE
#include "host_common.h"

static const char* g_runtime_path;
static void* g_lib;

static void test_process_runs_reference_runtime(void) { host_expect_only_runtime(g_runtime_path); }

static void test_add_one_with_dltensor_views(void) {
  void* add_one = host_kernel_function(g_lib, "add_one");
  EXPECT(add_one != NULL);
  if (add_one == NULL) return;
  HostVector x, y;
  host_vector_init(&x, 6, 1.5f);
  host_vector_init(&y, 6, 0.0f);
  TVMFFIAny args[2] = {host_any_dltensor(&x.dl), host_any_dltensor(&y.dl)};
  TVMFFIAny result;
  EXPECT(host_ok(host_call(add_one, args, 2, &result)));
  EXPECT_EQ_INT(result.type_index, kTVMFFINone);
  for (int i = 0; i < 6; ++i) EXPECT(y.data[i] == x.data[i] + 1.0f);
  TVMFFIObjectDecRef(add_one);
}

/* Tensor objects made by the reference runtime, read by our header's inline accessor. */
static void test_add_one_with_tensor_objects(void) {
  void* add_one = host_kernel_function(g_lib, "add_one");
  EXPECT(add_one != NULL);
  if (add_one == NULL) return;
  HostVector x, y;
  host_vector_init(&x, 3, 7.0f);
  host_vector_init(&y, 3, 0.0f);
  host_dlpack_deleter_calls = 0;
  void* tx = host_tensor_object(&x);
  void* ty = host_tensor_object(&y);
  EXPECT(tx != NULL && ty != NULL);
  if (tx != NULL && ty != NULL) {
    TVMFFIAny args[2] = {host_any_object(tx), host_any_object(ty)};
    TVMFFIAny result;
    EXPECT(host_ok(host_call(add_one, args, 2, &result)));
    for (int i = 0; i < 3; ++i) EXPECT(y.data[i] == x.data[i] + 1.0f);
    EXPECT_EQ_INT(host_strong_count(tx), 1);
    EXPECT_EQ_INT(host_strong_count(ty), 1);
  }
  if (tx) TVMFFIObjectDecRef(tx);
  if (ty) TVMFFIObjectDecRef(ty);
  EXPECT_EQ_INT(host_dlpack_deleter_calls, 2);
  TVMFFIObjectDecRef(add_one);
}

/* Our kernel names the actual type with the key the reference TVMFFIGetTypeInfo reports. */
static void test_add_one_rejects_wrong_arguments(void) {
  void* add_one = host_kernel_function(g_lib, "add_one");
  EXPECT(add_one != NULL);
  if (add_one == NULL) return;
  HostVector x;
  host_vector_init(&x, 2, 0.0f);
  char key[64], needle[160];
  TVMFFIAny result;
  TVMFFIAny with_float[2] = {host_any_float(1.0), host_any_dltensor(&x.dl)};
  snprintf(needle, sizeof needle, "argument #0 expected `DLTensor*` but got `%s`",
           host_type_key_cstr(kTVMFFIFloat, key, sizeof key));
  EXPECT_RAISED(host_call(add_one, with_float, 2, &result), "TypeError", needle);
  EXPECT_RAISED(host_call(add_one, with_float, 1, &result), "TypeError",
                "add_one: expected 2 arguments but got 1");
  TVMFFIObjectDecRef(add_one);
}

static void test_add_one_value_error(void) {
  void* add_one = host_kernel_function(g_lib, "add_one");
  EXPECT(add_one != NULL);
  if (add_one == NULL) return;
  HostVector x, y;
  host_vector_init(&x, 2, 0.0f);
  host_vector_init(&y, 5, 0.0f);
  TVMFFIAny args[2] = {host_any_dltensor(&x.dl), host_any_dltensor(&y.dl)};
  TVMFFIAny result;
  EXPECT_RAISED(host_call(add_one, args, 2, &result), "ValueError",
                "add_one: shape mismatch, x has 2 elements but y has 5");
  EXPECT(host_take_error() == NULL);
  TVMFFIObjectDecRef(add_one);
}

static void test_check_positive(void) {
  void* check_positive = host_kernel_function(g_lib, "check_positive");
  EXPECT(check_positive != NULL);
  if (check_positive == NULL) return;
  TVMFFIAny result;
  TVMFFIAny five = host_any_int(5);
  EXPECT(host_ok(host_call(check_positive, &five, 1, &result)));
  EXPECT_EQ_INT(result.type_index, kTVMFFIInt);
  EXPECT_EQ_INT(result.v_int64, 5);

  TVMFFIAny minus_three = host_any_int(-3);
  EXPECT_RAISED(host_call(check_positive, &minus_three, 1, &result), "ValueError",
                "check_positive: expected a positive value but got -3");

  char key[64], needle[160];
  TVMFFIAny text = host_any_raw_str("five");
  snprintf(needle, sizeof needle, "expected `int` but got `%s`",
           host_type_key_cstr(kTVMFFIRawStr, key, sizeof key));
  EXPECT_RAISED(host_call(check_positive, &text, 1, &result), "TypeError", needle);
  TVMFFIObjectDecRef(check_positive);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s <runtime.so> <kernel.so>\n", argv[0]);
    return 100;
  }
  g_runtime_path = argv[1];
  g_lib = host_open_kernel(argv[2]);
  if (g_lib == NULL) return 101;
  RUN(test_process_runs_reference_runtime);
  RUN(test_add_one_with_dltensor_views);
  RUN(test_add_one_with_tensor_objects);
  RUN(test_add_one_rejects_wrong_arguments);
  RUN(test_add_one_value_error);
  RUN(test_check_positive);
  return host_failed_tests;
}
