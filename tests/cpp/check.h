// check.h -- the assertion kit of the C++ header tests. Each program is one main() running
// RUN(test_fn); a failed CHECK prints where and why and the exit status counts failed tests.
#ifndef TVM_FFI_TESTS_CPP_CHECK_H_
#define TVM_FFI_TESTS_CPP_CHECK_H_

#include <tvm/ffi/error.h>

#include <cstdio>
#include <string>

static int check_failures_in_test = 0;
static int check_failed_tests = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++check_failures_in_test;                                                \
    }                                                                          \
  } while (0)

#define CHECK_EQ(a, b)                                                                        \
  do {                                                                                        \
    const auto check_a_ = (a);                                                                 \
    const auto check_b_ = (b);                                                                 \
    if (!(check_a_ == check_b_)) {                                                            \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s == %s\n", __FILE__, __LINE__, #a, #b);   \
      ++check_failures_in_test;                                                               \
    }                                                                                         \
  } while (0)

// Runs `stmt`, expecting a tvm::ffi::Error of `want_kind` whose message contains `want_text`.
#define CHECK_THROWS(stmt, want_kind, want_text)                                                       \
  do {                                                                                         \
    bool check_thrown_ = false;                                                                \
    try {                                                                                      \
      stmt;                                                                                    \
    } catch (const ::tvm::ffi::Error& check_err_) {                                            \
      check_thrown_ = true;                                                                    \
      if (check_err_.kind() != (want_kind) ||                                                       \
          check_err_.message().find(want_text) == std::string::npos) {                            \
        std::fprintf(stderr, "%s:%d: %s raised %s: %s (wanted %s containing \"%s\")\n",        \
                     __FILE__, __LINE__, #stmt, check_err_.kind().c_str(),                     \
                     check_err_.message().c_str(), want_kind, want_text);                              \
        ++check_failures_in_test;                                                              \
      }                                                                                        \
    }                                                                                          \
    if (!check_thrown_) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s did not throw\n", __FILE__, __LINE__, #stmt);            \
      ++check_failures_in_test;                                                                \
    }                                                                                          \
  } while (0)

#define RUN(test_fn)                                                                   \
  do {                                                                                 \
    check_failures_in_test = 0;                                                        \
    try {                                                                              \
      test_fn();                                                                       \
    } catch (const ::tvm::ffi::Error& err_) {                                          \
      std::fprintf(stderr, "%s: uncaught %s: %s\n", #test_fn, err_.kind().c_str(), err_.what()); \
      ++check_failures_in_test;                                                        \
    }                                                                                  \
    if (check_failures_in_test) {                                                      \
      ++check_failed_tests;                                                            \
      std::fprintf(stderr, "FAIL %s\n", #test_fn);                                     \
    } else {                                                                           \
      std::printf("ok %s\n", #test_fn);                                                \
    }                                                                                  \
  } while (0)

#define CHECK_MAIN_RESULT() check_failed_tests

#endif  // TVM_FFI_TESTS_CPP_CHECK_H_
