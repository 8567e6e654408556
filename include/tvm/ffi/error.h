/*
 * tvm/ffi/error.h -- Error (an ffi.Error object that is also a C++ exception), the throwing
 * macros TVM_FFI_THROW / TVM_FFI_CHECK* / TVM_FFI_ICHECK*, and the bridge between C++
 * exceptions and the C return-code convention (TVM_FFI_SAFE_CALL_BEGIN/END).
 *
 * Error objects are created by the runtime (TVMFFIErrorCreate), so their storage, deleter and
 * backtrace updates live in libtvm_ffi.so and outlive this library.
 */
#ifndef TVM_FFI_ERROR_H_
#define TVM_FFI_ERROR_H_

#include <tvm/ffi/object.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>

// Not needed here, but every includer of the reference's headers gets these standard headers
// with them, and kernel sources rely on it (std::cout, std::ostringstream, std::vector,
// std::unique_ptr, std::function, std::unordered_map, std::numeric_limits, ... with no include
// of their own). Measured cost: within the noise of a kernel's compile time.
#include <array>
#include <cstring>
#include <functional>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <vector>

/*! \brief Define as 1 to have every TVM_FFI_THROW print its error to stderr before throwing. */
#ifndef TVM_FFI_ALWAYS_LOG_BEFORE_THROW
#define TVM_FFI_ALWAYS_LOG_BEFORE_THROW 0
#endif

namespace tvm {
namespace ffi {

/*! \brief Object layout of an error: header then the ABI error cell. */
class ErrorObj : public Object, public TVMFFIErrorCell {
 public:
  static constexpr int32_t _type_index = TypeIndex::kTVMFFIError;
  static constexpr int32_t _type_child_slots = 0;
  static constexpr bool _type_child_slots_can_overflow = false;
  static constexpr bool _type_final = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIError, ErrorObj, Object);
};

/*! \brief An FFI error: kind (e.g. "ValueError"), message and backtrace; throwable. */
class TVM_FFI_DLL Error : public ObjectRef, public std::exception {
 public:
  Error(std::string kind, std::string message, std::string backtrace)
      : ObjectRef(UnsafeInit{}) {
    TVMFFIByteArray bt{backtrace.data(), backtrace.size()};
    Create(kind, message, &bt, nullptr, nullptr);
  }
  Error(std::string kind, std::string message, const TVMFFIByteArray* backtrace)
      : ObjectRef(UnsafeInit{}) {
    Create(kind, message, backtrace, nullptr, nullptr);
  }
  Error(std::string kind, std::string message, std::string backtrace,
        std::optional<Error> cause_chain, std::optional<ObjectRef> extra_context)
      : ObjectRef(UnsafeInit{}) {
    TVMFFIByteArray bt{backtrace.data(), backtrace.size()};
    Create(kind, message, &bt,
           cause_chain.has_value() ? detail::ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(*cause_chain)
                                   : nullptr,
           extra_context.has_value()
               ? detail::ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(*extra_context)
               : nullptr);
  }
  explicit Error(ObjectPtr<Object> n) noexcept : ObjectRef(std::move(n)) {}
  explicit Error(UnsafeInit tag) noexcept : ObjectRef(tag) {}
  Error(const Error&) = default;
  Error(Error&&) = default;
  Error& operator=(const Error&) = default;
  Error& operator=(Error&&) = default;

  std::string kind() const { return Str(cell()->kind); }
  std::string message() const { return Str(cell()->message); }
  /*! \brief Frames, most recent call first (the storage order of the ABI). */
  std::string backtrace() const { return Str(cell()->backtrace); }
  /*! \brief Frames in Python's display order: most recent call last. */
  std::string TracebackMostRecentCallLast() const {
    const TVMFFIByteArray& bt = cell()->backtrace;
    std::string out;
    out.reserve(bt.size + 1);
    size_t end = bt.size;
    while (end > 0) {
      size_t begin = end;
      while (begin > 0 && bt.data[begin - 1] != '\n') --begin;
      if (begin < end) {
        out.append(bt.data + begin, end - begin);
        out.push_back('\n');
      }
      end = begin == 0 ? 0 : begin - 1;
    }
    return out;
  }
  std::string FullMessage() const {
    return "Traceback (most recent call last):\n" + TracebackMostRecentCallLast() + kind() + ": " +
           message() + '\n';
  }
  std::optional<Error> cause_chain() const {
    if (cell()->cause_chain == nullptr) return std::nullopt;
    return detail::ObjectUnsafe::ObjectRefFromUnowned<Error>(
        static_cast<TVMFFIObject*>(cell()->cause_chain));
  }
  std::optional<ObjectRef> extra_context() const {
    if (cell()->extra_context == nullptr) return std::nullopt;
    return detail::ObjectUnsafe::ObjectRefFromUnowned<ObjectRef>(
        static_cast<TVMFFIObject*>(cell()->extra_context));
  }
  /*! \brief Replaces (mode 0) or extends (mode 1) the backtrace through the object's own hook. */
  void UpdateBacktrace(const TVMFFIByteArray* backtrace, int32_t update_mode) {
    ErrorObj* obj = const_cast<ErrorObj*>(get());
    obj->update_backtrace(detail::ObjectUnsafe::GetHeader(obj), backtrace, update_mode);
  }
  /*! \brief The message (runtime-made error texts are NUL-terminated). */
  const char* what() const noexcept override { return cell()->message.data; }

  const ErrorObj* get() const noexcept { return static_cast<const ErrorObj*>(data_.get()); }
  const ErrorObj* operator->() const noexcept { return get(); }
  using ContainerType = ErrorObj;
  static constexpr bool _type_is_nullable = false;

 private:
  const TVMFFIErrorCell* cell() const noexcept { return get(); }
  static std::string Str(const TVMFFIByteArray& a) { return std::string(a.data, a.size); }
  void Create(const std::string& kind, const std::string& message, const TVMFFIByteArray* bt,
              TVMFFIObjectHandle cause, TVMFFIObjectHandle extra) {
    TVMFFIByteArray k{kind.data(), kind.size()};
    TVMFFIByteArray m{message.data(), message.size()};
    TVMFFIObjectHandle out = nullptr;
    if (TVMFFIErrorCreateWithCauseAndExtraContext(&k, &m, bt, cause, extra, &out) != 0 ||
        out == nullptr) {
      throw std::bad_alloc();
    }
    data_ = detail::ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(out));
  }
};

/*! \brief The error that tells the frontend "an exception of yours is already pending". */
inline Error EnvErrorAlreadySet() { return Error("EnvErrorAlreadySet", "", ""); }

namespace detail {

/*! \brief Moves the thread's raised error out of the runtime into a C++ Error. */
inline Error MoveFromSafeCallRaised() {
  TVMFFIObjectHandle handle = nullptr;
  TVMFFIErrorMoveFromRaised(&handle);
  if (handle == nullptr) {
    return Error("InternalError", "a call failed without raising an error", "");
  }
  return ObjectUnsafe::ObjectRefFromOwned<Error>(static_cast<TVMFFIObject*>(handle));
}

/*! \brief Hands an error to the runtime's thread-local slot (the runtime adds its own ref). */
inline void SetSafeCallRaised(const Error& error) {
  TVMFFIErrorSetRaised(ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(error));
}

/*!
 * \brief Throws an Error when it dies, i.e. at the end of the TVM_FFI_THROW statement.
 *
 * The backtrace is taken by the macro at the throw site, before the message is streamed: the
 * runtime then names the throwing function itself (not this class's destructor), and an
 * operator<< that raises and catches errors of its own cannot overwrite the runtime's
 * thread-local backtrace buffer before it is copied.
 */
class ErrorBuilder {
 public:
  TVM_FFI_COLD_CODE ErrorBuilder(std::string kind, std::string backtrace, bool log_before_throw)
      : kind_(std::move(kind)),
        backtrace_(std::move(backtrace)),
        log_before_throw_(log_before_throw) {}
  TVM_FFI_COLD_CODE ErrorBuilder(std::string kind, const TVMFFIByteArray* backtrace,
                                 bool log_before_throw)
      : ErrorBuilder(std::move(kind),
                     backtrace != nullptr ? std::string(backtrace->data, backtrace->size)
                                          : std::string(),
                     log_before_throw) {}
  /*! \brief Also attaches a cause and an extra context (TVM_FFI_VISIT_THROW's node record). */
  TVM_FFI_COLD_CODE ErrorBuilder(std::string kind, const TVMFFIByteArray* backtrace,
                                 bool log_before_throw, std::optional<Error> cause_chain,
                                 std::optional<ObjectRef> extra_context)
      : ErrorBuilder(std::move(kind), backtrace, log_before_throw) {
    cause_chain_ = std::move(cause_chain);
    extra_context_ = std::move(extra_context);
  }
  ErrorBuilder(const ErrorBuilder&) = delete;
  std::ostringstream& stream() { return stream_; }
  [[noreturn]] TVM_FFI_COLD_CODE ~ErrorBuilder() noexcept(false) {
    Error error(std::move(kind_), stream_.str(), std::move(backtrace_), std::move(cause_chain_),
                std::move(extra_context_));
    if (log_before_throw_) std::cerr << error.FullMessage();
    throw error;
  }

 private:
  std::string kind_;
  std::ostringstream stream_;
  std::string backtrace_;
  bool log_before_throw_;
  std::optional<Error> cause_chain_;
  std::optional<ObjectRef> extra_context_;
};

/*! \brief " (x vs. y) ": the operands of a failed binary check. */
template <typename X, typename Y>
TVM_FFI_NO_INLINE std::string CheckFailureText(const X& x, const Y& y) {
  std::ostringstream s;
  s << " (" << x << " vs. " << y << ") ";
  return s.str();
}

// The comparisons live in functions so that mixed-sign operands do not warn in user code.
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif
#define TVM_FFI_DEFINE_CHECK_FUNC_(Name, op)                                      \
  template <typename X, typename Y>                                               \
  inline std::optional<std::string> Check##Name(const X& x, const Y& y) {         \
    if (TVM_FFI_PREDICT_TRUE(x op y)) return std::nullopt;                        \
    return CheckFailureText(x, y);                                                \
  }
TVM_FFI_DEFINE_CHECK_FUNC_(LT, <)
TVM_FFI_DEFINE_CHECK_FUNC_(GT, >)
TVM_FFI_DEFINE_CHECK_FUNC_(LE, <=)
TVM_FFI_DEFINE_CHECK_FUNC_(GE, >=)
TVM_FFI_DEFINE_CHECK_FUNC_(EQ, ==)
TVM_FFI_DEFINE_CHECK_FUNC_(NE, !=)
#undef TVM_FFI_DEFINE_CHECK_FUNC_
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

}  // namespace detail
}  // namespace ffi
}  // namespace tvm

/*! \brief Throws tvm::ffi::Error of the given kind: TVM_FFI_THROW(ValueError) << "bad " << x; */
#define TVM_FFI_THROW(ErrorKind)                                                             \
  ::tvm::ffi::detail::ErrorBuilder(#ErrorKind,                                               \
                                   TVMFFIBacktrace(__FILE__, __LINE__, TVM_FFI_FUNC_SIG, 0), \
                                   TVM_FFI_ALWAYS_LOG_BEFORE_THROW)                          \
      .stream()

/*! \brief Same as TVM_FFI_THROW; also prints the error to stderr before throwing it (for code
 * that runs before anyone could catch it, e.g. static initializers). */
#define TVM_FFI_LOG_AND_THROW(ErrorKind)                                                      \
  ::tvm::ffi::detail::ErrorBuilder(#ErrorKind,                                               \
                                   TVMFFIBacktrace(__FILE__, __LINE__, TVM_FFI_FUNC_SIG, 0), \
                                   true)                                                     \
      .stream()

#define TVM_FFI_CHECK(cond, ErrorKind) \
  if (TVM_FFI_PREDICT_FALSE(!(cond))) TVM_FFI_THROW(ErrorKind) << "Check failed: (" #cond << ") is false: "

// Message: "Check failed: x == y (1 vs. 2) : <user text>" (x and y are evaluated once).
#define TVM_FFI_CHECK_BINARY_OP_(Name, op, x, y, ErrorKind)                        \
  if (auto _tvm_ffi_check_text = ::tvm::ffi::detail::Check##Name((x), (y)))          \
  TVM_FFI_THROW(ErrorKind) << "Check failed: " << #x " " #op " " #y << *_tvm_ffi_check_text \
                           << ": "

#define TVM_FFI_CHECK_LT(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP_(LT, <, x, y, ErrorKind)
#define TVM_FFI_CHECK_GT(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP_(GT, >, x, y, ErrorKind)
#define TVM_FFI_CHECK_LE(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP_(LE, <=, x, y, ErrorKind)
#define TVM_FFI_CHECK_GE(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP_(GE, >=, x, y, ErrorKind)
#define TVM_FFI_CHECK_EQ(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP_(EQ, ==, x, y, ErrorKind)
#define TVM_FFI_CHECK_NE(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP_(NE, !=, x, y, ErrorKind)
#define TVM_FFI_CHECK_NOTNULL(x, ErrorKind) \
  TVM_FFI_CHECK((x) != nullptr, ErrorKind) << "Check not null: " #x << ' '

#define TVM_FFI_ICHECK(x) TVM_FFI_CHECK(x, InternalError)
#define TVM_FFI_ICHECK_LT(x, y) TVM_FFI_CHECK_LT(x, y, InternalError)
#define TVM_FFI_ICHECK_GT(x, y) TVM_FFI_CHECK_GT(x, y, InternalError)
#define TVM_FFI_ICHECK_LE(x, y) TVM_FFI_CHECK_LE(x, y, InternalError)
#define TVM_FFI_ICHECK_GE(x, y) TVM_FFI_CHECK_GE(x, y, InternalError)
#define TVM_FFI_ICHECK_EQ(x, y) TVM_FFI_CHECK_EQ(x, y, InternalError)
#define TVM_FFI_ICHECK_NE(x, y) TVM_FFI_CHECK_NE(x, y, InternalError)
#define TVM_FFI_ICHECK_NOTNULL(x) TVM_FFI_CHECK_NOTNULL(x, InternalError)

#ifdef NDEBUG
#define TVM_FFI_DCHECK(x) \
  while (false) TVM_FFI_ICHECK(x)
#define TVM_FFI_DCHECK_LT(x, y) \
  while (false) TVM_FFI_ICHECK_LT(x, y)
#define TVM_FFI_DCHECK_GT(x, y) \
  while (false) TVM_FFI_ICHECK_GT(x, y)
#define TVM_FFI_DCHECK_LE(x, y) \
  while (false) TVM_FFI_ICHECK_LE(x, y)
#define TVM_FFI_DCHECK_GE(x, y) \
  while (false) TVM_FFI_ICHECK_GE(x, y)
#define TVM_FFI_DCHECK_EQ(x, y) \
  while (false) TVM_FFI_ICHECK_EQ(x, y)
#define TVM_FFI_DCHECK_NE(x, y) \
  while (false) TVM_FFI_ICHECK_NE(x, y)
#define TVM_FFI_DCHECK_NOTNULL(x) (x)
#else
#define TVM_FFI_DCHECK(x) TVM_FFI_ICHECK(x)
#define TVM_FFI_DCHECK_LT(x, y) TVM_FFI_ICHECK_LT(x, y)
#define TVM_FFI_DCHECK_GT(x, y) TVM_FFI_ICHECK_GT(x, y)
#define TVM_FFI_DCHECK_LE(x, y) TVM_FFI_ICHECK_LE(x, y)
#define TVM_FFI_DCHECK_GE(x, y) TVM_FFI_ICHECK_GE(x, y)
#define TVM_FFI_DCHECK_EQ(x, y) TVM_FFI_ICHECK_EQ(x, y)
#define TVM_FFI_DCHECK_NE(x, y) TVM_FFI_ICHECK_NE(x, y)
#define TVM_FFI_DCHECK_NOTNULL(x) TVM_FFI_ICHECK_NOTNULL(x)
#endif

/*! \brief Opens a C-convention body: C++ exceptions inside become -1 plus the raised error. */
#define TVM_FFI_SAFE_CALL_BEGIN() \
  try {                           \
  (void)0

#define TVM_FFI_SAFE_CALL_END()                                                                \
  return 0;                                                                                    \
  }                                                                                            \
  catch (const ::tvm::ffi::Error& err) {                                                       \
    ::tvm::ffi::detail::SetSafeCallRaised(err);                                                \
    return -1;                                                                                 \
  }                                                                                            \
  catch (const std::exception& ex) { /* no backtrace: the throw site is unknown here */      \
    ::tvm::ffi::detail::SetSafeCallRaised(::tvm::ffi::Error("InternalError", ex.what(), "")); \
    return -1;                                                                                 \
  }                                                                                            \
  catch (...) { /* never let a C++ exception cross the C boundary */                         \
    TVMFFIErrorSetRaisedFromCStr("InternalError", "unknown C++ exception");                    \
    return -1;                                                                                 \
  }                                                                                            \
  TVM_FFI_UNREACHABLE()

/*! \brief Calls a C API function and rethrows its raised error as tvm::ffi::Error. */
#define TVM_FFI_CHECK_SAFE_CALL(func)                     \
  {                                                       \
    int ret_code = (func);                                \
    if (TVM_FFI_PREDICT_FALSE(ret_code != 0)) {           \
      throw ::tvm::ffi::detail::MoveFromSafeCallRaised(); \
    }                                                     \
  }

/*!
 * \brief Brackets code that must not let an exception escape and cannot report one either (a
 * deleter, a C callback returning void): an exception is printed to stderr as
 * "Exception caught during <Name>:" plus its message, and the process exits with -1.
 */
#define TVM_FFI_LOG_EXCEPTION_CALL_BEGIN() \
  try {                                    \
  (void)0
#define TVM_FFI_LOG_EXCEPTION_CALL_END(Name)                                                    \
  }                                                                                             \
  catch (const std::exception& tvm_ffi_log_err_) {                                              \
    std::fprintf(stderr, "Exception caught during %s:\n%s\n", #Name, tvm_ffi_log_err_.what()); \
    std::exit(-1);                                                                              \
  }

#endif  // TVM_FFI_ERROR_H_
