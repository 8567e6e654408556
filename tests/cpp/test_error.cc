// test_error.cc -- error.h: TVM_FFI_THROW / CHECK macros, backtraces, and the bridge between C++
// exceptions and the C convention (SAFE_CALL_BEGIN/END, CHECK_SAFE_CALL).
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>

#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>

#include "check.h"

namespace ffi = tvm::ffi;

int ThrowsValueError(int x) {
  TVM_FFI_THROW(ValueError) << "bad value " << x << ", ratio " << 0.5 << ", name " << std::string("n");
  return 0;
}

void test_throw_builds_kind_message_and_backtrace() {
  try {
    ThrowsValueError(3);
    CHECK(false);
  } catch (const ffi::Error& err) {
    CHECK_EQ(err.kind(), "ValueError");
    CHECK_EQ(err.message(), "bad value 3, ratio 0.5, name n");
    CHECK_EQ(std::string(err.what()), "bad value 3, ratio 0.5, name n");
    CHECK(err.backtrace().find("test_error.cc") != std::string::npos);
    CHECK(err.FullMessage().find("ValueError: bad value 3") != std::string::npos);
    CHECK_EQ(err->type_index(), ffi::TypeIndex::kTVMFFIError);
  }
}

// TVM_FFI_THROW streams into a std::ostringstream, so stream manipulators work as in std::cout.
void test_throw_message_takes_stream_manipulators() {
  CHECK_THROWS(TVM_FFI_THROW(ValueError) << "hex " << std::hex << 255 << std::dec << " w[" << std::setw(3)
                                         << 7 << "] " << std::fixed << std::setprecision(2) << 3.14159,
               "ValueError", "hex ff w[  7] 3.14");
}

void test_log_and_throw_prints_before_throwing() {
  std::ostringstream captured;
  std::streambuf* saved = std::cerr.rdbuf(captured.rdbuf());
  try {
    TVM_FFI_LOG_AND_THROW(RuntimeError) << "logged early";
  } catch (const ffi::Error& err) {
    CHECK_EQ(err.message(), "logged early");
  }
  std::cerr.rdbuf(saved);
  CHECK(captured.str().find("RuntimeError: logged early") != std::string::npos);
}

namespace probe {
struct Thrower {
  [[gnu::noinline]] static void Run(int x) {
    if (x != 0) TVM_FFI_THROW(ValueError) << "deep " << x;
  }
};
}  // namespace probe

[[gnu::noinline]] void CallsThrower(int x) {
  probe::Thrower::Run(x);
  asm volatile("");  // keeps this frame: no tail call
}

// The throw site is the first frame and is not listed a second time from the unwinder; the
// frames after it have readable (demangled) C++ names. (The test programs link with -rdynamic,
// so their functions are in the dynamic symbol table the runtime reads.)
void test_backtrace_lists_the_throw_site_once_with_demangled_callers() {
  try {
    CallsThrower(1);
    CHECK(false);
  } catch (const ffi::Error& err) {
    std::string bt = err.backtrace();
    std::string first = bt.substr(0, bt.find('\n'));
    CHECK(first.find("test_error.cc") != std::string::npos);
    CHECK(first.find("probe::Thrower::Run") != std::string::npos);
    CHECK_EQ(bt.find("probe::Thrower::Run", first.size()), std::string::npos);
    CHECK(bt.find("in CallsThrower(int)") != std::string::npos);
    CHECK_EQ(bt.find("_Z"), std::string::npos);
  }
}

[[gnu::noinline]] int64_t KernelBody(int64_t x) {
  if (x > 0) TVM_FFI_THROW(ValueError) << "kernel failed";
  return x;
}

[[gnu::noinline]] void CallsKernelThroughFunction() {
  ffi::Function kernel = ffi::Function::FromTyped(KernelBody);
  kernel(1);
  asm volatile("");  // keeps this frame: no tail call
}

namespace {
// Not in the dynamic symbol table (internal linkage), so named from the static one.
[[gnu::noinline]] void HiddenStep(int x) {
  CallsThrower(x);
  asm volatile("");  // keeps this frame: no tail call
}
}  // namespace

static void test_backtrace_names_functions_the_program_does_not_export() {
  try {
    HiddenStep(1);
    CHECK(false);
  } catch (const ffi::Error& err) {
    std::string bt = err.backtrace();
    CHECK(bt.find("in (anonymous namespace)::HiddenStep(int)") != std::string::npos ||
          bt.find("in {anonymous}::HiddenStep(int)") != std::string::npos);
    CHECK(bt.find("CallsThrower") < bt.find("HiddenStep"));
    CHECK(bt.find("HiddenStep") < bt.find("test_backtrace_names_functions_the_program"));
  }
}

// Between a kernel and its caller lie the frames the headers instantiate to call it through the
// packed convention (Function::FromTyped's closure, argument unpacking, std::invoke helpers);
// they, and the C start-up code below main, are left out of the backtrace.
void test_backtrace_leaves_out_call_machinery() {
  try {
    CallsKernelThroughFunction();
    CHECK(false);
  } catch (const ffi::Error& err) {
    std::string bt = err.backtrace();
    CHECK(bt.find("KernelBody") < bt.find("in CallsKernelThroughFunction()"));
    CHECK(bt.find("in main") != std::string::npos);
    for (const char* plumbing : {"tvm::ffi::detail", "tvm::ffi::Function::", "std::", "__libc_start"}) {
      CHECK_EQ(bt.find(plumbing), std::string::npos);
    }
  }
}

void test_check_macros() {
  int a = 1, b = 2;
  CHECK_THROWS(TVM_FFI_ICHECK_EQ(a, b) << "extra", "InternalError", "Check failed: a == b (1 vs. 2) : extra");
  CHECK_THROWS(TVM_FFI_CHECK(a > b, IndexError) << "why", "IndexError", "Check failed: (a > b) is false: why");
  CHECK_THROWS(TVM_FFI_ICHECK_NOTNULL(static_cast<void*>(nullptr)), "InternalError", "Check not null");
  TVM_FFI_ICHECK_LT(a, b) << "never shown";  // passing checks do nothing
  TVM_FFI_ICHECK(a == 1);
}

int SafeEntry(int mode) {
  TVM_FFI_SAFE_CALL_BEGIN();
  if (mode == 1) TVM_FFI_THROW(TypeError) << "typed failure";
  if (mode == 2) throw std::runtime_error("plain std exception");
  if (mode == 3) throw 42;  // not even a std::exception
  TVM_FFI_SAFE_CALL_END();
}

void test_safe_call_round_trip() {
  CHECK_EQ(SafeEntry(0), 0);
  CHECK_EQ(SafeEntry(1), -1);
  ffi::Error err = ffi::detail::MoveFromSafeCallRaised();
  CHECK_EQ(err.kind(), "TypeError");
  CHECK_EQ(err.message(), "typed failure");
  CHECK_EQ(SafeEntry(2), -1);
  CHECK_THROWS(TVM_FFI_CHECK_SAFE_CALL(-1), "InternalError", "plain std exception");
  CHECK_EQ(SafeEntry(3), -1);
  CHECK_THROWS(TVM_FFI_CHECK_SAFE_CALL(-1), "InternalError", "unknown C++ exception");
}

void test_runtime_errors_rethrow_with_their_kind() {
  TVMFFIByteArray bad{"notadtype", 9};
  DLDataType out;
  CHECK_THROWS(TVM_FFI_CHECK_SAFE_CALL(TVMFFIDataTypeFromString(&bad, &out)), "ValueError",
               "notadtype");
}

void test_error_objects_with_cause() {
  ffi::Error cause("KeyError", "inner", "");
  ffi::Error outer("RuntimeError", "outer", "  File \"a.py\", line 1, in f\n  File \"b.py\", line 2, in g\n",
                   cause, std::nullopt);
  CHECK(outer.cause_chain().has_value());
  CHECK_EQ(outer.cause_chain()->message(), "inner");
  CHECK(!outer.extra_context().has_value());
  // Most-recent-first storage, most-recent-last display.
  CHECK_EQ(outer.TracebackMostRecentCallLast(),
           "  File \"b.py\", line 2, in g\n  File \"a.py\", line 1, in f\n");
  TVMFFIByteArray more{"  File \"c.py\", line 3, in h\n", 29};
  outer.UpdateBacktrace(&more, kTVMFFIBacktraceUpdateModeAppend);
  CHECK(outer.backtrace().find("c.py") != std::string::npos);
}

// A void callback that must not throw: without an exception it simply runs; with one, the
// process reports it on stderr and exits with status -1 (255), seen here from a child process.
static int ran = 0;
void GuardedCallback(bool fail) {
  TVM_FFI_LOG_EXCEPTION_CALL_BEGIN();
  if (fail) throw std::runtime_error("deleter failed");
  ++ran;
  TVM_FFI_LOG_EXCEPTION_CALL_END(GuardedCallback);
}

void test_log_exception_call_guards() {
  GuardedCallback(false);
  CHECK_EQ(ran, 1);
  fflush(nullptr);
  pid_t child = fork();
  if (child == 0) {
    GuardedCallback(true);
    _exit(0);  // not reached
  }
  int status = 0;
  CHECK_EQ(waitpid(child, &status, 0), child);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 255);
}

void test_pointer_payload_helpers() {
  TVMFFIAny value;
  value.type_index = ffi::TypeIndex::kTVMFFIOpaquePtr;
  value.zero_padding = 0;
  value.v_int64 = -1;
  TVM_FFI_CLEAR_PTR_PADDING_IN_FFI_ANY(&value);  // nothing to clear with 64-bit pointers
  value.v_ptr = &value;
  CHECK_EQ(value.v_int64, static_cast<int64_t>(reinterpret_cast<intptr_t>(&value)));
  int n = ran;
  TVM_FFI_UNSAFE_ASSUME(n >= 1);
  CHECK(n >= 1);
}

int main() {
  RUN(test_throw_builds_kind_message_and_backtrace);
  RUN(test_throw_message_takes_stream_manipulators);
  RUN(test_log_and_throw_prints_before_throwing);
  RUN(test_backtrace_lists_the_throw_site_once_with_demangled_callers);
  RUN(test_backtrace_leaves_out_call_machinery);
  RUN(test_backtrace_names_functions_the_program_does_not_export);
  RUN(test_check_macros);
  RUN(test_safe_call_round_trip);
  RUN(test_runtime_errors_rethrow_with_their_kind);
  RUN(test_error_objects_with_cause);
  RUN(test_log_exception_call_guards);
  RUN(test_pointer_payload_helpers);
  return CHECK_MAIN_RESULT();
}
