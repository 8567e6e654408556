/*
 * tvm/ffi/function.h -- Function (a reference to an ffi.Function object), TypedFunction<R(Args...)>,
 * the global function registry, and TVM_FFI_DLL_EXPORT_TYPED_FUNC, which exports a C++
 * function as the `__tvm_ffi_<name>` safe-call symbol that modules load.
 */
#ifndef TVM_FFI_FUNCTION_H_
#define TVM_FFI_FUNCTION_H_

#include <tvm/ffi/expected.h>
#include <tvm/ffi/function_detail.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/optional.h>

#include <array>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#ifndef TVM_FFI_DLL_EXPORT_INCLUDE_METADATA
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 0
#endif

namespace tvm {
namespace ffi {

/*! \brief The ffi.Function object: header then {safe_call, cpp_call}. */
class FunctionObj : public Object, public TVMFFIFunctionCell {
 public:
  FunctionObj() : TVMFFIFunctionCell{nullptr, nullptr} {}
  static constexpr int32_t _type_index = TypeIndex::kTVMFFIFunction;
  static constexpr int32_t _type_child_slots = 0;
  static constexpr bool _type_child_slots_can_overflow = false;
  static constexpr bool _type_final = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIFunction, FunctionObj, Object);
  /*! \brief A C++ calling convention with exceptions (the reference's name; calls here always go
   * through safe_call, which every library's functions implement). */
  using FCall = void (*)(const FunctionObj*, const AnyView*, int32_t, Any*);
  /*! \brief Calls the function; an error comes back as a thrown tvm::ffi::Error. */
  inline void CallPacked(const AnyView* args, int32_t num_args, Any* result) const;
};

/*! \brief The arguments of a packed call: a borrowed array of AnyView. */
class PackedArgs {
 public:
  PackedArgs(const AnyView* data, int32_t size) noexcept : data_(data), size_(size) {}
  int32_t size() const noexcept { return size_; }
  const AnyView* data() const noexcept { return data_; }
  AnyView operator[](int i) const noexcept { return data_[i]; }
  PackedArgs Slice(int begin, int end = -1) const noexcept {
    if (end < 0) end = size_;
    return PackedArgs(data_ + begin, end - begin);
  }
  /*! \brief Writes views of `args` into `out` (which must hold sizeof...(args) entries). */
  template <typename... Args>
  static void Fill(AnyView* out, Args&&... args) {
    size_t i = 0;
    ((out[i++] = AnyView(args)), ...);
    (void)i;
  }

 private:
  const AnyView* data_;
  int32_t size_;
};

namespace detail {
/*! \brief A function object holding a C++ callable `void(PackedArgs, Any*)`. */
template <typename TCallable>
class FunctionObjImpl : public FunctionObj {
 public:
  explicit FunctionObjImpl(TCallable callable) : callable_(std::move(callable)) {
    this->safe_call = &SafeCall;
    this->cpp_call = nullptr;  // foreign C++ must go through safe_call
  }

 private:
  static int SafeCall(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
    TVM_FFI_SAFE_CALL_BEGIN();
    auto* impl = static_cast<FunctionObjImpl*>(reinterpret_cast<Object*>(self));
    Any rv;
    impl->callable_(PackedArgs(reinterpret_cast<const AnyView*>(args), num_args), &rv);
    *result = AnyUnsafe::MoveAnyToTVMFFIAny(std::move(rv));
    TVM_FFI_SAFE_CALL_END();
  }
  TCallable callable_;

 public:
  TCallable& callable() noexcept { return callable_; }
};

/*! \brief A `(const AnyView*, int32_t, Any*)` callable seen as one taking (PackedArgs, Any*). */
template <typename TCallable>
struct PackedCallAdapter {
  TCallable inner;
  void operator()(PackedArgs args, Any* rv) { inner(args.data(), args.size(), rv); }
};

/*! \brief How many of Args need an object built for their view (see ViewNeedsOwner). */
template <typename... Args>
inline constexpr size_t kNumOwnedArgs = (size_t{0} + ... + (ViewNeedsOwner<Args>::value ? 1 : 0));

/*! \brief Views of `args` in `out`; objects built for them go to `owners` (kNumOwnedArgs). */
template <typename... Args>
inline void PackArgsForCall(AnyView* out, [[maybe_unused]] Any* owners, Args&&... args) {
  size_t i = 0;
  [[maybe_unused]] size_t j = 0;
  [[maybe_unused]] auto pack_one = [&](auto&& arg) {
    using Arg = decltype(arg);
    if constexpr (ViewNeedsOwner<Arg>::value) {
      owners[j] = Any(std::forward<Arg>(arg));
      out[i++] = AnyView(owners[j++]);
    } else {
      out[i++] = AnyView(arg);
    }
  };
  (pack_one(std::forward<Args>(args)), ...);
}

/*! \brief Calls a function object's safe_call and turns a failure into a thrown Error. */
inline void CallSafe(TVMFFIObject* handle, const AnyView* args, int32_t num_args, Any* rv) {
  TVMFFIAny result;
  ClearAny(&result);
  const TVMFFIFunctionCell* cell = TVMFFIFunctionGetCellPtr(handle);
  int ret = cell->safe_call(handle, reinterpret_cast<const TVMFFIAny*>(args), num_args, &result);
  if (TVM_FFI_PREDICT_FALSE(ret != 0)) {
    if (ret == -2) throw EnvErrorAlreadySet();
    throw MoveFromSafeCallRaised();
  }
  *rv = AnyUnsafe::MoveTVMFFIAnyToAny(&result);
}
}  // namespace detail

inline void FunctionObj::CallPacked(const AnyView* args, int32_t num_args, Any* result) const {
  auto* handle = reinterpret_cast<TVMFFIObject*>(const_cast<Object*>(static_cast<const Object*>(this)));
  detail::CallSafe(handle, args, num_args, result);
}

/*! \brief A reference to a callable FFI function (any language, any library). */
class Function : public ObjectRef {
 public:
  Function() = default;
  Function(std::nullptr_t) {}  // NOLINT
  bool operator==(std::nullptr_t) const noexcept { return !defined(); }
  bool operator!=(std::nullptr_t) const noexcept { return defined(); }
  explicit Function(ObjectPtr<FunctionObj> n) : ObjectRef(std::move(n)) {}
  explicit Function(UnsafeInit tag) : ObjectRef(tag) {}
  /*! \brief From a packed callable: `void(PackedArgs, Any*)` or `void(const AnyView*, int32_t, Any*)`. */
  template <typename TCallable,
            typename = std::enable_if_t<!std::is_base_of_v<ObjectRef, std::decay_t<TCallable>> &&
                                        !std::is_same_v<std::decay_t<TCallable>, std::nullptr_t>>>
  explicit Function(TCallable packed) : Function(FromPacked(std::move(packed))) {}
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(Function)
  const FunctionObj* get() const noexcept { return static_cast<const FunctionObj*>(data_.get()); }
  const FunctionObj* operator->() const noexcept { return get(); }
  using ContainerType = FunctionObj;
  static constexpr bool _type_is_nullable = true;

  template <typename TCallable>
  static Function FromPacked(TCallable packed) {
    if constexpr (std::is_invocable_v<TCallable&, PackedArgs, Any*>) {
      return Function(ObjectPtr<FunctionObj>(
          make_object<detail::FunctionObjImpl<TCallable>>(std::move(packed))));
    } else {
      static_assert(std::is_invocable_v<TCallable&, const AnyView*, int32_t, Any*>,
                    "Function::FromPacked expects a callable taking (PackedArgs args, Any* rv) "
                    "or (const AnyView* args, int32_t num_args, Any* rv)");
      return FromPacked([f = std::move(packed)](PackedArgs args, Any* rv) {
        f(args.data(), args.size(), rv);
      });
    }
  }
  /*!
   * \brief A Function whose callable, a TCallable built in place from `args`, stays reachable:
   * returns (function, pointer to the callable), the callable living as long as the function.
   */
  template <typename TCallable, typename... Args>
  static std::tuple<Function, TCallable*> FromPackedInplace(Args&&... args) {
    static_assert(std::is_same_v<TCallable, std::decay_t<TCallable>>,
                  "FromPackedInplace builds a TCallable value: pass a plain (decayed) type");
    static_assert(std::is_invocable_v<TCallable&, const AnyView*, int32_t, Any*>,
                  "FromPackedInplace expects a callable taking (const AnyView* args, int32_t "
                  "num_args, Any* rv)");
    auto obj = make_object<detail::FunctionObjImpl<detail::PackedCallAdapter<TCallable>>>(
        detail::PackedCallAdapter<TCallable>{TCallable(std::forward<Args>(args)...)});
    TCallable* callable = &obj->callable().inner;
    return {Function(ObjectPtr<FunctionObj>(std::move(obj))), callable};
  }
  /*! \brief Wraps a typed callable; `name` appears in argument error messages. */
  template <typename TCallable>
  static Function FromTyped(TCallable callable, std::string name = "") {
    using Info = detail::FunctionInfo<std::decay_t<TCallable>>;
    return FromPacked([f = std::move(callable), name = std::move(name)](PackedArgs args, Any* rv) {
      detail::unpack_call<typename Info::RetType>(std::make_index_sequence<Info::num_args>{},
                                                  &name, f, args.data(), args.size(), rv);
    });
  }
  /*! \brief Wraps a C safe-call function and its resource (see TVMFFIFunctionCreate). */
  static Function FromExternC(void* self, TVMFFISafeCallType safe_call,
                              void (*deleter)(void* self)) {
    TVMFFIObjectHandle out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionCreate(self, safe_call, deleter, &out));
    return detail::ObjectUnsafe::ObjectRefFromOwned<Function>(static_cast<TVMFFIObject*>(out));
  }

  /*!
   * \brief Calls a C safe-call symbol directly, with no Function object in between (e.g. an
   * exported `__tvm_ffi_<name>` of a statically linked kernel library); errors are thrown.
   */
  template <typename... Args>
  static Any InvokeExternC(void* self, TVMFFISafeCallType safe_call, Args&&... args) {
    AnyView packed[sizeof...(Args) == 0 ? 1 : sizeof...(Args)];
    std::array<Any, detail::kNumOwnedArgs<Args...>> owners;
    detail::PackArgsForCall(packed, owners.data(), std::forward<Args>(args)...);
    TVMFFIAny result;
    detail::ClearAny(&result);
    int ret = safe_call(self, reinterpret_cast<const TVMFFIAny*>(packed),
                        static_cast<int32_t>(sizeof...(Args)), &result);
    if (TVM_FFI_PREDICT_FALSE(ret != 0)) {
      if (ret == -2) throw EnvErrorAlreadySet();
      throw detail::MoveFromSafeCallRaised();
    }
    return detail::AnyUnsafe::MoveTVMFFIAnyToAny(&result);
  }

  /*!
   * \brief The global function `name`, or nullopt when not registered.
   * A std::optional, as the reference declares it, so `std::optional<Function> f = GetGlobal(..)`
   * and `f->` (a Function*) compile against either header set. The overloads keep a String or a
   * std::string argument from being ambiguous between std::string_view and const char*.
   */
  static std::optional<Function> GetGlobal(std::string_view name) {
    TVMFFIByteArray key{name.data(), name.size()};
    TVMFFIObjectHandle out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionGetGlobal(&key, &out));
    if (out == nullptr) return std::nullopt;
    return detail::ObjectUnsafe::ObjectRefFromOwned<Function>(static_cast<TVMFFIObject*>(out));
  }
  static std::optional<Function> GetGlobal(const std::string& name) {
    return GetGlobal(std::string_view(name));
  }
  static std::optional<Function> GetGlobal(const String& name) {
    return GetGlobal(std::string_view(name.data(), name.size()));
  }
  static std::optional<Function> GetGlobal(const char* name) {
    return GetGlobal(std::string_view(name));
  }
  /*! \brief The global function `name`; ValueError when not registered. */
  static Function GetGlobalRequired(std::string_view name) {
    std::optional<Function> f = GetGlobal(name);
    if (!f.has_value()) {
      TVM_FFI_THROW(ValueError) << "Function " << name << " not found";
    }
    return *std::move(f);
  }
  static Function GetGlobalRequired(const std::string& name) {
    return GetGlobalRequired(std::string_view(name));
  }
  static Function GetGlobalRequired(const String& name) {
    return GetGlobalRequired(std::string_view(name.data(), name.size()));
  }
  static Function GetGlobalRequired(const char* name) {
    return GetGlobalRequired(std::string_view(name));
  }
  /*! \brief The names of all global functions (in registration order). */
  static std::vector<String> ListGlobalNames() {
    Function names = GetGlobalRequired("ffi.FunctionListGlobalNamesFunctor")().cast<Function>();
    int64_t count = names(-1).cast<int64_t>();
    std::vector<String> out;
    out.reserve(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) out.push_back(names(i).cast<String>());
    return out;
  }
  /*! \brief Unregisters the global function `name` (nothing happens when there is none). */
  static void RemoveGlobal(const String& name) {
    static Function remove = GetGlobalRequired("ffi.FunctionRemoveGlobal");
    remove(name);
  }
  /*! \brief Registers `func` as the global `name`. */
  static void SetGlobal(std::string_view name, const Function& func, bool override = false) {
    TVMFFIByteArray key{name.data(), name.size()};
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionSetGlobal(
        &key, detail::ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(func), override ? 1 : 0));
  }

  /*! \brief Calls with C++ values; the result is an owned Any. */
  template <typename... Args>
  Any operator()(Args&&... args) const {
    AnyView packed[sizeof...(Args) == 0 ? 1 : sizeof...(Args)];
    std::array<Any, detail::kNumOwnedArgs<Args...>> owners;
    detail::PackArgsForCall(packed, owners.data(), std::forward<Args>(args)...);
    Any rv;
    detail::CallSafe(Handle(), packed, static_cast<int32_t>(sizeof...(Args)), &rv);
    return rv;
  }
  /*!
   * \brief Calls without throwing: the result as an Expected<T>, with the callee's error (or a
   * TypeError when the result is not a T) as the failure.
   */
  template <typename T = Any, typename... Args>
  Expected<T> CallExpected(Args&&... args) const {
    AnyView packed[sizeof...(Args) == 0 ? 1 : sizeof...(Args)];
    std::array<Any, detail::kNumOwnedArgs<Args...>> owners;
    detail::PackArgsForCall(packed, owners.data(), std::forward<Args>(args)...);
    TVMFFIAny raw;
    detail::ClearAny(&raw);
    TVMFFIObject* handle = Handle();
    int ret = TVMFFIFunctionGetCellPtr(handle)->safe_call(
        handle, reinterpret_cast<const TVMFFIAny*>(packed), static_cast<int32_t>(sizeof...(Args)),
        &raw);
    if (TVM_FFI_PREDICT_FALSE(ret != 0)) {
      if (ret == -2) throw EnvErrorAlreadySet();  // a frontend error must stay where it is
      return Unexpected(detail::MoveFromSafeCallRaised());
    }
    Any result = detail::AnyUnsafe::MoveTVMFFIAnyToAny(&raw);
    if constexpr (std::is_same_v<T, Any>) {
      return result;
    } else {
      if (result.type_index() == TypeIndex::kTVMFFIError) return Unexpected(result.cast<Error>());
      if constexpr (std::is_void_v<T>) {
        if (result.type_index() == TypeIndex::kTVMFFINone) return Expected<void>();
      } else {
        if (std::optional<T> value = result.template try_cast<T>()) return *std::move(value);
      }
      return Unexpected(Error("TypeError",
                              "CallExpected: result type mismatch, expected " +
                                  detail::Type2Str<T>::v() + ", but got " + result.GetTypeKey(),
                              ""));
    }
  }
  void CallPacked(const AnyView* args, int32_t num_args, Any* rv) const {
    detail::CallSafe(Handle(), args, num_args, rv);
  }
  void CallPacked(PackedArgs args, Any* rv) const {
    detail::CallSafe(Handle(), args.data(), args.size(), rv);
  }

 private:
  TVMFFIObject* Handle() const {
    if (TVM_FFI_PREDICT_FALSE(!defined())) {
      TVM_FFI_THROW(RuntimeError) << "calling an undefined (null) Function";
    }
    return detail::ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(*this);
  }
};

template <typename FType>
class TypedFunction;

/*! \brief A Function with a C++ signature: arguments and result convert at the call. */
template <typename R, typename... Args>
class TypedFunction<R(Args...)> {
 public:
  using TSelf = TypedFunction<R(Args...)>;
  TypedFunction() = default;
  TypedFunction(std::nullptr_t) {}                        // NOLINT
  TypedFunction(Function packed) : packed_(std::move(packed)) {}  // NOLINT
  template <typename TLambda,
            typename = std::enable_if_t<std::is_invocable_r_v<R, TLambda&, Args...>>,
            typename = std::enable_if_t<!std::is_base_of_v<ObjectRef, std::decay_t<TLambda>>>>
  TypedFunction(TLambda typed, std::string name = "")  // NOLINT
      : packed_(Function::FromTyped(std::move(typed), std::move(name))) {}

  R operator()(Args... args) const {
    if constexpr (std::is_void_v<R>) {
      packed_(std::forward<Args>(args)...);
    } else {
      Any rv = packed_(std::forward<Args>(args)...);
      return std::move(rv).template cast<R>();
    }
  }
  const Function& packed() const& noexcept { return packed_; }
  Function packed() && noexcept { return std::move(packed_); }
  operator Function() const { return packed_; }  // NOLINT
  bool operator==(std::nullptr_t) const noexcept { return !packed_.defined(); }
  bool operator!=(std::nullptr_t) const noexcept { return packed_.defined(); }
  static std::string TypeSchema() { return detail::FuncFunctorImpl<R, Args...>::TypeSchema(); }

 private:
  Function packed_;
};

template <typename FType>
struct TypeTraits<TypedFunction<FType>> : TypeTraitsBase {
  using Inner = TypeTraits<Function>;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIFunction;
  static void CopyToAnyView(const TypedFunction<FType>& v, TVMFFIAny* r) {
    Inner::CopyToAnyView(v.packed(), r);
  }
  static void MoveToAny(TypedFunction<FType> v, TVMFFIAny* r) {
    Inner::MoveToAny(std::move(v).packed(), r);
  }
  static bool CheckAnyStrict(const TVMFFIAny* s) { return Inner::CheckAnyStrict(s); }
  static TypedFunction<FType> CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
    return TypedFunction<FType>(Inner::CopyFromAnyViewAfterCheck(s));
  }
  static std::optional<TypedFunction<FType>> TryCastFromAnyView(const TVMFFIAny* s) {
    if (auto f = Inner::TryCastFromAnyView(s)) return TypedFunction<FType>(*std::move(f));
    return std::nullopt;
  }
  static std::string TypeStr() { return detail::FunctionInfo<FType>::Sig(); }
  static std::string TypeSchema() { return TypedFunction<FType>::TypeSchema(); }
};

/*! \brief The type index registered for `type_key`; throws when no such type exists. */
inline int32_t TypeKeyToIndex(std::string_view type_key) {
  TVMFFIByteArray key{type_key.data(), type_key.size()};
  int32_t type_index = -1;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeKeyToIndex(&key, &type_index));
  return type_index;
}

}  // namespace ffi
}  // namespace tvm

// ---- exporting typed functions from a shared library ----

#define TVM_FFI_DLL_EXPORT_TYPED_FUNC_IMPL_(ExportName, Function)                              \
  extern "C" {                                                                                 \
  TVM_FFI_DLL_EXPORT int __tvm_ffi_##ExportName(void* self, const TVMFFIAny* args,             \
                                                int32_t num_args, TVMFFIAny* result) {         \
    TVM_FFI_SAFE_CALL_BEGIN();                                                                 \
    (void)self;                                                                                \
    const auto& callable = (Function); /* a variable, so lambdas work in C++17 */           \
    using FuncInfo = ::tvm::ffi::detail::FunctionInfo<std::decay_t<decltype(callable)>>;       \
    /* `result` holds None on entry (ABI), so the result is written straight into it. */       \
    ::tvm::ffi::detail::unpack_call<typename FuncInfo::RetType>(                               \
        std::make_index_sequence<FuncInfo::num_args>{}, #ExportName, callable,                 \
        reinterpret_cast<const ::tvm::ffi::AnyView*>(args), num_args,                          \
        reinterpret_cast<::tvm::ffi::Any*>(result));                                           \
    TVM_FFI_SAFE_CALL_END();                                                                   \
  }                                                                                            \
  }

#if TVM_FFI_DLL_EXPORT_INCLUDE_METADATA
// The metadata string is made by the runtime (TVMFFIStringFromByteArray), so it outlives us.
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC(ExportName, Function)                                      \
  TVM_FFI_DLL_EXPORT_TYPED_FUNC_IMPL_(ExportName, Function)                                      \
  extern "C" {                                                                                   \
  TVM_FFI_DLL_EXPORT int __tvm_ffi__metadata_##ExportName(void* self, const TVMFFIAny* args,     \
                                                          int32_t num_args, TVMFFIAny* result) { \
    TVM_FFI_SAFE_CALL_BEGIN();                                                                   \
    (void)self, (void)args, (void)num_args;                                                      \
    const auto& callable = (Function);                                                           \
    (void)callable;                                                                              \
    using FuncInfo = ::tvm::ffi::detail::FunctionInfo<std::decay_t<decltype(callable)>>;         \
    std::string text =                                                                           \
        "{\"type_schema\":" + ::tvm::ffi::detail::EscapeStringJSON(FuncInfo::TypeSchema()) + "}"; \
    TVMFFIByteArray bytes{text.data(), text.size()};                                             \
    return TVMFFIStringFromByteArray(&bytes, result);                                            \
    TVM_FFI_SAFE_CALL_END();                                                                     \
  }                                                                                              \
  }
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(ExportName, DocString)                            \
  extern "C" {                                                                              \
  TVM_FFI_DLL_EXPORT int __tvm_ffi__doc_##ExportName(void* self, const TVMFFIAny* args,     \
                                                     int32_t num_args, TVMFFIAny* result) { \
    TVM_FFI_SAFE_CALL_BEGIN();                                                              \
    (void)self, (void)args, (void)num_args;                                                 \
    std::string_view text(DocString);                                                       \
    TVMFFIByteArray bytes{text.data(), text.size()};                                        \
    return TVMFFIStringFromByteArray(&bytes, result);                                       \
    TVM_FFI_SAFE_CALL_END();                                                                \
  }                                                                                         \
  }
#else
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC(ExportName, Function) \
  TVM_FFI_DLL_EXPORT_TYPED_FUNC_IMPL_(ExportName, Function)
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(ExportName, DocString)
#endif

#endif  // TVM_FFI_FUNCTION_H_
