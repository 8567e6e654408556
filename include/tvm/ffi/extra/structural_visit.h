/*
 * tvm/ffi/extra/structural_visit.h -- structural visiting from C++: VisitInterrupt, the active
 * StructuralVisitor (for `__s_visit__` hooks and visit callbacks), and StructuralWalk /
 * StructuralVisit with typed callbacks.
 *
 * Header-only over the runtime: the traversals are the runtime's (ffi.StructuralWalk,
 * ffi.StructuralVisit), the callbacks are wrapped as ffi::Function and selected by the type of
 * their first parameter (an ObjectRef class matches its subclasses; Any/AnyView matches every
 * value). A visitor's first fields are ABI (vtable at 24, def-region kind at 32), so a hook can
 * call `visitor->Visit(child)` inline on any runtime.
 *
 *   ffi::StructuralWalk<ffi::WalkOrder::kPreOrder>(root, [&](int64_t v) { sum += v; });
 *
 * The spellings of the reference headers work too: callbacks may return WalkResult::Advance(),
 * Skip() or Interrupt(signal), or an Expected<WalkResult>; visitors have VisitExpected /
 * DefaultVisitExpected; hooks register with TypeAttrDef<T>().native_fn_attr<&Fn>(
 * type_attr::kStructuralVisit) and chain with TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN.
 */
#ifndef TVM_FFI_EXTRA_STRUCTURAL_VISIT_H_
#define TVM_FFI_EXTRA_STRUCTURAL_VISIT_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/native_function.h>

#include <tuple>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

/*! \brief Whether a walk callback runs before (pre) or after (post) the value's children. */
enum class WalkOrder : int32_t { kPreOrder = 0, kPostOrder = 1 };

/*! \brief The object of ffi.VisitInterrupt: stops a traversal, carrying `value` back. */
class VisitInterruptObj : public Object {
 public:
  Any value;

  static constexpr int32_t _type_index = TypeIndex::kTVMFFIVisitInterrupt;
  static constexpr bool _type_final = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.VisitInterrupt", VisitInterruptObj, Object);
};

/*! \brief Returned by a callback or hook to stop the traversal. */
class VisitInterrupt : public ObjectRef {
 public:
  /*! \brief An interrupt carrying None. */
  VisitInterrupt() : VisitInterrupt(Any(nullptr)) {}
  explicit VisitInterrupt(Any value) : VisitInterrupt(Make(std::move(value))) {}
  /*! \brief The payload handed back to the caller. */
  const Any& value() const { return get()->value; }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(VisitInterrupt, ObjectRef, VisitInterruptObj);

 private:
  static VisitInterrupt Make(Any value) {
    static const Function make = Function::GetGlobalRequired("ffi.VisitInterrupt");
    return make(value).cast<VisitInterrupt>();
  }
};

/*! \brief What a walk callback asks for: descend into the value's children (Advance), skip
 * them (Skip; pre-order only), or stop the walk handing `signal` back (Interrupt). */
class WalkResult {
 public:
  static WalkResult Advance() { return WalkResult(kAdvanceCode); }
  static WalkResult Skip() { return WalkResult(kSkipCode); }
  static WalkResult Interrupt(VisitInterrupt signal = VisitInterrupt()) {
    WalkResult out(kInterruptCode);
    out.signal_ = std::move(signal);
    return out;
  }
  /*! \brief The spellings of earlier versions of this header (same as Advance() / Skip()). */
  static const WalkResult kAdvance;
  static const WalkResult kSkip;

  bool IsAdvance() const noexcept { return code_ == kAdvanceCode; }
  bool IsSkip() const noexcept { return code_ == kSkipCode; }
  bool IsInterrupt() const noexcept { return code_ == kInterruptCode; }
  /*! \brief The interrupt of Interrupt(); None otherwise. */
  const Optional<VisitInterrupt>& signal() const noexcept { return signal_; }
  /*! \brief What the runtime's walk takes back from a callback: 0 (advance), 1 (skip) or the
   * ffi.VisitInterrupt. */
  Any ToAny() const { return IsInterrupt() ? Any(signal_) : Any(static_cast<int64_t>(code_)); }

 private:
  enum Code : int32_t { kAdvanceCode = 0, kSkipCode = 1, kInterruptCode = 2 };
  explicit WalkResult(Code code) : code_(code) {}
  Code code_;
  Optional<VisitInterrupt> signal_;
};
inline const WalkResult WalkResult::kAdvance = WalkResult::Advance();
inline const WalkResult WalkResult::kSkip = WalkResult::Skip();

/*! \brief A WalkResult crosses the ABI as its runtime form: int 0 (advance), int 1 (skip) or
 * the ffi.VisitInterrupt (so Expected<WalkResult> and Any hold one). */
template <>
struct TypeTraits<WalkResult> : TypeTraitsBase {
  static void CopyToAnyView(const WalkResult& src, TVMFFIAny* result) {
    if (src.IsInterrupt()) {
      TypeTraits<VisitInterrupt>::CopyToAnyView(*src.signal(), result);
    } else {
      detail::SetPOD(result, TypeIndex::kTVMFFIInt, src.IsSkip() ? 1 : 0);
    }
  }
  static void MoveToAny(WalkResult src, TVMFFIAny* result) {
    if (src.IsInterrupt()) {
      TypeTraits<VisitInterrupt>::MoveToAny(*src.signal(), result);
    } else {
      detail::SetPOD(result, TypeIndex::kTVMFFIInt, src.IsSkip() ? 1 : 0);
    }
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return (src->type_index == TypeIndex::kTVMFFIInt && (src->v_int64 == 0 || src->v_int64 == 1)) ||
           src->type_index == TypeIndex::kTVMFFIVisitInterrupt;
  }
  static WalkResult CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIInt) {
      return src->v_int64 == 1 ? WalkResult::Skip() : WalkResult::Advance();
    }
    return WalkResult::Interrupt(TypeTraits<VisitInterrupt>::CopyFromAnyViewAfterCheck(src));
  }
  static std::optional<WalkResult> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    return std::nullopt;
  }
  static std::string TypeStr() { return "WalkResult"; }
  static std::string TypeSchema() {
    return R"({"type":"Variant","args":[{"type":"ffi.VisitInterrupt"},{"type":"int"}]})";
  }
};

class StructuralVisitorObj;

/*! \brief ABI of a visit entry point and of a native `__s_visit__` hook: a raw result that is
 * None (go on), an ffi.VisitInterrupt (stop) or an ffi.Error (failed), owned. */
using FStructuralVisitABI = TVMFFIAny (*)(StructuralVisitorObj* visitor, AnyView value) noexcept;

/*! \brief The dispatch table at offset 24 of every visitor. */
struct StructuralVisitorVTable {
  FStructuralVisitABI visit = nullptr;
};

/*! \brief A `__s_visit__` hook as stored in the type-attribute column: a native adapter (an
 * opaque pointer with the FStructuralVisitABI signature) or an ffi::Function. */
using FStructuralVisit =
    reflection::NativeFunctionView<Optional<VisitInterrupt>(StructuralVisitorObj*, AnyView)>;

namespace type_attr {
/*! \brief The per-type structural visit hook: visits a value's structural children itself. */
inline constexpr reflection::AttrKey<FStructuralVisit> kStructuralVisit{"__s_visit__"};
}  // namespace type_attr

namespace detail {
/*! \brief Runs callback() with *region set to `kind` (a pattern region is kept), restoring the
 * region after, also when callback throws. Shared by visitors and mutators. */
template <typename Callback>
auto CallInDefRegion(TVMFFIDefRegionKind* region, TVMFFIDefRegionKind kind, Callback&& callback)
    -> decltype(std::forward<Callback>(callback)()) {
  struct Restore {
    TVMFFIDefRegionKind* region;
    TVMFFIDefRegionKind saved;
    ~Restore() { *region = saved; }
  } restore{region, *region};
  if (*region != kTVMFFIDefRegionKindPattern) *region = kind;
  return std::forward<Callback>(callback)();
}
/*! \brief Whether a visit result stops the traversal: an interrupt, or an error. */
inline bool StructuralVisitStops(const Optional<VisitInterrupt>& result) noexcept {
  return result.has_value();
}
template <typename T>
bool StructuralVisitStops(const Expected<T>& result) noexcept {
  int32_t index = result.type_index();
  return index == TypeIndex::kTVMFFIError || index == TypeIndex::kTVMFFIVisitInterrupt;
}

/*! \brief Turns a raw visit result into an optional interrupt, throwing an error result. */
inline Optional<VisitInterrupt> DecodeVisitResult(TVMFFIAny raw) {
  if (raw.type_index == TypeIndex::kTVMFFINone) return std::nullopt;
  Any owned = AnyUnsafe::MoveTVMFFIAnyToAny(&raw);
  if (owned.type_index() == TypeIndex::kTVMFFIError) throw owned.cast<Error>();
  return owned.cast<VisitInterrupt>();
}
}  // namespace detail

/*! \brief The active traversal: what hooks and visit callbacks use to visit children. */
class StructuralVisitorObj : public Object {
 public:
  /*! \brief Visits `value` with the traversal's callbacks; an interrupt means "stop". */
  Optional<VisitInterrupt> Visit(AnyView value) {
    return detail::DecodeVisitResult(vtable_->visit(this, value));
  }
  /*! \brief Visit(), with a failure returned as the Expected's error instead of thrown. */
  Expected<Optional<VisitInterrupt>> VisitExpected(AnyView value) noexcept {
    return detail::ExpectedUnsafe::MoveFromTVMFFIAny<Optional<VisitInterrupt>>(
        vtable_->visit(this, value));
  }
  /*! \brief Visits the children of `value` (its hook, or its items/fields) only. */
  Optional<VisitInterrupt> DefaultVisit(AnyView value) {
    static const Function fn = Function::GetGlobalRequired("ffi.StructuralVisitorDefaultVisit");
    return fn(GetRef<ObjectRef>(this), value).cast<Optional<VisitInterrupt>>();
  }
  /*! \brief DefaultVisit(), with a failure returned as the Expected's error. */
  Expected<Optional<VisitInterrupt>> DefaultVisitExpected(AnyView value) noexcept {
    return detail::ExpectedFromCall<Optional<VisitInterrupt>>([&] { return DefaultVisit(value); });
  }
  /*! \brief The def region the current value is visited in. */
  TVMFFIDefRegionKind def_region_kind() const { return def_region_mode_; }
  /*! \brief Runs callback() inside region `kind` (a pattern region is kept), then restores. */
  template <typename Callback>
  auto WithDefRegionKind(TVMFFIDefRegionKind kind, Callback&& callback)
      -> decltype(std::forward<Callback>(callback)()) {
    return detail::CallInDefRegion(&def_region_mode_, kind, std::forward<Callback>(callback));
  }

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.StructuralVisitor", StructuralVisitorObj, Object);

 protected:
  StructuralVisitorObj() = default;
  /*! \brief A visitor of one's own: `vtable->visit` is what Visit() calls (must outlive it). */
  explicit StructuralVisitorObj(const StructuralVisitorVTable* vtable) : vtable_(vtable) {}

  const StructuralVisitorVTable* vtable_ = nullptr;
  TVMFFIDefRegionKind def_region_mode_ = kTVMFFIDefRegionKindNone;
};

/*! \brief Reference to the active StructuralVisitorObj. */
class StructuralVisitor : public ObjectRef {
 public:
  explicit StructuralVisitor(ObjectPtr<StructuralVisitorObj> n) : ObjectRef(std::move(n)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StructuralVisitor, ObjectRef, StructuralVisitorObj);
};

/*!
 * \brief In a hook or visit callback returning Expected<Optional<VisitInterrupt>>: evaluates
 * `result` (an Expected<...> or Optional<VisitInterrupt>) and returns it at once when it holds
 * an error or an interrupt.
 */
#define TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN(result)                             \
  do {                                                                         \
    auto tvm_ffi_s_visit_result_ = (result);                                   \
    if (::tvm::ffi::detail::StructuralVisitStops(tvm_ffi_s_visit_result_)) {   \
      return tvm_ffi_s_visit_result_;                                          \
    }                                                                          \
  } while (0)

namespace detail {

/*! \brief Parameter and result types of a callback (lambda, function or function pointer). */
template <typename F>
struct StructuralCallbackTraits : StructuralCallbackTraits<decltype(&F::operator())> {};
template <typename R, typename... A>
struct StructuralCallbackTraits<R(A...)> {
  using Result = R;
  using Args = std::tuple<std::decay_t<A>...>;
  static constexpr size_t kArity = sizeof...(A);
};
template <typename R, typename... A>
struct StructuralCallbackTraits<R (*)(A...)> : StructuralCallbackTraits<R(A...)> {};
template <typename C, typename R, typename... A>
struct StructuralCallbackTraits<R (C::*)(A...) const> : StructuralCallbackTraits<R(A...)> {};
template <typename C, typename R, typename... A>
struct StructuralCallbackTraits<R (C::*)(A...)> : StructuralCallbackTraits<R(A...)> {};

template <typename T>
inline constexpr bool kStructuralAlwaysFalse = false;

/*! \brief The type index a callback whose first parameter is T selects (-1: every value). */
template <typename T>
int32_t StructuralCallbackTypeIndex() {
  if constexpr (std::is_same_v<T, Any> || std::is_same_v<T, AnyView>) {
    return -1;
  } else if constexpr (std::is_base_of_v<ObjectRef, T>) {
    return T::ContainerType::RuntimeTypeIndex();
  } else if constexpr (std::is_pointer_v<T> &&
                       std::is_base_of_v<Object, std::remove_cv_t<std::remove_pointer_t<T>>>) {
    return std::remove_cv_t<std::remove_pointer_t<T>>::RuntimeTypeIndex();
  } else if constexpr (std::is_same_v<T, String>) {
    return TypeIndex::kTVMFFIStr;  // small strings too: the runtime matches both kinds
  } else if constexpr (std::is_same_v<T, Bytes>) {
    return TypeIndex::kTVMFFIBytes;
  } else if constexpr (std::is_same_v<T, bool>) {
    return TypeIndex::kTVMFFIBool;
  } else if constexpr (std::is_integral_v<T>) {
    return TypeIndex::kTVMFFIInt;
  } else if constexpr (std::is_floating_point_v<T>) {
    return TypeIndex::kTVMFFIFloat;
  } else {
    static_assert(kStructuralAlwaysFalse<T>,
                  "a structural callback's first parameter must be Any, AnyView, an ObjectRef "
                  "class, a pointer to an object class, String, Bytes, bool, an integer or a "
                  "floating-point type");
    return -1;
  }
}

/*! \brief The selected value as the callback's first parameter type T. */
template <typename T>
T StructuralCallbackArg(const AnyView& value) {
  if constexpr (std::is_pointer_v<T>) {
    return value.as<std::remove_cv_t<std::remove_pointer_t<T>>>();
  } else {
    return value.cast<T>();
  }
}

/*! \brief Converts a walk callback result (void, WalkResult, Optional<VisitInterrupt>, or an
 * Expected of one, whose error is thrown). */
template <typename R>
Any WalkCallbackResult(R&& result) {
  using T = std::decay_t<R>;
  if constexpr (is_expected_v<T>) {
    return WalkCallbackResult(std::forward<R>(result).value());
  } else if constexpr (std::is_same_v<T, WalkResult>) {
    return result.ToAny();
  } else {
    return Any(std::forward<R>(result));
  }
}

/*! \brief Wraps `callback` as an ffi::Function; the first argument is cast to its parameter
 * type, `convert_rest(args)` supplies the others, and the result becomes an Any. */
template <typename F, typename Convert>
Function WrapStructuralCallback(F callback, Convert convert_rest) {
  using Traits = StructuralCallbackTraits<std::decay_t<F>>;
  using First = std::tuple_element_t<0, typename Traits::Args>;
  return Function::FromPacked([callback = std::move(callback), convert_rest](
                                  const AnyView* args, int32_t num_args, Any* rv) {
    (void)num_args;
    auto call = [&](auto&&... rest) {
      return callback(StructuralCallbackArg<First>(args[0]), rest...);
    };
    if constexpr (std::is_void_v<typename Traits::Result>) {
      std::apply(call, convert_rest(args));
    } else {
      *rv = WalkCallbackResult(std::apply(call, convert_rest(args)));
    }
  });
}

/*! \brief The entry array the runtime takes: (type_index, function[, extra]) tuples. */
inline Array<Any> StructuralEntry(int32_t type_index, Function fn) {
  return Array<Any>{Any(static_cast<int64_t>(type_index)), Any(std::move(fn))};
}

}  // namespace detail

/*!
 * \brief Calls the first matching callback on every value reachable from `root`.
 *
 * A callback takes `(T value)` or `(T value, TVMFFIDefRegionKind kind)` and returns void,
 * WalkResult (Skip() prunes a pre-order value's children, Interrupt(signal) stops the walk),
 * Optional<VisitInterrupt> (an interrupt stops the walk and is returned), or an Expected of
 * either (its error fails the walk). Callbacks are tried in order.
 */
template <WalkOrder order, typename... Callbacks>
Optional<VisitInterrupt> StructuralWalk(AnyView root, Callbacks&&... callbacks) {
  static_assert(sizeof...(Callbacks) != 0, "StructuralWalk requires at least one callback");
  Array<Any> plain, regional;
  auto add = [&](auto&& callback) {
    using F = std::decay_t<decltype(callback)>;
    using Traits = detail::StructuralCallbackTraits<F>;
    using First = std::tuple_element_t<0, typename Traits::Args>;
    int32_t index = detail::StructuralCallbackTypeIndex<First>();
    F fn = std::forward<decltype(callback)>(callback);
    Function wrapped = Function::FromPacked([fn](const AnyView* args, int32_t, Any* rv) {
      First value = detail::StructuralCallbackArg<First>(args[0]);
      if constexpr (Traits::kArity == 2) {
        auto kind = static_cast<TVMFFIDefRegionKind>(args[1].cast<int64_t>());
        if constexpr (std::is_void_v<typename Traits::Result>) {
          fn(std::move(value), kind);
        } else {
          *rv = detail::WalkCallbackResult(fn(std::move(value), kind));
        }
      } else if constexpr (std::is_void_v<typename Traits::Result>) {
        fn(std::move(value));
      } else {
        *rv = detail::WalkCallbackResult(fn(std::move(value)));
      }
    });
    Array<Any>& list = Traits::kArity == 2 ? regional : plain;
    list.push_back(Any(detail::StructuralEntry(index, std::move(wrapped))));
  };
  (add(std::forward<Callbacks>(callbacks)), ...);
  static const Function walk = Function::GetGlobalRequired("ffi.StructuralWalk");
  // Named first: nvcc's front end reads `walk(...).cast<...>` in a template as a comparison.
  Any result = walk(root, plain, regional, static_cast<int64_t>(order));
  return result.cast<Optional<VisitInterrupt>>();
}

/*! \brief StructuralWalk, with a failure (a callback's error or throw) returned as the error. */
template <WalkOrder order, typename... Callbacks>
Expected<Optional<VisitInterrupt>> StructuralWalkExpected(AnyView root,
                                                          Callbacks&&... callbacks) noexcept {
  return detail::ExpectedFromCall<Optional<VisitInterrupt>>(
      [&] { return StructuralWalk<order>(root, std::forward<Callbacks>(callbacks)...); });
}

/*!
 * \brief Visits `root` with callbacks that own the descent into the values they match.
 *
 * A callback takes `(T value, StructuralVisitorObj* visitor)`, visits the children it wants
 * (`visitor->Visit(child)` / `visitor->DefaultVisit(value)`) and returns
 * Optional<VisitInterrupt> (or void). Unmatched values descend by default.
 */
template <typename... Callbacks>
Optional<VisitInterrupt> StructuralVisit(AnyView root, Callbacks&&... callbacks) {
  static_assert(sizeof...(Callbacks) != 0, "StructuralVisit requires at least one callback");
  Array<Any> entries;
  auto add = [&](auto&& callback) {
    using F = std::decay_t<decltype(callback)>;
    using Traits = detail::StructuralCallbackTraits<F>;
    using First = std::tuple_element_t<0, typename Traits::Args>;
    Function wrapped = detail::WrapStructuralCallback(
        F(std::forward<decltype(callback)>(callback)), [](const AnyView* args) {
          return std::make_tuple(const_cast<StructuralVisitorObj*>(
              args[1].cast<StructuralVisitor>().get()));
        });
    entries.push_back(
        Any(detail::StructuralEntry(detail::StructuralCallbackTypeIndex<First>(), wrapped)));
  };
  (add(std::forward<Callbacks>(callbacks)), ...);
  static const Function visit = Function::GetGlobalRequired("ffi.StructuralVisit");
  return visit(root, entries).cast<Optional<VisitInterrupt>>();
}

/*! \brief StructuralVisit, with a failure returned as the Expected's error. */
template <typename... Callbacks>
Expected<Optional<VisitInterrupt>> StructuralVisitExpected(AnyView root,
                                                           Callbacks&&... callbacks) noexcept {
  return detail::ExpectedFromCall<Optional<VisitInterrupt>>(
      [&] { return StructuralVisit(root, std::forward<Callbacks>(callbacks)...); });
}

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_STRUCTURAL_VISIT_H_
