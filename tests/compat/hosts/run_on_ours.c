/*
 * run_on_ours.c -- runs kernels built against the REFERENCE headers on OUR runtime.
 *
 * Built against our headers and linked with our libtvm_ffi.so. The kernels record
 * `NEEDED libtvm_ffi.so` without an rpath, so dlopen binds them to the runtime this process
 * already loaded: ours. Usage:
 *
 *   run_on_ours <our libtvm_ffi.so> c   <ref_c_kernel.so>
 *   run_on_ours <our libtvm_ffi.so> cpp <ref_cpp_kernel.so>
 *
 * The exit status is the number of failed tests.
 */
#define _GNU_SOURCE
#include "host_common.h"

static const char* g_runtime_path;
static int g_is_cpp; /* the C++ kernel adds square/shout and header-made error messages */
static void* g_lib;

/* ---- both kernels ---- */

static void test_process_runs_our_runtime(void) { host_expect_only_runtime(g_runtime_path); }

static void test_add_one_with_dltensor_views(void) {
  void* add_one = host_kernel_function(g_lib, "add_one");
  EXPECT(add_one != NULL);
  if (add_one == NULL) return;
  HostVector x, y;
  host_vector_init(&x, 5, 10.0f);
  host_vector_init(&y, 5, 0.0f);
  TVMFFIAny args[2] = {host_any_dltensor(&x.dl), host_any_dltensor(&y.dl)};
  TVMFFIAny result;
  EXPECT(host_ok(host_call(add_one, args, 2, &result)));
  EXPECT_EQ_INT(result.type_index, kTVMFFINone);
  for (int i = 0; i < 5; ++i) EXPECT(y.data[i] == x.data[i] + 1.0f);
  EXPECT_EQ_INT(y.data[5], 0); /* nothing written past the end */
  TVMFFIObjectDecRef(add_one);
}

/* Tensor objects made by our runtime: the kernel reads the DLTensor at +24 of our object. */
static void test_add_one_with_tensor_objects(void) {
  void* add_one = host_kernel_function(g_lib, "add_one");
  EXPECT(add_one != NULL);
  if (add_one == NULL) return;
  HostVector x, y;
  host_vector_init(&x, 4, -2.5f);
  host_vector_init(&y, 4, 0.0f);
  host_dlpack_deleter_calls = 0;
  void* tx = host_tensor_object(&x);
  void* ty = host_tensor_object(&y);
  EXPECT(tx != NULL && ty != NULL);
  if (tx == NULL || ty == NULL) {
    if (tx) TVMFFIObjectDecRef(tx);
    if (ty) TVMFFIObjectDecRef(ty);
    TVMFFIObjectDecRef(add_one);
    return;
  }
  EXPECT_EQ_INT(((TVMFFIObject*)tx)->type_index, kTVMFFITensor);
  TVMFFIAny args[2] = {host_any_object(tx), host_any_object(ty)};
  TVMFFIAny result;
  EXPECT(host_ok(host_call(add_one, args, 2, &result)));
  for (int i = 0; i < 4; ++i) EXPECT(y.data[i] == x.data[i] + 1.0f);
  /* the kernel borrowed the tensors: counts are back to ours alone */
  EXPECT_EQ_INT(host_strong_count(tx), 1);
  EXPECT_EQ_INT(host_strong_count(ty), 1);
  /* mixing a view and an object in one call */
  TVMFFIAny mixed[2] = {host_any_object(ty), host_any_dltensor(&x.dl)};
  EXPECT(host_ok(host_call(add_one, mixed, 2, &result)));
  for (int i = 0; i < 4; ++i) EXPECT(x.data[i] == y.data[i] + 1.0f);
  TVMFFIObjectDecRef(tx);
  TVMFFIObjectDecRef(ty);
  EXPECT_EQ_INT(host_dlpack_deleter_calls, 2); /* each producer deleter ran exactly once */
  TVMFFIObjectDecRef(add_one);
}

/* The mismatch message names the actual type by the key OUR TVMFFIGetTypeInfo reports. */
static void test_add_one_rejects_wrong_argument_types(void) {
  void* add_one = host_kernel_function(g_lib, "add_one");
  EXPECT(add_one != NULL);
  if (add_one == NULL) return;
  HostVector x;
  host_vector_init(&x, 3, 0.0f);
  char key[64], needle[160];
  TVMFFIAny result;

  TVMFFIAny with_int[2] = {host_any_dltensor(&x.dl), host_any_int(42)};
  snprintf(needle, sizeof needle, "`DLTensor*` but got `%s`",
           host_type_key_cstr(kTVMFFIInt, key, sizeof key));
  EXPECT_RAISED(host_call(add_one, with_int, 2, &result), "TypeError", needle);
  EXPECT_RAISED(host_call(add_one, with_int, 2, &result), "TypeError", "argument #1");
  EXPECT_EQ_INT(result.type_index, kTVMFFINone);

  /* an object argument: a heap string made by our runtime */
  TVMFFIAny text;
  TVMFFIByteArray long_text = host_ba("definitely not a tensor");
  EXPECT(host_ok(TVMFFIStringFromByteArray(&long_text, &text)));
  EXPECT_EQ_INT(text.type_index, kTVMFFIStr);
  TVMFFIAny with_str[2] = {text, host_any_dltensor(&x.dl)};
  snprintf(needle, sizeof needle, "`DLTensor*` but got `%s`",
           host_type_key_cstr(kTVMFFIStr, key, sizeof key));
  EXPECT_RAISED(host_call(add_one, with_str, 2, &result), "TypeError", needle);
  EXPECT_EQ_INT(host_strong_count(text.v_obj), 1);
  host_release(&text);
  TVMFFIObjectDecRef(add_one);
}

static void test_add_one_rejects_wrong_arity(void) {
  void* add_one = host_kernel_function(g_lib, "add_one");
  EXPECT(add_one != NULL);
  if (add_one == NULL) return;
  HostVector x;
  host_vector_init(&x, 3, 0.0f);
  TVMFFIAny args[1] = {host_any_dltensor(&x.dl)};
  TVMFFIAny result;
  const char* needle = g_is_cpp ? "Expected 2 but got 1 arguments"
                                : "expected 2 arguments but got 1";
  EXPECT_RAISED(host_call(add_one, args, 1, &result), "TypeError", needle);
  if (g_is_cpp) {
    EXPECT_RAISED(host_call(add_one, args, 1, &result), "TypeError",
                  "Mismatched number of arguments when calling: `add_one");
  }
  EXPECT_RAISED(host_call(add_one, NULL, 0, &result), "TypeError", "but got 0");
  TVMFFIObjectDecRef(add_one);
}

/* A kernel-side ValueError keeps kind and message; the C++ one also carries a backtrace that
 * starts at the TVM_FFI_THROW site (from our TVMFFIBacktrace). */
static void test_add_one_value_error(void) {
  void* add_one = host_kernel_function(g_lib, "add_one");
  EXPECT(add_one != NULL);
  if (add_one == NULL) return;
  HostVector x, y;
  host_vector_init(&x, 4, 0.0f);
  host_vector_init(&y, 3, 0.0f);
  TVMFFIAny args[2] = {host_any_dltensor(&x.dl), host_any_dltensor(&y.dl)};
  TVMFFIAny result;
  EXPECT_EQ_INT(host_call(add_one, args, 2, &result), -1);
  void* err = host_take_error();
  EXPECT(err != NULL);
  if (err != NULL) {
    TVMFFIErrorCell* cell = host_error_cell(err);
    EXPECT_EQ_INT(((TVMFFIObject*)err)->type_index, kTVMFFIError);
    EXPECT_BYTES_EQ(cell->kind, "ValueError");
    EXPECT_BYTES_EQ(cell->message, "add_one: shape mismatch, x has 4 elements but y has 3");
    if (g_is_cpp) {
      EXPECT(cell->backtrace.size > 0);
      EXPECT_CONTAINS(cell->backtrace, "ref_cpp_kernel.cc");
    }
    EXPECT_EQ_INT(host_strong_count(err), 1);
    TVMFFIObjectDecRef(err); /* a C++ error is freed by the kernel's own deleter */
  }
  EXPECT(host_take_error() == NULL); /* the slot was cleared by MoveFromRaised */
  for (int i = 0; i < 3; ++i) EXPECT(y.data[i] == (float)i); /* untouched */
  TVMFFIObjectDecRef(add_one);
}

/* The C++ kernel's own TVM_FFI_THROW(TypeError) (not the argument unpacker's). */
static void test_add_one_dtype_type_error(void) {
  void* add_one = host_kernel_function(g_lib, "add_one");
  EXPECT(add_one != NULL);
  if (add_one == NULL) return;
  HostVector x, y;
  host_vector_init(&x, 2, 0.0f);
  host_vector_init(&y, 2, 0.0f);
  x.dl.dtype.bits = 64; /* pretend float64 */
  TVMFFIAny args[2] = {host_any_dltensor(&x.dl), host_any_dltensor(&y.dl)};
  TVMFFIAny result;
  if (g_is_cpp) {
    EXPECT_RAISED(host_call(add_one, args, 2, &result), "TypeError",
                  "add_one expects float32 tensors");
  } else {
    EXPECT_RAISED(host_call(add_one, args, 2, &result), "ValueError",
                  "expected contiguous 1-D float32 CPU tensors");
  }
  TVMFFIObjectDecRef(add_one);
}

/* ---- C++ kernel only ---- */

/* dlopen ran the headers' static initializers, which registered these keys with OUR registry. */
static void test_static_init_registered_types(void) {
  static const char* keys[] = {"ffi.EnumState",           "ffi.Enum",
                               "ffi.IntEnum",             "ffi.StrEnum",
                               "ffi.reflection.AccessStep", "ffi.reflection.AccessPath"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i) {
    TVMFFIByteArray key = host_ba(keys[i]);
    int32_t index = -1;
    EXPECT(host_ok(TVMFFITypeKeyToIndex(&key, &index)));
    EXPECT(index >= kTVMFFIDynObjectBegin);
    if (index < kTVMFFIDynObjectBegin) continue;
    EXPECT_BYTES_EQ(host_type_key(index), keys[i]);
    /* asking again (what a second kernel's initializers do) returns the same index */
    EXPECT_EQ_INT(TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 1, kTVMFFIObject), index);
  }
}

static void test_square_int64(void) {
  void* square = host_kernel_function(g_lib, "square");
  EXPECT(square != NULL);
  if (square == NULL) return;
  TVMFFIAny result;
  TVMFFIAny seven = host_any_int(7);
  EXPECT(host_ok(host_call(square, &seven, 1, &result)));
  EXPECT_EQ_INT(result.type_index, kTVMFFIInt);
  EXPECT_EQ_INT(result.v_int64, 49);
  TVMFFIAny big = host_any_int(-3000000000LL);
  EXPECT(host_ok(host_call(square, &big, 1, &result)));
  EXPECT_EQ_INT(result.v_int64, 9000000000000000000LL);
  TVMFFIAny yes = host_any_bool(1); /* bool is accepted where int is expected */
  EXPECT(host_ok(host_call(square, &yes, 1, &result)));
  EXPECT_EQ_INT(result.type_index, kTVMFFIInt);
  EXPECT_EQ_INT(result.v_int64, 1);

  char key[64], needle[160];
  TVMFFIAny pi = host_any_float(3.14);
  snprintf(needle, sizeof needle, "Expected `int` but got `%s`",
           host_type_key_cstr(kTVMFFIFloat, key, sizeof key));
  EXPECT_RAISED(host_call(square, &pi, 1, &result), "TypeError", needle);
  EXPECT_RAISED(host_call(square, &pi, 1, &result), "TypeError",
                "Mismatched type on argument #0 when calling: `square");
  TVMFFIObjectDecRef(square);
}

/* Calls shout(input) and checks the returned string value and its representation. */
static void expect_shout(void* shout, TVMFFIAny input, const char* expected) {
  TVMFFIAny result;
  EXPECT(host_ok(host_call(shout, &input, 1, &result)));
  size_t n = strlen(expected);
  EXPECT_EQ_INT(result.type_index, n <= 7 ? kTVMFFISmallStr : kTVMFFIStr);
  if (result.type_index != kTVMFFISmallStr && result.type_index != kTVMFFIStr) return;
  TVMFFIByteArray got = host_string_bytes(&result);
  EXPECT_BYTES_EQ(got, expected);
  EXPECT_EQ_INT(got.data[got.size], '\0');
  if (result.type_index == kTVMFFIStr) {
    EXPECT_EQ_INT(host_strong_count(result.v_obj), 1); /* the caller's reference alone */
  }
  host_release(&result); /* a heap result goes back through the kernel's deleter */
}

static void test_shout_small_and_heap_strings(void) {
  void* shout = host_kernel_function(g_lib, "shout");
  EXPECT(shout != NULL);
  if (shout == NULL) return;
  expect_shout(shout, host_any_raw_str("hi"), "HI!");                /* raw C string view */
  expect_shout(shout, host_any_raw_str("tvm-ffi"), "TVM-FFI!");      /* small in, heap out */
  expect_shout(shout, host_any_raw_str(""), "!");

  TVMFFIByteArray small_text = host_ba("abc"), heap_text = host_ba("hello, world");
  TVMFFIAny small, heap;
  EXPECT(host_ok(TVMFFIStringFromByteArray(&small_text, &small)));
  EXPECT(host_ok(TVMFFIStringFromByteArray(&heap_text, &heap)));
  EXPECT_EQ_INT(small.type_index, kTVMFFISmallStr);
  EXPECT_EQ_INT(heap.type_index, kTVMFFIStr);
  expect_shout(shout, small, "ABC!");
  expect_shout(shout, heap, "HELLO, WORLD!"); /* our string object read by inline C++ */
  EXPECT_EQ_INT(host_strong_count(heap.v_obj), 1);
  host_release(&small);
  host_release(&heap);

  char key[64], needle[160];
  TVMFFIAny number = host_any_int(5);
  TVMFFIAny result;
  snprintf(needle, sizeof needle, "but got `%s`", host_type_key_cstr(kTVMFFIInt, key, sizeof key));
  EXPECT_RAISED(host_call(shout, &number, 1, &result), "TypeError", needle);
  TVMFFIObjectDecRef(shout);
}

int main(int argc, char** argv) {
  if (argc != 4 || (strcmp(argv[2], "c") != 0 && strcmp(argv[2], "cpp") != 0)) {
    fprintf(stderr, "usage: %s <runtime.so> c|cpp <kernel.so>\n", argv[0]);
    return 100;
  }
  g_runtime_path = argv[1];
  g_is_cpp = strcmp(argv[2], "cpp") == 0;
  g_lib = host_open_kernel(argv[3]); /* runs the kernel's static initializers */
  if (g_lib == NULL) return 101;

  RUN(test_process_runs_our_runtime);
  if (g_is_cpp) RUN(test_static_init_registered_types);
  RUN(test_add_one_with_dltensor_views);
  RUN(test_add_one_with_tensor_objects);
  RUN(test_add_one_rejects_wrong_argument_types);
  RUN(test_add_one_rejects_wrong_arity);
  RUN(test_add_one_value_error);
  RUN(test_add_one_dtype_type_error);
  if (g_is_cpp) {
    RUN(test_square_int64);
    RUN(test_shout_small_and_heap_strings);
  }
  /* The kernel stays loaded: type keys registered at load time may point into it, and the
   * reference loader never unloads libraries either. */
  return host_failed_tests;
}
