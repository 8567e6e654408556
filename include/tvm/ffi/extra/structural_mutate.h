/*
 * tvm/ffi/extra/structural_mutate.h -- structural mutation from C++: the active
 * StructuralMutator (for `__s_mutate__` hooks and mutate callbacks) and StructuralMap /
 * StructuralMutate with typed callbacks (and their Expected forms, which return a failure
 * instead of throwing it).
 *
 * Header-only over the runtime: the engines are the runtime's (ffi.StructuralMap,
 * ffi.StructuralMutate); callbacks are wrapped as ffi::Function and selected by the type of
 * their first parameter, as in structural_visit.h. Mutation is copy-on-write: the result is the
 * input itself when nothing changed. Passing the root as an rvalue (`std::move(root)`) hands
 * over the caller's reference, so uniquely owned containers along the path are updated in place.
 *
 *   Any folded = ffi::StructuralMap<ffi::WalkOrder::kPostOrder>(expr, [](int64_t v) { return v + 1; });
 *
 * The reference headers' hook API works too: `__s_mutate__` hooks returning
 * Expected<UnchangedOr<Any>>, registered with native_fn_attr<&Fn>(type_attr::kStructuralMutate),
 * calling MutateExpected / DefaultMutateExpected / VarRemap*Expected and chaining results with
 * TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN.
 */
#ifndef TVM_FFI_EXTRA_STRUCTURAL_MUTATE_H_
#define TVM_FFI_EXTRA_STRUCTURAL_MUTATE_H_

#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/extra/unchanged_or.h>

#include <optional>
#include <utility>

namespace tvm {
namespace ffi {

/*! \brief Whether a value may be changed in place (it is uniquely owned along its path). */
enum class InplaceMode : int32_t { kDisallow = 0, kAllow = 1 };

class StructuralMutatorObj;

/*! \brief ABI of a mutate entry point and of a native `__s_mutate__` hook: an owned raw result
 * that is the replacement, the Unchanged marker (type index 13) or an ffi.Error. */
using FStructuralMutateABI = TVMFFIAny (*)(StructuralMutatorObj* mutator, AnyView value) noexcept;
using FStructuralVarRemapGet = TVMFFIAny (*)(StructuralMutatorObj* mutator, AnyView var) noexcept;
using FStructuralVarRemapSet = TVMFFIAny (*)(StructuralMutatorObj* mutator, AnyView var,
                                             AnyView mapped_value) noexcept;

/*! \brief The dispatch table at offset 24 of every mutator. */
struct StructuralMutatorVTable {
  FStructuralMutateABI mutate = nullptr;
  FStructuralMutateABI maybe_inplace_mutate = nullptr;
  FStructuralVarRemapGet var_remap_get = nullptr;
  FStructuralVarRemapSet var_remap_set = nullptr;
};

/*! \brief A `__s_mutate__` hook as stored in the type-attribute column (native adapter or
 * ffi::Function); its raw result is an Expected<UnchangedOr<Any>>. */
using FStructuralMutate =
    reflection::NativeFunctionView<UnchangedOr<Any>(StructuralMutatorObj*, AnyView)>;

namespace type_attr {
/*! \brief The per-type mutation hook (copy-on-write). */
inline constexpr reflection::AttrKey<FStructuralMutate> kStructuralMutate{"__s_mutate__"};
/*! \brief The per-type hook for values that may be changed in place (uniquely owned). */
inline constexpr reflection::AttrKey<FStructuralMutate> kStructuralMaybeInplaceMutate{
    "__s_maybe_inplace_mutate__"};
}  // namespace type_attr

namespace detail {
/*! \brief Turns a raw mutate result into the mutated value (`original` for the marker),
 * throwing an error result. */
inline Any DecodeMutateResult(TVMFFIAny raw, AnyView original) {
  if (raw.type_index == TypeIndex::kTVMFFIUnchanged) return Any(original);
  Any owned = AnyUnsafe::MoveTVMFFIAnyToAny(&raw);
  if (owned.type_index() == TypeIndex::kTVMFFIError) throw owned.cast<Error>();
  return owned;
}
}  // namespace detail

/*! \brief The active mutation: what hooks and mutate callbacks use to mutate children. */
class StructuralMutatorObj : public Object {
 public:
  /*!
   * \brief Mutates `value` with the mutation's callbacks; `value` itself when unchanged.
   * In-place mutation happens only with InplaceMode::kAllow and a uniquely owned `value`.
   */
  UnchangedOr<Any> Mutate(AnyView value, InplaceMode inplace_mode = InplaceMode::kDisallow) {
    return MutateExpected(value, inplace_mode).value();
  }
  /*! \brief Mutate(), with a failure returned as the Expected's error instead of thrown. */
  Expected<UnchangedOr<Any>> MutateExpected(
      AnyView value, InplaceMode inplace_mode = InplaceMode::kDisallow) noexcept {
    const TVMFFIAny raw = value.CopyToTVMFFIAny();
    bool unique = raw.type_index >= TypeIndex::kTVMFFIStaticObjectBegin && raw.v_obj != nullptr &&
                  (raw.v_obj->combined_ref_count & 0xFFFFFFFFu) == 1;
    FStructuralMutateABI entry = inplace_mode == InplaceMode::kAllow && unique
                                     ? vtable_->maybe_inplace_mutate
                                     : vtable_->mutate;
    return detail::ExpectedUnsafe::MoveFromTVMFFIAny<UnchangedOr<Any>>(entry(this, value));
  }
  /*! \brief Mutates `value` by its type's default rule (items, fields), skipping the
   * callbacks for `value` itself; children go through the callbacks. */
  Any DefaultMutate(AnyView value) {
    static const Function fn = Function::GetGlobalRequired("ffi.StructuralMutatorDefaultMutate");
    return fn(GetRef<ObjectRef>(this), value);
  }
  /*! \brief DefaultMutate() as an UnchangedOr, with a failure returned as the error. (The
   * default rule copies on write in both modes here: `inplace_mode` is accepted for the
   * reference's signature.) */
  Expected<UnchangedOr<Any>> DefaultMutateExpected(
      AnyView value, InplaceMode inplace_mode = InplaceMode::kDisallow) noexcept {
    (void)inplace_mode;
    return detail::ExpectedFromCall<UnchangedOr<Any>>([&]() -> UnchangedOr<Any> {
      Any out = DefaultMutate(value);
      if (out.same_as(Any(value))) return Unchanged();
      return out;
    });
  }
  /*! \brief The replacement recorded for the variable `var` (by identity), or None. */
  Any VarRemapGet(AnyView var) {
    return detail::DecodeMutateResult(vtable_->var_remap_get(this, var), AnyView());
  }
  /*! \brief Records `mapped_value` as the replacement of every later use of `var`. */
  void VarRemapSet(AnyView var, AnyView mapped_value) {
    detail::DecodeMutateResult(vtable_->var_remap_set(this, var, mapped_value), AnyView());
  }
  /*! \brief VarRemapGet(), with a failure returned as the Expected's error. */
  Expected<Any> VarRemapGetExpected(AnyView var) noexcept {
    return detail::ExpectedUnsafe::MoveFromTVMFFIAny<Any>(vtable_->var_remap_get(this, var));
  }
  /*! \brief VarRemapSet(), with a failure returned as the Expected's error. */
  Expected<void> VarRemapSetExpected(AnyView var, AnyView mapped_value) noexcept {
    TVMFFIAny raw = vtable_->var_remap_set(this, var, mapped_value);
    if (raw.type_index == TypeIndex::kTVMFFIError) {
      return detail::AnyUnsafe::MoveTVMFFIAnyToAny(&raw).cast<Error>();
    }
    detail::AnyUnsafe::MoveTVMFFIAnyToAny(&raw);  // releases whatever else came back
    return Expected<void>();
  }
  /*! \brief The def region the current value is mutated in. */
  TVMFFIDefRegionKind def_region_kind() const { return def_region_mode_; }
  /*! \brief Runs callback() inside region `kind` (a pattern region is kept), then restores. */
  template <typename Callback>
  auto WithDefRegionKind(TVMFFIDefRegionKind kind, Callback&& callback)
      -> decltype(std::forward<Callback>(callback)()) {
    return detail::CallInDefRegion(&def_region_mode_, kind, std::forward<Callback>(callback));
  }

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.StructuralMutator", StructuralMutatorObj, Object);

 protected:
  StructuralMutatorObj() = default;
  /*! \brief A mutator of one's own: its entries are what Mutate() etc. call (must outlive it). */
  explicit StructuralMutatorObj(const StructuralMutatorVTable* vtable) : vtable_(vtable) {}

  const StructuralMutatorVTable* vtable_ = nullptr;
  TVMFFIDefRegionKind def_region_mode_ = kTVMFFIDefRegionKindNone;
};

/*! \brief Reference to the active StructuralMutatorObj. */
class StructuralMutator : public ObjectRef {
 public:
  explicit StructuralMutator(ObjectPtr<StructuralMutatorObj> n) : ObjectRef(std::move(n)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StructuralMutator, ObjectRef, StructuralMutatorObj);
};

namespace detail {
inline Unexpected<Error> SMutateDeclaredTypeError() {
  return Unexpected(
      Error("TypeError", "structural mutate result does not match the declared type", ""));
}
/*! \brief The value of a successful Expected<X> as a Type (nullopt when it is not one). */
template <typename Type, typename X>
std::optional<Type> SMutateTake(Expected<X>&& result) {
  if constexpr (std::is_same_v<Type, X>) {
    return std::move(result).value();
  } else {
    TVMFFIAny raw = ExpectedUnsafe::MoveToTVMFFIAny(std::move(result));
    Any data = AnyUnsafe::MoveTVMFFIAnyToAny(&raw);
    if constexpr (std::is_same_v<Type, Any>) {
      return std::optional<Type>(std::move(data));
    } else {
      return std::move(data).template as<Type>();
    }
  }
}
}  // namespace detail

/*! \brief In a function returning an Expected: returns the error of `result` (an Expected). */
#define TVM_FFI_S_MUTATE_MAYBE_EARLY_RETURN(result)                              \
  do {                                                                           \
    auto&& tvm_ffi_s_mutate_res_ = (result);                                     \
    if (TVM_FFI_PREDICT_FALSE(tvm_ffi_s_mutate_res_.is_err())) {                 \
      return ::tvm::ffi::Unexpected(std::move(tvm_ffi_s_mutate_res_).error());   \
    }                                                                            \
  } while (0)

#define TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN_IMPL_(tmp, tmp_value, Type, Name, ResultExpr)         \
  auto tmp = (ResultExpr);                                                                       \
  TVM_FFI_S_MUTATE_MAYBE_EARLY_RETURN(tmp);                                                      \
  std::optional<Type> tmp_value = ::tvm::ffi::detail::SMutateTake<Type>(std::move(tmp));         \
  if (TVM_FFI_PREDICT_FALSE(!tmp_value.has_value())) {                                           \
    return ::tvm::ffi::detail::SMutateDeclaredTypeError();                                       \
  }                                                                                              \
  Type Name = *std::move(tmp_value)

/*!
 * \brief `Type Name = <value of ResultExpr>;` where ResultExpr is an Expected: its error is
 * returned from the enclosing function, and a value that is not a Type returns a TypeError.
 */
#define TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN(Type, Name, ResultExpr)              \
  TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN_IMPL_(                                     \
      TVM_FFI_STR_CONCAT(tvm_ffi_s_mutate_result_, __COUNTER__),               \
      TVM_FFI_STR_CONCAT(tvm_ffi_s_mutate_value_, __COUNTER__), Type, Name, ResultExpr)
/*! \brief The same, without the type check (the value is known to be a Type). */
#define TVM_FFI_UNSAFE_S_MUTATE_ASSIGN_OR_RETURN(Type, Name, ResultExpr) \
  TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN(Type, Name, ResultExpr)

namespace detail {

/*! \brief Calls a runtime mutation global with `root` first: an object root is passed as an
 * rvalue reference, so the runtime holds the caller's reference and sees its uniqueness. */
inline Any CallWithOwnedRoot(const Function& fn, Any root, const Any* rest, int32_t num_rest) {
  TVMFFIAny args[4];
  TVMFFIObject* slot = nullptr;
  TVMFFIAny raw_root = AnyUnsafe::MoveAnyToTVMFFIAny(std::move(root));
  if (raw_root.type_index >= TypeIndex::kTVMFFIStaticObjectBegin) {
    slot = raw_root.v_obj;
    args[0].type_index = TypeIndex::kTVMFFIObjectRValueRef;
    args[0].zero_padding = 0;
    args[0].v_ptr = &slot;
  } else {
    args[0] = raw_root;
  }
  for (int32_t i = 0; i < num_rest; ++i) args[i + 1] = rest[i].CopyToTVMFFIAny();
  TVMFFIAny result;
  result.type_index = TypeIndex::kTVMFFINone;
  result.zero_padding = 0;
  result.v_int64 = 0;
  int rc = TVMFFIFunctionCall(const_cast<FunctionObj*>(fn.get()), args, num_rest + 1, &result);
  if (slot != nullptr) TVMFFIObjectDecRef(slot);  // not taken over (an argument error)
  if (rc != 0) throw MoveFromSafeCallRaised();
  return AnyUnsafe::MoveTVMFFIAnyToAny(&result);
}

}  // namespace detail

/*!
 * \brief Rebuilds `root` with every matching value replaced by its callback's result.
 *
 * A callback takes `(T value)` or `(T value, TVMFFIDefRegionKind kind)` and returns the value
 * unchanged or its replacement; it must not change its input. Post-order callbacks see the
 * value after its children were mapped; pre-order callbacks run first and the children of
 * their result are mapped. Callbacks are tried in order.
 */
template <WalkOrder order, typename... Callbacks>
Any StructuralMap(Any root, Callbacks&&... callbacks) {
  static_assert(sizeof...(Callbacks) != 0, "StructuralMap requires at least one callback");
  Array<Any> plain, regional;
  auto add = [&](auto&& callback) {
    using F = std::decay_t<decltype(callback)>;
    using Traits = detail::StructuralCallbackTraits<F>;
    using First = std::tuple_element_t<0, typename Traits::Args>;
    Function wrapped = detail::WrapStructuralCallback(
        F(std::forward<decltype(callback)>(callback)), [](const AnyView* args) {
          if constexpr (Traits::kArity == 2) {
            return std::make_tuple(static_cast<TVMFFIDefRegionKind>(args[1].cast<int64_t>()));
          } else {
            (void)args;
            return std::tuple<>();
          }
        });
    Array<Any>& list = Traits::kArity == 2 ? regional : plain;
    list.push_back(
        Any(detail::StructuralEntry(detail::StructuralCallbackTypeIndex<First>(), wrapped)));
  };
  (add(std::forward<Callbacks>(callbacks)), ...);
  static const Function map = Function::GetGlobalRequired("ffi.StructuralMap");
  const Any rest[3] = {Any(plain), Any(regional), Any(static_cast<int64_t>(order))};
  return detail::CallWithOwnedRoot(map, std::move(root), rest, 3);
}

/*!
 * \brief Rebuilds `root` with callbacks that own the mutation of the values they match.
 *
 * A callback takes `(T value, StructuralMutatorObj* mutator)` or
 * `(T value, StructuralMutatorObj* mutator, InplaceMode mode)`, mutates the children it wants
 * (`mutator->Mutate(child)` / `mutator->DefaultMutate(value)`) and returns the final value.
 * Unmatched values are mutated by default.
 */
template <typename... Callbacks>
Any StructuralMutate(Any root, Callbacks&&... callbacks) {
  static_assert(sizeof...(Callbacks) != 0, "StructuralMutate requires at least one callback");
  Array<Any> entries;
  auto add = [&](auto&& callback) {
    using F = std::decay_t<decltype(callback)>;
    using Traits = detail::StructuralCallbackTraits<F>;
    using First = std::tuple_element_t<0, typename Traits::Args>;
    Function wrapped = detail::WrapStructuralCallback(
        F(std::forward<decltype(callback)>(callback)), [](const AnyView* args) {
          auto* mutator =
              const_cast<StructuralMutatorObj*>(args[1].cast<StructuralMutator>().get());
          if constexpr (Traits::kArity == 3) {
            return std::make_tuple(mutator, static_cast<InplaceMode>(args[2].cast<int64_t>()));
          } else {
            return std::make_tuple(mutator);
          }
        });
    entries.push_back(Any(Array<Any>{Any(static_cast<int64_t>(
                                         detail::StructuralCallbackTypeIndex<First>())),
                                     Any(wrapped), Any(Traits::kArity == 3)}));
  };
  (add(std::forward<Callbacks>(callbacks)), ...);
  static const Function mutate = Function::GetGlobalRequired("ffi.StructuralMutate");
  const Any rest[1] = {Any(entries)};
  return detail::CallWithOwnedRoot(mutate, std::move(root), rest, 1);
}

/*! \brief StructuralMap, with a failure (of the walk or of a callback) returned as the
 * Expected's error instead of thrown. */
template <WalkOrder order, typename... Callbacks>
Expected<Any> StructuralMapExpected(Any root, Callbacks&&... callbacks) noexcept {
  return detail::ExpectedFromCall<Any>([&] {
    return StructuralMap<order>(std::move(root), std::forward<Callbacks>(callbacks)...);
  });
}

/*! \brief StructuralMutate, with a failure returned as the Expected's error instead of thrown. */
template <typename... Callbacks>
Expected<Any> StructuralMutateExpected(Any root, Callbacks&&... callbacks) noexcept {
  return detail::ExpectedFromCall<Any>(
      [&] { return StructuralMutate(std::move(root), std::forward<Callbacks>(callbacks)...); });
}

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_STRUCTURAL_MUTATE_H_
