/*
 * tvm/ffi/reflection/native_function.h -- typed hooks stored in type-attribute columns that call
 * a native C++ function directly, without packing arguments, and fall back to a packed Function:
 *
 *   int64_t HashPoint(const Any& value) { ... }
 *   auto hook = refl::NativeFunctionView<int64_t(const Any&)>::FromNative<&HashPoint>();
 *   int64_t h = hook(value);              // throws the hook's error
 *
 * A hook value is one TVMFFIAny: an opaque pointer to a noexcept adapter `TVMFFIAny(Args...)`
 * (native), or an ffi.Function (packed). The adapter returns an owned Any that holds either the
 * result or an ffi.Error object, the same encoding as Expected<R>.
 * NativeFunctionView borrows; NativeFunction owns (it keeps a packed function alive).
 */
#ifndef TVM_FFI_REFLECTION_NATIVE_FUNCTION_H_
#define TVM_FFI_REFLECTION_NATIVE_FUNCTION_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>

#include <exception>
#include <string>
#include <type_traits>
#include <utility>

#if __has_include(<tvm/ffi/expected.h>)
#include <tvm/ffi/expected.h>
#define TVM_FFI_NATIVE_FUNCTION_HAS_EXPECTED 1
#else
#define TVM_FFI_NATIVE_FUNCTION_HAS_EXPECTED 0
#endif

namespace tvm {
namespace ffi {
namespace reflection {

namespace detail {
/*! \brief True for Expected<R> (a hook may report its error in its result). */
template <typename T, typename R>
struct IsExpectedOf : std::false_type {};
#if TVM_FFI_NATIVE_FUNCTION_HAS_EXPECTED
template <typename R>
struct IsExpectedOf<Expected<R>, R> : std::true_type {};
#endif

/*! \brief Hook results: an owned Any holding the value (None for void) or an ffi.Error. */
struct HookResult {
  template <typename R, typename F>
  static TVMFFIAny Run(F&& body) noexcept {
    try {
      if constexpr (std::is_void_v<R>) {
        body();
        return Any().CopyToTVMFFIAny();
      } else {
        return ffi::detail::AnyUnsafe::MoveAnyToTVMFFIAny(Any(body()));
      }
    } catch (const Error& err) {
      return ffi::detail::AnyUnsafe::MoveAnyToTVMFFIAny(Any(ObjectRef(err)));
    } catch (const std::exception& err) {
      return ffi::detail::AnyUnsafe::MoveAnyToTVMFFIAny(
          Any(ObjectRef(Error("InternalError", err.what(), ""))));
    }
  }
  static TVMFFIAny Fail(Error err) noexcept {
    return ffi::detail::AnyUnsafe::MoveAnyToTVMFFIAny(Any(ObjectRef(std::move(err))));
  }
  /*! \brief Takes ownership of `raw`; throws the error it holds or returns its value. */
  template <typename R>
  static R Unwrap(TVMFFIAny raw) {
    Any value = ffi::detail::AnyUnsafe::MoveTVMFFIAnyToAny(&raw);
    if (value.type_index() == TypeIndex::kTVMFFIError) throw value.cast<Error>();
    if constexpr (std::is_void_v<R>) {
      return;
    } else if constexpr (std::is_same_v<R, Any>) {
      return value;
    } else {
      return value.cast<R>();
    }
  }
};
}  // namespace detail

template <typename Signature>
class NativeFunctionView;
template <typename Signature>
class NativeFunction;

/*! \brief A borrowed hook `R(Args...)`: a native adapter or a packed ffi.Function. */
template <typename R, typename... Args>
class NativeFunctionView<R(Args...)> {
 public:
  static_assert(((std::is_lvalue_reference_v<Args> ||
                  (std::is_standard_layout_v<Args> && std::is_trivially_copyable_v<Args>)) &&
                 ...),
                "NativeFunctionView parameters require lvalue references or standard-layout, "
                "trivially-copyable values");
  /*! \brief The C-compatible adapter a native hook stores. */
  using ABIType = TVMFFIAny (*)(Args...) noexcept;

  NativeFunctionView() = delete;
  NativeFunctionView(std::nullptr_t) = delete;
  /*! \brief Borrows a typed packed function; it must outlive the view. */
  template <typename PackedR, typename = std::enable_if_t<std::is_same_v<PackedR, R> ||
                                                          detail::IsExpectedOf<PackedR, R>::value>>
  NativeFunctionView(const TypedFunction<PackedR(Args...)>& packed)  // NOLINT(*)
      : data_(AnyView(packed.packed()).CopyToTVMFFIAny()) {
    if (packed == nullptr) {
      TVM_FFI_THROW(ValueError) << "NativeFunctionView requires a non-null typed function";
    }
  }
  /*! \brief A temporary would dangle. */
  template <typename PackedR, typename = std::enable_if_t<std::is_same_v<PackedR, R> ||
                                                          detail::IsExpectedOf<PackedR, R>::value>>
  NativeFunctionView(const TypedFunction<PackedR(Args...)>&&) = delete;

  /*! \brief Binds the named function `Fn` (`R(Args...)`, or `Expected<R>(Args...) noexcept`). */
  template <auto Fn>
  static NativeFunctionView FromNative() {
    static_assert(Fn != nullptr, "NativeFunctionView requires a non-null native function");
    TVMFFIAny data;
    data.type_index = TypeIndex::kTVMFFIOpaquePtr;
    data.zero_padding = 0;
    data.v_int64 = 0;
    data.v_ptr = reinterpret_cast<void*>(&Adapter<Fn>);
    return NativeFunctionView(UnsafeInit{}, data);
  }

  /*! \brief Calls the hook; its error is thrown. */
  R operator()(Args... args) const {
    return detail::HookResult::Unwrap<R>(CallABI(std::forward<Args>(args)...));
  }

#if TVM_FFI_NATIVE_FUNCTION_HAS_EXPECTED
  /*! \brief Calls the hook; its error comes back in the result. */
  Expected<R> CallExpected(Args... args) const noexcept {
    TVMFFIAny raw = CallABI(std::forward<Args>(args)...);
    Any value = ffi::detail::AnyUnsafe::MoveTVMFFIAnyToAny(&raw);
    if (value.type_index() == TypeIndex::kTVMFFIError) {
      return Expected<R>(Unexpected<Error>(value.cast<Error>()));
    }
    if constexpr (std::is_void_v<R>) {
      return Expected<void>();
    } else {
      return Expected<R>(value.cast<R>());
    }
  }
#endif

 private:
  NativeFunctionView(UnsafeInit, TVMFFIAny data) : data_(data) {}

  template <auto Fn>
  static TVMFFIAny Adapter(Args... args) noexcept {
    using F = decltype(Fn);
    if constexpr (!detail::IsExpectedOf<std::invoke_result_t<F, Args...>, R>::value) {
      return detail::HookResult::Run<R>([&]() -> R { return Fn(std::forward<Args>(args)...); });
    } else {
      // Expected<R>(Args...) noexcept: the error travels in the result.
      auto result = Fn(std::forward<Args>(args)...);
      if (!result.is_ok()) return detail::HookResult::Fail(std::move(result).error());
      if constexpr (std::is_void_v<R>) {
        return Any().CopyToTVMFFIAny();
      } else {
        return ffi::detail::AnyUnsafe::MoveAnyToTVMFFIAny(Any(std::move(result).value()));
      }
    }
  }

  TVMFFIAny CallABI(Args... args) const noexcept {
    if (TVM_FFI_PREDICT_TRUE(data_.type_index == TypeIndex::kTVMFFIOpaquePtr)) {
      return reinterpret_cast<ABIType>(data_.v_ptr)(std::forward<Args>(args)...);
    }
    return CallPacked(std::forward<Args>(args)...);
  }

  TVM_FFI_COLD_CODE TVMFFIAny CallPacked(Args... args) const noexcept {
    AnyView packed_args[sizeof...(Args) > 0 ? sizeof...(Args) : 1];
    PackedArgs::Fill(packed_args, std::forward<Args>(args)...);
    TVMFFIAny result;
    result.type_index = TypeIndex::kTVMFFINone;
    result.zero_padding = 0;
    result.v_int64 = 0;
    if (TVMFFIFunctionCall(data_.v_obj, reinterpret_cast<TVMFFIAny*>(packed_args),
                           static_cast<int32_t>(sizeof...(Args)), &result) != 0) {
      return detail::HookResult::Fail(ffi::detail::MoveFromSafeCallRaised());
    }
    Any value = ffi::detail::AnyUnsafe::MoveTVMFFIAnyToAny(&result);
    if (value.type_index() == TypeIndex::kTVMFFIError) {
      return ffi::detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(value));
    }
    if constexpr (std::is_void_v<R>) {
      if (value == nullptr) return Any().CopyToTVMFFIAny();
    } else if constexpr (std::is_same_v<R, Any>) {
      return ffi::detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(value));
    } else {
      std::optional<R> typed = value.try_cast<R>();
      if (typed.has_value()) return ffi::detail::AnyUnsafe::MoveAnyToTVMFFIAny(Any(*std::move(typed)));
    }
    return detail::HookResult::Fail(Error("TypeError", "Packed hook result type mismatch", ""));
  }

  template <typename, typename>
  friend struct ::tvm::ffi::TypeTraits;
  template <typename>
  friend class NativeFunction;

  TVMFFIAny data_;
};

/*! \brief An owning hook: keeps a packed function alive after the original is gone. */
template <typename R, typename... Args>
class NativeFunction<R(Args...)> {
 public:
  using View = NativeFunctionView<R(Args...)>;

  explicit NativeFunction(View view) : data_(AnyView::CopyFromTVMFFIAny(view.data_)) {}
  template <typename PackedR, typename = std::enable_if_t<std::is_constructible_v<
                                  View, const TypedFunction<PackedR(Args...)>&>>>
  NativeFunction(const TypedFunction<PackedR(Args...)>& packed)  // NOLINT(*)
      : NativeFunction(View(packed)) {}

  static NativeFunction From(View view) { return NativeFunction(view); }
  template <auto Fn>
  static NativeFunction FromNative() {
    return From(View::template FromNative<Fn>());
  }

  R operator()(Args... args) const { return view()(std::forward<Args>(args)...); }
#if TVM_FFI_NATIVE_FUNCTION_HAS_EXPECTED
  Expected<R> CallExpected(Args... args) const noexcept {
    return view().CallExpected(std::forward<Args>(args)...);
  }
#endif

 private:
  NativeFunction(UnsafeInit, Any data) : data_(std::move(data)) {}
  View view() const { return View(UnsafeInit{}, data_.CopyToTVMFFIAny()); }

  template <typename, typename>
  friend struct ::tvm::ffi::TypeTraits;

  Any data_;
};

}  // namespace reflection

/*! \brief Hooks cross the ABI as `Variant<void*, Function>` (an Any field in reflection). */
template <typename Signature>
struct TypeTraits<reflection::NativeFunctionView<Signature>> : public TypeTraitsBase {
  using View = reflection::NativeFunctionView<Signature>;
  static constexpr bool convert_enabled = true;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIAny;

  static void CopyToAnyView(const View& src, TVMFFIAny* result) { *result = src.data_; }
  static void MoveToAny(View src, TVMFFIAny* result) {
    *result = detail::AnyUnsafe::MoveAnyToTVMFFIAny(Any(AnyView::CopyFromTVMFFIAny(src.data_)));
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return (src->type_index == TypeIndex::kTVMFFIOpaquePtr && src->v_ptr != nullptr) ||
           src->type_index == TypeIndex::kTVMFFIFunction;
  }
  static View CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return View(UnsafeInit{}, *src); }
  static View MoveFromAnyAfterCheck(TVMFFIAny* src) { return CopyFromAnyViewAfterCheck(src); }
  static std::optional<View> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    return std::nullopt;
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return TypeTraitsBase::GetMismatchTypeInfo(src);
  }
  static std::string TypeStr() {
    return "Variant<" + TypeTraits<void*>::TypeStr() + ", " +
           TypeTraits<TypedFunction<Signature>>::TypeStr() + ">";
  }
  static std::string TypeSchema() {
    return R"({"type":"Variant","args":[)" + TypeTraits<void*>::TypeSchema() + "," +
           TypeTraits<TypedFunction<Signature>>::TypeSchema() + "]}";
  }
};

template <typename Signature>
struct TypeTraits<reflection::NativeFunction<Signature>> : public TypeTraitsBase {
  using Owner = reflection::NativeFunction<Signature>;
  using ViewTraits = TypeTraits<reflection::NativeFunctionView<Signature>>;
  static constexpr bool convert_enabled = true;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIAny;

  static void CopyToAnyView(const Owner& src, TVMFFIAny* result) {
    *result = src.data_.CopyToTVMFFIAny();
  }
  static void MoveToAny(Owner src, TVMFFIAny* result) {
    *result = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(src.data_));
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return ViewTraits::CheckAnyStrict(src); }
  static Owner CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return Owner(ViewTraits::CopyFromAnyViewAfterCheck(src));
  }
  static Owner MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return Owner(UnsafeInit{}, detail::AnyUnsafe::MoveTVMFFIAnyToAny(src));
  }
  static std::optional<Owner> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    return std::nullopt;
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return TypeTraitsBase::GetMismatchTypeInfo(src);
  }
  static std::string TypeStr() { return ViewTraits::TypeStr(); }
  static std::string TypeSchema() { return ViewTraits::TypeSchema(); }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_REFLECTION_NATIVE_FUNCTION_H_
