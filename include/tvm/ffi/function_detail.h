/*
 * tvm/ffi/function_detail.h -- compile-time signature machinery behind Function::FromTyped and
 * TVM_FFI_DLL_EXPORT_TYPED_FUNC: deduce the signature of a callable, convert each argument
 * with a precise error, and describe the signature ("(0: int, 1: DLTensor*) -> void") and
 * its JSON type schema.
 */
#ifndef TVM_FFI_FUNCTION_DETAIL_H_
#define TVM_FFI_FUNCTION_DETAIL_H_

#include <tvm/ffi/any.h>

#include <string>
#include <tuple>

namespace tvm {
namespace ffi {
namespace detail {

template <typename T>
constexpr bool kArgRefSupported =
    !std::is_reference_v<T> ||
    (std::is_lvalue_reference_v<T> && std::is_const_v<std::remove_reference_t<T>>) ||
    (std::is_rvalue_reference_v<T> && !std::is_const_v<std::remove_reference_t<T>>);

/*! \brief Readable compile errors for parameter and result types that cannot cross the ABI. */
template <typename T>
constexpr bool CheckArgType() {
  static_assert(kArgRefSupported<T>,
                "typed FFI functions take parameters as T, const T& or T&& (no mutable lvalue "
                "references): change the parameter type");
  static_assert(TypeTraitsNoCR<T>::convert_enabled,
                "this parameter type cannot be converted from tvm::ffi::AnyView: use bool, "
                "integers, floating point, void*, DLDataType, DLDevice, String, Bytes, "
                "TensorView, ObjectRef subclasses (Tensor, Function, Array, Map, ...), "
                "Optional, Variant, Tuple, Any or AnyView");
  return true;
}
template <typename R>
constexpr bool CheckRetType() {
  static_assert(!std::is_reference_v<R>, "typed FFI functions must return by value");
  static_assert(std::is_void_v<R> || TypeTraitsNoCR<R>::convert_enabled,
                "this result type cannot be converted to tvm::ffi::Any: return bool, integers, "
                "floating point, void*, DLDataType, DLDevice, String, Bytes, ObjectRef "
                "subclasses (Tensor, Array, ...), Optional, Variant, Tuple, Any or void");
  return true;
}

template <typename T>
struct TypeSchemaOf {
  static std::string v() { return TypeTraitsNoCR<T>::TypeSchema(); }
};
template <>
struct TypeSchemaOf<void> {
  static std::string v() { return QuoteTypeSchema(StaticTypeKey::kTVMFFINone); }
};

using FGetFuncSignature = std::string (*)();

/*! \brief The name shown in argument errors: a C string (exports) or a std::string (Function). */
struct FuncName {
  FuncName(const char* name) : cstr(name) {}          // NOLINT(google-explicit-constructor)
  FuncName(const std::string* name) : str(name) {}    // NOLINT(google-explicit-constructor)
  std::string Get() const { return str != nullptr ? *str : std::string(cstr != nullptr ? cstr : ""); }
  const char* cstr = nullptr;
  const std::string* str = nullptr;
};

/*! \brief Signature facts of R(Args...). */
template <typename R, typename... Args>
struct FuncFunctorImpl {
  using FType = R(Args...);
  using ArgType = std::tuple<Args...>;
  using RetType = R;
  static constexpr size_t num_args = sizeof...(Args);
  static constexpr bool unpacked_supported = true;

  static std::string Sig() {
    std::string out = "(";
    size_t i = 0;
    ((out += (i != 0 ? ", " : "") + std::to_string(i) + ": " + Type2Str<Args>::v(), ++i), ...);
    (void)i;
    return out + ") -> " + Type2Str<R>::v();
  }
  static std::string TypeSchema() {
    std::string out = "{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[";
    out += TypeSchemaOf<R>::v();
    out += "],\"params\":[";
    size_t i = 0;
    ((out += (i++ != 0 ? "," : "") + TypeSchemaOf<Args>::v()), ...);
    return out + "]}}";
  }
};

template <typename T>
struct FunctionInfoHelper;
template <typename T, typename R, typename... Args>
struct FunctionInfoHelper<R (T::*)(Args...)> : FuncFunctorImpl<R, Args...> {};
template <typename T, typename R, typename... Args>
struct FunctionInfoHelper<R (T::*)(Args...) const> : FuncFunctorImpl<R, Args...> {};

/*! \brief Signature of a function, function pointer or functor (lambda). */
template <typename T, typename = void>
struct FunctionInfo : FunctionInfoHelper<decltype(&T::operator())> {};
template <typename R, typename... Args>
struct FunctionInfo<R(Args...), void> : FuncFunctorImpl<R, Args...> {};
template <typename R, typename... Args>
struct FunctionInfo<R (*)(Args...), void> : FuncFunctorImpl<R, Args...> {};
template <typename R, typename... Args>
struct FunctionInfo<R (&)(Args...), void> : FuncFunctorImpl<R, Args...> {};

/*! \brief Converts one argument, or throws the "Mismatched type on argument #i" TypeError. */
template <typename Type>
class ArgValueWithContext {
 public:
  using TypeWithoutCR = std::remove_const_t<std::remove_reference_t<Type>>;
  ArgValueWithContext(const AnyView* args, int32_t index, FuncName name, FGetFuncSignature sig)
      : args_(args), index_(index), name_(name), sig_(sig) {}

  operator TypeWithoutCR() {  // NOLINT(google-explicit-constructor)
    if constexpr (std::is_same_v<TypeWithoutCR, AnyView>) {
      return args_[index_];
    } else if constexpr (std::is_same_v<TypeWithoutCR, Any>) {
      return Any(args_[index_]);
    } else {
      TVMFFIAny raw = args_[index_].CopyToTVMFFIAny();
      if (TypeTraits<TypeWithoutCR>::CheckAnyStrict(&raw)) {
        return TypeTraits<TypeWithoutCR>::CopyFromAnyViewAfterCheck(&raw);
      }
      std::optional<TypeWithoutCR> value = TypeTraits<TypeWithoutCR>::TryCastFromAnyView(&raw);
      if (TVM_FFI_PREDICT_FALSE(!value.has_value())) Fail(&raw);
      return *std::move(value);
    }
  }

 private:
  [[noreturn]] TVM_FFI_NO_INLINE void Fail(const TVMFFIAny* raw) {
    TVM_FFI_THROW(TypeError) << "Mismatched type on argument #" << index_ << " when calling: `"
                             << name_.Get()
                             << (sig_ != nullptr ? sig_() : std::string()) << "`. Expected `"
                             << Type2Str<TypeWithoutCR>::v() << "` but got `"
                             << TypeTraits<TypeWithoutCR>::GetMismatchTypeInfo(raw) << '`';
    TVM_FFI_UNREACHABLE();
  }
  const AnyView* args_;
  int32_t index_;
  FuncName name_;
  FGetFuncSignature sig_;
};

[[noreturn]] TVM_FFI_NO_INLINE inline void ThrowArgCountMismatch(FuncName name,
                                                                 FGetFuncSignature sig,
                                                                 size_t expected,
                                                                 int32_t actual) {
  TVM_FFI_THROW(TypeError) << "Mismatched number of arguments when calling: `"
                           << name.Get() << (sig != nullptr ? sig() : std::string()) << "`. Expected "
                           << expected << " but got " << actual << " arguments";
  TVM_FFI_UNREACHABLE();
}

template <typename R, size_t... Is, typename F>
void UnpackCallChecked(std::index_sequence<Is...>, FuncName name, const F& f,
                       const AnyView* args, int32_t num_args, Any* rv);

/*! \brief Checks the count, converts every argument, calls f and stores its result. */
template <typename R, size_t... Is, typename F>
inline void unpack_call(std::index_sequence<Is...>, FuncName name, const F& f,
                        [[maybe_unused]] const AnyView* args, int32_t num_args,
                        [[maybe_unused]] Any* rv) {
  using Info = FunctionInfo<F>;
  using Args = typename Info::ArgType;
  static_assert((CheckArgType<std::tuple_element_t<Is, Args>>() && ... && CheckRetType<R>()));
  // After a failed check above, skip the body so the readable message is the only error.
  constexpr bool kSupported =
      (kArgRefSupported<std::tuple_element_t<Is, Args>> && ... && true) &&
      (TypeTraitsNoCR<std::tuple_element_t<Is, Args>>::convert_enabled && ... && true) &&
      (std::is_void_v<R> || (!std::is_reference_v<R> && TypeTraitsNoCR<R>::convert_enabled));
  if constexpr (kSupported) {
    UnpackCallChecked<R>(std::index_sequence<Is...>{}, name, f, args, num_args, rv);
  }
}

template <typename R, size_t... Is, typename F>
inline void UnpackCallChecked(std::index_sequence<Is...>, FuncName name, const F& f,
                              [[maybe_unused]] const AnyView* args, int32_t num_args,
                              [[maybe_unused]] Any* rv) {
  using Info = FunctionInfo<F>;
  using Args = typename Info::ArgType;
  constexpr size_t nargs = sizeof...(Is);
  if (TVM_FFI_PREDICT_FALSE(static_cast<size_t>(num_args) != nargs)) {
    ThrowArgCountMismatch(name, &Info::Sig, nargs, num_args);
  }
  if constexpr (std::is_void_v<R>) {
    f(ArgValueWithContext<std::tuple_element_t<Is, Args>>(args, Is, name, &Info::Sig)...);
  } else {
    // rv holds None (the caller's contract), so the result is written in place, no temporaries.
    TypeTraitsNoCR<R>::MoveToAny(
        f(ArgValueWithContext<std::tuple_element_t<Is, Args>>(args, Is, name, &Info::Sig)...),
        reinterpret_cast<TVMFFIAny*>(rv));
  }
}

/*! \brief JSON string literal of `text` (quotes included). */
inline std::string EscapeStringJSON(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (u < 0x20) {
      const char* hex = "0123456789abcdef";
      out += "\\u00";
      out += hex[u >> 4];
      out += hex[u & 15];
    } else {
      out += c;
    }
  }
  return out + '"';
}

}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_FUNCTION_DETAIL_H_
