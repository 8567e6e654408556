/*
 * check.h -- the tiny assertion kit of the C-level runtime tests. Each test program is one
 * main() calling RUN(test_fn); a failed CHECK prints where and why, and the exit status is the
 * number of failed tests.
 */
#ifndef TVM_FFI_TESTS_CHECK_H_
#define TVM_FFI_TESTS_CHECK_H_

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

static int check_failures_in_test = 0;
static int check_failed_tests = 0;

#define CHECK(cond)                                                                 \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);      \
      check_failures_in_test++;                                                     \
    }                                                                               \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                            \
  do {                                                                                \
    long long check_a_ = (long long)(a), check_b_ = (long long)(b);                   \
    if (check_a_ != check_b_) {                                                       \
      fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%lld vs %lld)\n", __FILE__,      \
              __LINE__, #a, #b, check_a_, check_b_);                                  \
      check_failures_in_test++;                                                       \
    }                                                                                 \
  } while (0)

/* Compares a (data, size) byte array with a NUL-terminated expectation. */
#define CHECK_BYTES_EQ(byte_array, cstr)                                                      \
  do {                                                                                        \
    TVMFFIByteArray check_ba_ = (byte_array);                                                 \
    const char* check_s_ = (cstr);                                                            \
    if (check_ba_.size != strlen(check_s_) || memcmp(check_ba_.data, check_s_, check_ba_.size)) { \
      fprintf(stderr, "%s:%d: CHECK failed: %s == \"%s\" (got \"%.*s\")\n", __FILE__,         \
              __LINE__, #byte_array, check_s_, (int)check_ba_.size, check_ba_.data);          \
      check_failures_in_test++;                                                               \
    }                                                                                         \
  } while (0)

#define CHECK_CONTAINS(byte_array, cstr)                                                  \
  do {                                                                                    \
    TVMFFIByteArray check_ba_ = (byte_array);                                             \
    const char* check_s_ = (cstr);                                                        \
    int check_found_ = 0;                                                                 \
    size_t check_n_ = strlen(check_s_);                                                   \
    for (size_t i_ = 0; i_ + check_n_ <= check_ba_.size && !check_found_; ++i_)          \
      check_found_ = memcmp(check_ba_.data + i_, check_s_, check_n_) == 0;                \
    if (!check_found_) {                                                                  \
      fprintf(stderr, "%s:%d: CHECK failed: \"%.*s\" contains \"%s\"\n", __FILE__,        \
              __LINE__, (int)check_ba_.size, check_ba_.data, check_s_);                   \
      check_failures_in_test++;                                                           \
    }                                                                                     \
  } while (0)

#define RUN(test_fn)                                                          \
  do {                                                                        \
    check_failures_in_test = 0;                                               \
    test_fn();                                                                \
    if (check_failures_in_test) {                                             \
      fprintf(stderr, "FAILED %s\n", #test_fn);                               \
      check_failed_tests++;                                                   \
    } else {                                                                  \
      printf("ok %s\n", #test_fn);                                            \
    }                                                                         \
  } while (0)

#define CHECK_MAIN_RESULT() (check_failed_tests)

/* ---- shared helpers for tests ---- */

static inline TVMFFIByteArray check_ba(const char* s) {
  TVMFFIByteArray b;
  b.data = s;
  b.size = strlen(s);
  return b;
}

static inline uint32_t check_strong_count(void* obj) {
  return (uint32_t)(((TVMFFIObject*)obj)->combined_ref_count & 0xFFFFFFFFu);
}

/* Takes the raised error, checks its kind (and that the message contains `needle`), and
 * releases it. */
#define CHECK_RAISED(expected_kind_, needle_)                                                       \
  do {                                                                                   \
    void* check_err_ = NULL;                                                             \
    TVMFFIErrorMoveFromRaised(&check_err_);                                              \
    CHECK(check_err_ != NULL);                                                           \
    if (check_err_ != NULL) {                                                            \
      TVMFFIErrorCell* check_cell_ = TVMFFIErrorGetCellPtr(check_err_);                  \
      CHECK_BYTES_EQ(check_cell_->kind, expected_kind_);                                 \
      CHECK_CONTAINS(check_cell_->message, needle_);                                     \
      TVMFFIObjectDecRef(check_err_);                                                    \
    }                                                                                    \
  } while (0)

/* True when no error is pending; leaves the slot empty either way. */
static inline int check_no_error_pending(void) {
  void* err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) return 1;
  TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
  fprintf(stderr, "unexpected pending error %.*s: %.*s\n", (int)cell->kind.size, cell->kind.data,
          (int)cell->message.size, cell->message.data);
  TVMFFIObjectDecRef(err);
  return 0;
}

/* ---- building argument views and calling globals ---- */

static inline TVMFFIAny any_int(int64_t v) {
  TVMFFIAny a = {0};
  a.type_index = kTVMFFIInt;
  a.v_int64 = v;
  return a;
}

static inline TVMFFIAny any_bool(int v) {
  TVMFFIAny a = {0};
  a.type_index = kTVMFFIBool;
  a.v_int64 = v != 0;
  return a;
}

static inline TVMFFIAny any_float(double v) {
  TVMFFIAny a = {0};
  a.type_index = kTVMFFIFloat;
  a.v_float64 = v;
  return a;
}

/* A borrowed raw C string view. */
static inline TVMFFIAny any_str(const char* s) {
  TVMFFIAny a = {0};
  a.type_index = kTVMFFIRawStr;
  a.v_c_str = s;
  return a;
}

/* A borrowed view of an object. */
static inline TVMFFIAny any_obj(void* obj) {
  TVMFFIAny a = {0};
  a.type_index = TVMFFIObjectGetTypeIndex(obj);
  a.v_obj = (TVMFFIObject*)obj;
  return a;
}

/* Calls a global function; *result is owned by the caller on success. -99 when missing. */
static inline int call_global(const char* name, TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  void* f = NULL;
  TVMFFIByteArray key = check_ba(name);
  if (TVMFFIFunctionGetGlobal(&key, &f) != 0 || f == NULL) {
    fprintf(stderr, "global %s is missing\n", name);
    check_no_error_pending();
    return -99;
  }
  memset(result, 0, sizeof(*result));
  int rc = TVMFFIFunctionCall(f, args, n, result);
  TVMFFIObjectDecRef(f);
  return rc;
}

/* Releases an owned Any and resets it. */
static inline void release(TVMFFIAny* v) {
  if (v->type_index >= kTVMFFIStaticObjectBegin && v->v_obj != NULL) TVMFFIObjectDecRef(v->v_obj);
  memset(v, 0, sizeof(*v));
}

/* The sequence cell of an Array or List. */
static inline TVMFFISeqCell* seq(void* obj) {
  return (TVMFFISeqCell*)((char*)obj + sizeof(TVMFFIObject));
}

/* Objects made by the runtime and still alive (ffi.LiveObjectCount); -1 when unavailable. */
static inline int64_t live_objects(void) {
  TVMFFIAny r;
  if (call_global("ffi.LiveObjectCount", NULL, 0, &r) != 0 || r.type_index != kTVMFFIInt) return -1;
  return r.v_int64;
}

#endif /* TVM_FFI_TESTS_CHECK_H_ */
