/*
 * tvm/ffi/expected.h -- Expected<T>: a result that is either a T or an Error, for code that
 * reports failure without throwing (Function::CallExpected, TVM_FFI_RET_CHECK*).
 *
 * It holds one Any: the value, or an ffi.Error object. So an Expected crosses the ABI as what it
 * holds, and a function returning Expected<T> returns either its value or the Error as a value.
 */
#ifndef TVM_FFI_EXPECTED_H_
#define TVM_FFI_EXPECTED_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>

#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

/*!
 * \brief The error alternative, to build an Expected from: `return Unexpected(err);`.
 * \tparam E Error or a subclass of it.
 */
template <typename E = Error>
class Unexpected {
  static_assert(std::is_base_of_v<Error, std::remove_cv_t<E>>,
                "Unexpected<E> requires E to be Error or a subclass of Error.");

 public:
  /*! \brief Wraps `error`. */
  explicit Unexpected(E error) : error_(std::move(error)) {}
  /*! \brief The wrapped error. */
  const E& error() const& noexcept { return error_; }
  E& error() & noexcept { return error_; }
  const E&& error() const&& noexcept { return std::move(error_); }
  E&& error() && noexcept { return std::move(error_); }

 private:
  E error_;
};

template <typename E>
Unexpected(E) -> Unexpected<E>;

template <typename T>
class Expected;

/*! \brief Expected<T> reuses Expected<U>'s storage when T's storage takes every U. */
template <typename T, typename U>
inline constexpr bool type_subsumes_v<Expected<T>, Expected<U>> = type_subsumes_v<T, U>;

namespace detail {
struct ExpectedUnsafe;
template <typename T>
inline constexpr bool is_expected_v = false;
template <typename T>
inline constexpr bool is_expected_v<Expected<T>> = true;
template <typename T>
inline constexpr bool is_unexpected_v = false;
template <typename E>
inline constexpr bool is_unexpected_v<Unexpected<E>> = true;

[[noreturn]] inline void ThrowBadExpectedAccess() {
  TVM_FFI_THROW(RuntimeError) << "Bad expected access: contains value, not error";
  TVM_FFI_UNREACHABLE();
}
}  // namespace detail

/*!
 * \brief Either a value of type T or an Error.
 * \tparam T The value type (not void: see Expected<void>; not Error).
 */
template <typename T>
class Expected {
 public:
  static_assert(!std::is_void_v<T>, "use Expected<void> for a result without a value");
  static_assert(!std::is_same_v<T, Error>, "Expected<Error> is not allowed. Use Error directly.");

  /*! \brief A success holding `value`. */
  Expected(T value) : data_(Any(std::move(value))) {}  // NOLINT(google-explicit-constructor)
  /*! \brief A success holding T(value), for any type convertible to T. */
  template <typename U, typename = std::enable_if_t<!detail::is_expected_v<std::decay_t<U>> &&
                                                    !detail::is_unexpected_v<std::decay_t<U>> &&
                                                    !std::is_base_of_v<Error, std::decay_t<U>> &&
                                                    !std::is_same_v<std::decay_t<U>, T> &&
                                                    std::is_convertible_v<U, T>>>
  Expected(U&& value) : data_(Any(T(std::forward<U>(value)))) {}  // NOLINT
  /*! \brief From an Expected of a compatible type: the error, or the value converted to T. */
  template <typename U, typename = std::enable_if_t<!std::is_void_v<U> && !std::is_same_v<U, T> &&
                                                    (type_subsumes_v<T, U> ||
                                                     std::is_convertible_v<U, T>)>>
  Expected(Expected<U> other)  // NOLINT(google-explicit-constructor)
      : data_(FromOther(std::move(other))) {}
  /*! \brief A failure holding `error`. */
  Expected(Error error) : data_(Any(std::move(error))) {}  // NOLINT
  /*! \brief A failure holding the wrapped error. */
  template <typename E, typename = std::enable_if_t<std::is_base_of_v<Error, std::remove_cv_t<E>>>>
  Expected(Unexpected<E> unexpected)  // NOLINT(google-explicit-constructor)
      : data_(Any(Error(std::move(unexpected).error()))) {}

  /*! \brief The type index of what is held (kTVMFFIError for a failure). */
  int32_t type_index() const noexcept { return data_.type_index(); }
  /*! \brief Holds a value. */
  bool is_ok() const noexcept { return data_.type_index() != TypeIndex::kTVMFFIError; }
  /*! \brief Holds an error. */
  bool is_err() const noexcept { return data_.type_index() == TypeIndex::kTVMFFIError; }
  /*! \brief Same as is_ok(). */
  bool has_value() const noexcept { return is_ok(); }

  /*! \brief The value; throws the held Error on failure. */
  T value() const& {
    if (TVM_FFI_PREDICT_FALSE(is_err())) throw data_.cast<Error>();
    return detail::AnyUnsafe::CopyFromAnyViewAfterCheck<T>(data_);
  }
  T value() && {
    if (TVM_FFI_PREDICT_FALSE(is_err())) throw TakeError();
    T out = detail::AnyUnsafe::CopyFromAnyViewAfterCheck<T>(data_);
    data_.reset();
    return out;
  }
  /*! \brief The error; RuntimeError ("Bad expected access") when a value is held. */
  Error error() const& {
    if (is_ok()) detail::ThrowBadExpectedAccess();
    return data_.cast<Error>();
  }
  Error error() && {
    if (is_ok()) detail::ThrowBadExpectedAccess();
    return TakeError();
  }
  /*! \brief The value, or T(default_value) on failure. */
  template <typename U = std::remove_cv_t<T>>
  T value_or(U&& default_value) const& {
    if (is_ok()) return detail::AnyUnsafe::CopyFromAnyViewAfterCheck<T>(data_);
    return T(std::forward<U>(default_value));
  }
  template <typename U = std::remove_cv_t<T>>
  T value_or(U&& default_value) && {
    if (is_ok()) return std::move(*this).value();
    return T(std::forward<U>(default_value));
  }
  /*!
   * \brief The same result viewed as Expected<U>: the error stays, a value must already be
   * stored as U (no conversion), else the result is a TypeError.
   */
  template <typename U, typename = std::enable_if_t<
                            std::is_same_v<U, std::decay_t<U>> && !std::is_base_of_v<Error, U> &&
                            (TypeTraits<U>::storage_enabled || std::is_same_v<U, Any>)>>
  Expected<U> as_or_error() const& {
    return Expected(*this).template as_or_error<U>();
  }
  template <typename U, typename = std::enable_if_t<
                            std::is_same_v<U, std::decay_t<U>> && !std::is_base_of_v<Error, U> &&
                            (TypeTraits<U>::storage_enabled || std::is_same_v<U, Any>)>>
  Expected<U> as_or_error() && {
    if (TVM_FFI_PREDICT_FALSE(is_ok() && !detail::AnyUnsafe::CheckAnyStrict<U>(data_))) {
      return Error("TypeError",
                   "Cannot treat type `" + data_.GetTypeKey() + "` as type `" +
                       detail::Type2Str<U>::v() + "`",
                   "");
    }
    return Expected<U>(UnsafeInit{}, std::move(data_));
  }

 private:
  template <typename>
  friend class Expected;
  friend struct detail::ExpectedUnsafe;

  Expected(UnsafeInit, Any data) noexcept : data_(std::move(data)) {}
  template <typename U>
  static Any FromOther(Expected<U>&& other) {
    if constexpr (type_subsumes_v<T, U>) {
      return std::move(other.data_);  // every U is stored as a valid T already
    } else {
      if (other.is_err()) return Any(std::move(other).error());
      return Any(T(std::move(other).value()));
    }
  }
  Error TakeError() {
    Error out = data_.cast<Error>();
    data_.reset();
    return out;
  }

  Any data_;  // a T (type_index != kTVMFFIError) or an Error
};

/*! \brief Success without a value, or an Error. */
template <>
class Expected<void> {
 public:
  /*! \brief A success. */
  Expected() = default;
  /*! \brief A failure holding `error`. */
  Expected(Error error) : data_(Any(std::move(error))) {}  // NOLINT
  /*! \brief A failure holding the wrapped error. */
  template <typename E, typename = std::enable_if_t<std::is_base_of_v<Error, std::remove_cv_t<E>>>>
  Expected(Unexpected<E> unexpected)  // NOLINT(google-explicit-constructor)
      : data_(Any(Error(std::move(unexpected).error()))) {}

  /*! \brief kTVMFFINone on success, kTVMFFIError on failure. */
  int32_t type_index() const noexcept { return data_.type_index(); }
  bool is_ok() const noexcept { return data_.type_index() != TypeIndex::kTVMFFIError; }
  bool is_err() const noexcept { return data_.type_index() == TypeIndex::kTVMFFIError; }
  bool has_value() const noexcept { return is_ok(); }
  /*! \brief Returns on success; throws the held Error on failure. */
  void value() const {
    if (TVM_FFI_PREDICT_FALSE(is_err())) throw data_.cast<Error>();
  }
  /*! \brief The error; RuntimeError ("Bad expected access") on success. */
  Error error() const {
    if (is_ok()) detail::ThrowBadExpectedAccess();
    return data_.cast<Error>();
  }

 private:
  friend struct detail::ExpectedUnsafe;
  Expected(UnsafeInit, Any data) noexcept : data_(std::move(data)) {}

  Any data_;  // None on success, or an Error
};

namespace detail {
/*! \brief Runs `body`: its result as an Expected<R>, or what it threw as the error (an Error as
 * it is, another std::exception as an InternalError), for noexcept *Expected front ends. */
template <typename R, typename F>
Expected<R> ExpectedFromCall(F&& body) noexcept {
  try {
    return std::forward<F>(body)();
  } catch (const Error& err) {
    return err;
  } catch (const std::exception& err) {
    return Error("InternalError", err.what(), "");
  }
}

/*! \brief Raw access for code that moves results across the C ABI without re-checking. */
struct ExpectedUnsafe {
  /*! \brief Takes `raw` (a T or an Error, unchecked) as an Expected<T>. */
  template <typename T>
  static Expected<T> MoveFromTVMFFIAny(TVMFFIAny raw) {
    return Expected<T>(UnsafeInit{}, AnyUnsafe::MoveTVMFFIAnyToAny(&raw));
  }
  /*! \brief Releases what `result` holds as a raw owned TVMFFIAny. */
  template <typename T>
  static TVMFFIAny MoveToTVMFFIAny(Expected<T>&& result) {
    return AnyUnsafe::MoveAnyToTVMFFIAny(std::move(result.data_));
  }
  template <typename T>
  static Any&& GetData(Expected<T>& result) noexcept {
    return std::move(result.data_);
  }
  template <typename T>
  static const Any& GetData(const Expected<T>& result) noexcept {
    return result.data_;
  }
  /*! \brief The value read as T (unchecked), or the held Error thrown. */
  template <typename T, typename U>
  static T ValueAs(const Expected<U>& result) {
    if constexpr (std::is_void_v<T>) {
      static_assert(std::is_void_v<U>, "ExpectedUnsafe::ValueAs<void> requires an Expected<void>");
      result.value();
    } else {
      if (TVM_FFI_PREDICT_FALSE(result.is_err())) throw result.data_.template cast<Error>();
      return AnyUnsafe::CopyFromAnyViewAfterCheck<T>(result.data_);
    }
  }
};
}  // namespace detail

/*! \brief An Expected crosses the ABI as what it holds: the value, or the Error object. */
template <typename T>
struct TypeTraits<Expected<T>> : TypeTraitsBase {
  using Self = Expected<T>;
  static void CopyToAnyView(const Self& src, TVMFFIAny* result) {
    *result = detail::ExpectedUnsafe::GetData(src).CopyToTVMFFIAny();
  }
  static void MoveToAny(Self src, TVMFFIAny* result) {
    *result = detail::ExpectedUnsafe::MoveToTVMFFIAny(std::move(src));
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return ValueStrict(src) || TypeTraits<Error>::CheckAnyStrict(src);
  }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (TypeTraits<Error>::CheckAnyStrict(src)) {
      return Self(TypeTraits<Error>::CopyFromAnyViewAfterCheck(src));
    }
    if constexpr (std::is_void_v<T>) {
      return Self();
    } else {
      return Self(TypeTraitsNoCR<T>::CopyFromAnyViewAfterCheck(src));
    }
  }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    if (TypeTraits<Error>::CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    if constexpr (std::is_void_v<T>) {
      if (src->type_index == TypeIndex::kTVMFFINone) return Self();
    } else {
      if (std::optional<T> value = TypeTraitsNoCR<T>::TryCastFromAnyView(src)) {
        return Self(*std::move(value));
      }
    }
    return std::nullopt;
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    if constexpr (std::is_void_v<T>) {
      return TypeTraitsBase::GetMismatchTypeInfo(src);
    } else {
      return TypeTraitsNoCR<T>::GetMismatchTypeInfo(src);
    }
  }
  static std::string TypeStr() { return "Expected<" + detail::Type2Str<T>::v() + ">"; }
  static std::string TypeSchema() {
    std::string value = std::is_void_v<T> ? detail::QuoteTypeSchema(StaticTypeKey::kTVMFFINone)
                                          : ValueSchema();
    return "{\"type\":\"Expected\",\"args\":[" + value + ",{\"type\":\"ffi.Error\"}]}";
  }

 private:
  static bool ValueStrict(const TVMFFIAny* src) {
    if constexpr (std::is_void_v<T>) {
      return src->type_index == TypeIndex::kTVMFFINone;
    } else {
      return TypeTraitsNoCR<T>::CheckAnyStrict(src);
    }
  }
  static std::string ValueSchema() {
    if constexpr (std::is_void_v<T>) {
      return "";
    } else {
      return TypeTraitsNoCR<T>::TypeSchema();
    }
  }
};

namespace detail {
/*!
 * \brief Collects a message with <<, then converts to an Unexpected<Error> (or any Expected<T>)
 * carrying the error kind and a one-frame backtrace of where it was built.
 */
class UnexpectedBuilder {
 public:
  UnexpectedBuilder(const char* kind, const char* file, int line, const char* function)
      : kind_(kind), file_(file), line_(line), function_(function) {}
  template <typename T>
  UnexpectedBuilder&& operator<<(const T& value) && {
    stream_ << value;
    return std::move(*this);
  }
  UnexpectedBuilder&& operator<<(std::ostream& (*manipulator)(std::ostream&)) && {
    manipulator(stream_);
    return std::move(*this);
  }
  operator Unexpected<Error>() && {  // NOLINT(google-explicit-constructor)
    std::ostringstream frame;
    frame << "  File \"" << file_ << "\", line " << line_ << ", in " << function_ << '\n';
    return Unexpected<Error>(Error(kind_, stream_.str(), frame.str()));
  }
  template <typename T>
  operator Expected<T>() && {  // NOLINT(google-explicit-constructor)
    return static_cast<Unexpected<Error>>(std::move(*this));
  }

 private:
  const char* kind_;
  const char* file_;
  int line_;
  const char* function_;
  std::ostringstream stream_;
};
}  // namespace detail

/*! \brief `return TVM_FFI_UNEXPECTED(ValueError) << "bad " << x;` from a function returning Expected. */
#define TVM_FFI_UNEXPECTED(ErrorKind) \
  ::tvm::ffi::detail::UnexpectedBuilder(#ErrorKind, __FILE__, __LINE__, TVM_FFI_FUNC_SIG)

/*! \brief Returns an ErrorKind failure "Check failed: (cond) is false: ..." when cond is false. */
#define TVM_FFI_RET_CHECK(cond, ErrorKind) \
  while (TVM_FFI_PREDICT_FALSE(!(cond)))   \
  return TVM_FFI_UNEXPECTED(ErrorKind) << "Check failed: (" #cond ") is false: "

// "Check failed: x < y (1 vs. 2) : ..." with each operand evaluated once.
#define TVM_FFI_RET_CHECK_BINARY_OP_(Name, op, x, y, ErrorKind)                 \
  while (auto _tvm_ffi_ret_check_text = ::tvm::ffi::detail::Check##Name((x), (y))) \
  return TVM_FFI_UNEXPECTED(ErrorKind)                                           \
         << "Check failed: " << #x " " #op " " #y << *_tvm_ffi_ret_check_text << ": "

#define TVM_FFI_RET_CHECK_LT(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP_(LT, <, x, y, ErrorKind)
#define TVM_FFI_RET_CHECK_GT(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP_(GT, >, x, y, ErrorKind)
#define TVM_FFI_RET_CHECK_LE(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP_(LE, <=, x, y, ErrorKind)
#define TVM_FFI_RET_CHECK_GE(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP_(GE, >=, x, y, ErrorKind)
#define TVM_FFI_RET_CHECK_EQ(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP_(EQ, ==, x, y, ErrorKind)
#define TVM_FFI_RET_CHECK_NE(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP_(NE, !=, x, y, ErrorKind)

#define TVM_FFI_RET_ICHECK(x) TVM_FFI_RET_CHECK(x, InternalError)
#define TVM_FFI_RET_ICHECK_LT(x, y) TVM_FFI_RET_CHECK_LT(x, y, InternalError)
#define TVM_FFI_RET_ICHECK_GT(x, y) TVM_FFI_RET_CHECK_GT(x, y, InternalError)
#define TVM_FFI_RET_ICHECK_LE(x, y) TVM_FFI_RET_CHECK_LE(x, y, InternalError)
#define TVM_FFI_RET_ICHECK_GE(x, y) TVM_FFI_RET_CHECK_GE(x, y, InternalError)
#define TVM_FFI_RET_ICHECK_EQ(x, y) TVM_FFI_RET_CHECK_EQ(x, y, InternalError)
#define TVM_FFI_RET_ICHECK_NE(x, y) TVM_FFI_RET_CHECK_NE(x, y, InternalError)

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXPECTED_H_
