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
#include <iosfwd>
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

// Forward declaration of std::basic_ostream operators make the fallback below optional.
template <typename T, typename Char>
struct OstreamFallback;

/*!
 * \brief Builds an error message without <sstream>: numbers, strings and FFI values print like
 * std::ostream would print them; other types use their std::ostream operator<< when the
 * translation unit includes <ostream>.
 */
class MessageStream {
 public:
  MessageStream& operator<<(const char* s) {
    buf_.append(s != nullptr ? s : "(null)");
    return *this;
  }
  MessageStream& operator<<(char* s) { return *this << static_cast<const char*>(s); }
  MessageStream& operator<<(const std::string& s) {
    buf_.append(s);
    return *this;
  }
  MessageStream& operator<<(std::string_view s) {
    buf_.append(s.data(), s.size());
    return *this;
  }
  MessageStream& operator<<(char c) {
    buf_.push_back(c);
    return *this;
  }
  MessageStream& operator<<(signed char c) { return *this << static_cast<char>(c); }
  MessageStream& operator<<(unsigned char c) { return *this << static_cast<char>(c); }
  MessageStream& operator<<(bool v) { return *this << (v ? '1' : '0'); }
  MessageStream& operator<<(int v) { return Append(std::to_string(v)); }
  MessageStream& operator<<(unsigned v) { return Append(std::to_string(v)); }
  MessageStream& operator<<(short v) { return Append(std::to_string(v)); }
  MessageStream& operator<<(unsigned short v) { return Append(std::to_string(v)); }
  MessageStream& operator<<(long v) { return Append(std::to_string(v)); }
  MessageStream& operator<<(unsigned long v) { return Append(std::to_string(v)); }
  MessageStream& operator<<(long long v) { return Append(std::to_string(v)); }
  MessageStream& operator<<(unsigned long long v) { return Append(std::to_string(v)); }
  MessageStream& operator<<(double v) { return Float(v); }
  MessageStream& operator<<(float v) { return Float(v); }
  MessageStream& operator<<(long double v) { return Float(static_cast<double>(v)); }
  MessageStream& operator<<(std::nullptr_t) { return *this << "nullptr"; }
  MessageStream& operator<<(const void* p) {
    if (p == nullptr) return *this << '0';
    char text[32];
    std::snprintf(text, sizeof(text), "%p", p);
    return *this << text;
  }
  /*! \brief Types with their own std::ostream operator<< (needs <ostream> in the TU). */
  template <typename T, typename = std::enable_if_t<!std::is_arithmetic_v<T> &&
                                                    !std::is_pointer_v<T> && !std::is_enum_v<T>>,
            typename = decltype(std::declval<std::ostream&>() << std::declval<const T&>())>
  MessageStream& operator<<(const T& value) {
    return Append(OstreamFallback<T, char>::Format(value));
  }
  template <typename E, typename = std::enable_if_t<std::is_enum_v<E>>, typename = void>
  MessageStream& operator<<(E value) {
    return *this << static_cast<std::underlying_type_t<E>>(value);
  }
  const std::string& str() const { return buf_; }

 private:
  MessageStream& Append(const std::string& s) {
    buf_.append(s);
    return *this;
  }
  MessageStream& Float(double v) {
    char text[64];
    std::snprintf(text, sizeof(text), "%g", v);
    return *this << text;
  }
  std::string buf_;
};

/*! \brief Throws an Error when it dies, i.e. at the end of the TVM_FFI_THROW statement. */
class ErrorBuilder {
 public:
  ErrorBuilder(const char* kind, const char* file, int lineno, const char* func) noexcept
      : kind_(kind), file_(file), lineno_(lineno), func_(func) {}
  ErrorBuilder(const ErrorBuilder&) = delete;
  MessageStream& stream() { return stream_; }
  [[noreturn]] ~ErrorBuilder() noexcept(false) {
    const TVMFFIByteArray* bt = TVMFFIBacktrace(file_, lineno_, func_, 0);
    throw Error(kind_, stream_.str(), bt);
  }

 private:
  const char* kind_;
  const char* file_;
  int lineno_;
  const char* func_;
  MessageStream stream_;
};

/*! \brief " (x vs. y) ": the operands of a failed binary check. */
template <typename X, typename Y>
TVM_FFI_NO_INLINE std::string CheckFailureText(const X& x, const Y& y) {
  MessageStream s;
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

// The fallback is defined against whatever <ostream> the includer provides; its instantiation
// needs std::basic_ostream to be complete, so it is a template of the character type.
namespace tvm {
namespace ffi {
namespace detail {
template <typename T, typename Char>
struct OstreamFallback {
  struct Buffer : public std::basic_streambuf<Char> {
    std::string text;
    typename std::basic_streambuf<Char>::int_type overflow(
        typename std::basic_streambuf<Char>::int_type c) override {
      if (c != std::char_traits<Char>::eof()) text.push_back(static_cast<char>(c));
      return c;
    }
    std::streamsize xsputn(const Char* s, std::streamsize n) override {
      text.append(s, static_cast<size_t>(n));
      return n;
    }
  };
  static std::string Format(const T& value) {
    Buffer buffer;
    std::basic_ostream<Char> os(&buffer);
    os << value;
    return std::move(buffer.text);
  }
};
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

/*! \brief Throws tvm::ffi::Error of the given kind: TVM_FFI_THROW(ValueError) << "bad " << x; */
#define TVM_FFI_THROW(ErrorKind) \
  ::tvm::ffi::detail::ErrorBuilder(#ErrorKind, __FILE__, __LINE__, TVM_FFI_FUNC_SIG).stream()

/*! \brief Same as TVM_FFI_THROW; also prints the error before throwing it. */
#define TVM_FFI_LOG_AND_THROW(ErrorKind) TVM_FFI_THROW(ErrorKind)

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
