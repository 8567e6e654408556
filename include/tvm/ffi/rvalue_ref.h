/*
 * tvm/ffi/rvalue_ref.h -- RValueRef<TObjRef>: passes an object reference by move through an FFI
 * call, so a callee that takes it can reuse the object (copy-on-write without the copy).
 *
 * On the wire the argument is kTVMFFIObjectRValueRef whose v_ptr points at the caller's object
 * slot; a callee that accepts the object's exact type steals the slot's reference (the caller's
 * slot becomes null). A callee needing a conversion copies instead and leaves the slot alone.
 */
#ifndef TVM_FFI_RVALUE_REF_H_
#define TVM_FFI_RVALUE_REF_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

/*!
 * \brief An object reference handed over by move: `f(RValueRef(std::move(arr)))`.
 * \tparam TObjRef The ObjectRef class moved.
 */
template <typename TObjRef, typename = std::enable_if_t<std::is_base_of_v<ObjectRef, TObjRef>>>
class RValueRef {
 public:
  /*! \brief The object class behind TObjRef. */
  using ContainerType = typename TObjRef::ContainerType;
  /*! \brief Takes `data` (only from an rvalue: the caller gives it up). */
  explicit RValueRef(TObjRef&& data)
      : data_(detail::ObjectUnsafe::ObjectPtrFromOwned<Object>(
            detail::ObjectUnsafe::MoveObjectRefToTVMFFIObjectPtr(std::move(data)))) {}
  /*! \brief Gives the reference back out (once). */
  TObjRef operator*() && {
    return detail::ObjectUnsafe::ObjectRefFromObjectPtr<TObjRef>(std::move(data_));
  }

 private:
  // The slot a callee may steal from; mutable because views of a const RValueRef expose it.
  mutable ObjectPtr<Object> data_;
  template <typename, typename>
  friend struct TypeTraits;
};

// The slot is read as a TVMFFIObject* by C callees (any.c, any.h): one pointer to the header.
static_assert(sizeof(ObjectPtr<Object>) == sizeof(TVMFFIObject*),
              "an RValueRef slot must be exactly one object pointer");

template <typename TObjRef>
struct TypeTraits<RValueRef<TObjRef>> : TypeTraitsBase {
  using Self = RValueRef<TObjRef>;
  static constexpr bool storage_enabled = false;

  static void CopyToAnyView(const Self& src, TVMFFIAny* result) {
    result->type_index = TypeIndex::kTVMFFIObjectRValueRef;
    result->zero_padding = 0;
    result->v_ptr = &src.data_;
  }
  /*! \brief Storing an RValueRef stores the object itself (the reference moves in). */
  static void MoveToAny(Self src, TVMFFIAny* result) {
    TypeTraits<TObjRef>::MoveToAny(*std::move(src), result);
  }
  // Never "strict": a move must go through TryCastFromAnyView, which owns the stealing logic.
  static bool CheckAnyStrict(const TVMFFIAny*) { return false; }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    std::optional<Self> out = TryCastFromAnyView(src);
    if (!out.has_value()) detail::ThrowCastError<Self>(src);
    return *std::move(out);
  }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index != TypeIndex::kTVMFFIObjectRValueRef) {
      // A plain value: the callee gets its own reference, nothing is moved.
      if (std::optional<TObjRef> copy = TypeTraits<TObjRef>::TryCastFromAnyView(src)) {
        return Self(*std::move(copy));
      }
      return std::nullopt;
    }
    TVMFFIObject** slot = static_cast<TVMFFIObject**>(src->v_ptr);
    if (*slot == nullptr) TVM_FFI_THROW(RuntimeError) << "RValueRef already moved";
    TVMFFIAny object = SlotView(*slot);
    if (TypeTraits<TObjRef>::CheckAnyStrict(&object)) {
      TVMFFIObject* stolen = *slot;
      *slot = nullptr;
      return Self(detail::ObjectUnsafe::ObjectRefFromOwned<TObjRef>(stolen));
    }
    // Converting makes a new object; the caller keeps the original.
    if (std::optional<TObjRef> converted = TypeTraits<TObjRef>::TryCastFromAnyView(&object)) {
      return Self(*std::move(converted));
    }
    return std::nullopt;
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIObjectRValueRef) {
      TVMFFIObject* obj = *static_cast<TVMFFIObject**>(src->v_ptr);
      if (obj == nullptr) return "RValueRef<moved>";
      TVMFFIAny object = SlotView(obj);
      return "RValueRef<" + TypeTraits<TObjRef>::GetMismatchTypeInfo(&object) + ">";
    }
    return TypeTraits<TObjRef>::GetMismatchTypeInfo(src);
  }
  static std::string TypeStr() { return "RValueRef<" + TypeTraits<TObjRef>::TypeStr() + ">"; }
  static std::string TypeSchema() {
    return std::string("{\"type\":\"") + StaticTypeKey::kTVMFFIObjectRValueRef + "\",\"args\":[" +
           TypeTraits<TObjRef>::TypeSchema() + "]}";
  }

 private:
  static TVMFFIAny SlotView(TVMFFIObject* obj) {
    TVMFFIAny view;
    view.type_index = obj->type_index;
    view.zero_padding = 0;
    view.v_obj = obj;
    return view;
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_RVALUE_REF_H_
