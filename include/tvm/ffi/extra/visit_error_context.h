/*
 * tvm/ffi/extra/visit_error_context.h -- where in an object graph an error happened.
 *
 * A recursive visit wraps each node's work in TVM_FFI_VISIT_BEGIN() / TVM_FFI_VISIT_END(node)
 * and reports problems with TVM_FFI_VISIT_THROW(Kind, node). The thrown Error carries a
 * VisitErrorContext (its extra_context) listing the nodes the error passed through, innermost
 * first; the handler at the root turns it into access paths ("<root>.body[2].cond") with
 * VisitErrorContext::FindAccessPaths.
 */
#ifndef TVM_FFI_EXTRA_VISIT_ERROR_CONTEXT_H_
#define TVM_FFI_EXTRA_VISIT_ERROR_CONTEXT_H_

#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/access_path.h>

#include <optional>
#include <string>
#include <utility>

namespace tvm {
namespace ffi {

/*! \brief The ffi.VisitErrorContext object. */
class VisitErrorContextObj : public Object {
 public:
  /*! \brief The nodes the error passed through, innermost first (those that were recorded). */
  List<ObjectRef> reverse_visit_pattern;
  /*! \brief The error's extra_context before this object replaced it. */
  Optional<ObjectRef> prev_error_context;

  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.VisitErrorContext", VisitErrorContextObj, Object);
};

/*! \brief Reference to a VisitErrorContextObj: the visit record an Error carries. */
class VisitErrorContext : public ObjectRef {
 public:
  /*!
   * \brief The visit record attached to an error.
   * \param err The error.
   * \return Its VisitErrorContext, or nullopt when it has none.
   */
  TVM_FFI_COLD_CODE static Optional<VisitErrorContext> TryGetFromError(const Error& err) {
    std::optional<ObjectRef> extra = err.extra_context();
    if (!extra.has_value() || extra->as<VisitErrorContextObj>() == nullptr) return std::nullopt;
    return GetRef<VisitErrorContext>(extra->as<VisitErrorContextObj>());
  }

  /*!
   * \brief The paths from `root` that pass through the recorded nodes, outermost to innermost.
   * \param root Where the visit started.
   * \param visit_context The record.
   * \param allow_prefix_match Also report paths that matched only the outer part of the
   *        record (ending at the deepest matched node).
   * \return The matching paths, each ending at the innermost matched node.
   */
  TVM_FFI_COLD_CODE TVM_FFI_EXTRA_CXX_API static Array<reflection::AccessPath> FindAccessPaths(
      const ObjectRef& root, const VisitErrorContext& visit_context, bool allow_prefix_match = false);

  explicit VisitErrorContext(ObjectPtr<VisitErrorContextObj> n) : ObjectRef(std::move(n)) {
    TVM_FFI_ICHECK(data_ != nullptr);
  }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(VisitErrorContext, ObjectRef, VisitErrorContextObj);
};

namespace detail {

/*! \brief A fresh record that starts at `node`. */
TVM_FFI_COLD_CODE inline VisitErrorContext MakeVisitErrorContext(const ObjectRef& node) {
  ObjectPtr<VisitErrorContextObj> obj = make_object<VisitErrorContextObj>();
  obj->reverse_visit_pattern = List<ObjectRef>{node};
  return VisitErrorContext(std::move(obj));
}

/*! \brief Appends `node` to the error's record, attaching a new record when it has none. */
TVM_FFI_COLD_CODE inline void UpdateVisitErrorContext(Error& err, const ObjectRef& node) {  // NOLINT(*)
  std::optional<ObjectRef> extra = err.extra_context();
  if (extra.has_value()) {
    if (const VisitErrorContextObj* record = extra->as<VisitErrorContextObj>()) {
      const_cast<VisitErrorContextObj*>(record)->reverse_visit_pattern.push_back(node);
      return;
    }
  }
  ObjectPtr<VisitErrorContextObj> record = make_object<VisitErrorContextObj>();
  record->reverse_visit_pattern = List<ObjectRef>{node};
  if (extra.has_value()) record->prev_error_context = *extra;
  // The error object is shared by every copy of `err`: replace its extra_context in place.
  TVMFFIErrorCell* cell = reinterpret_cast<TVMFFIErrorCell*>(
      reinterpret_cast<char*>(ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(err)) + sizeof(TVMFFIObject));
  if (cell->extra_context != nullptr) ObjectUnsafe::DecRefObjectHandle(cell->extra_context);
  cell->extra_context = ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(record));
}

/*! \brief UpdateVisitErrorContext for a node given as a view; non-objects are not recorded. */
TVM_FFI_COLD_CODE inline void UpdateVisitErrorContext(Error& err, AnyView node) noexcept {  // NOLINT(*)
  if (node.type_index() >= TypeIndex::kTVMFFIStaticObjectBegin) {
    UpdateVisitErrorContext(err, node.cast<ObjectRef>());
  }
}

/*! \brief UpdateVisitErrorContext for an error held in a call result. */
TVM_FFI_COLD_CODE inline void UpdateVisitErrorContext(const TVMFFIAny& result, AnyView node) noexcept {
  if (node.type_index() >= TypeIndex::kTVMFFIStaticObjectBegin) {
    Error err = AnyView::CopyFromTVMFFIAny(result).cast<Error>();
    UpdateVisitErrorContext(err, node.cast<ObjectRef>());
  }
}

}  // namespace detail

/*! \brief Opens the region whose errors record the node given to TVM_FFI_VISIT_END. */
#define TVM_FFI_VISIT_BEGIN() try {
/*! \brief Closes TVM_FFI_VISIT_BEGIN: an Error passing through records `node` and goes on. */
#define TVM_FFI_VISIT_END(node)                                               \
  }                                                                           \
  catch (::tvm::ffi::Error & _tvm_ffi_visit_err_) {                           \
    ::tvm::ffi::detail::UpdateVisitErrorContext(_tvm_ffi_visit_err_, (node)); \
    throw;                                                                    \
  }
/*! \brief Closes TVM_FFI_VISIT_BEGIN in a function returning an Expected: an Error passing
 * through records `node` and is returned as the Expected's error instead of thrown on. */
#define TVM_FFI_VISIT_END_RETURN_EXPECTED(node)                               \
  }                                                                           \
  catch (::tvm::ffi::Error & _tvm_ffi_visit_err_) {                           \
    ::tvm::ffi::detail::UpdateVisitErrorContext(_tvm_ffi_visit_err_, (node)); \
    return ::tvm::ffi::Unexpected(_tvm_ffi_visit_err_);                       \
  }
/*! \brief Throws an Error of `ErrorKind` (message streamed after it) whose record starts at `node`. */
#define TVM_FFI_VISIT_THROW(ErrorKind, node)                                                    \
  ::tvm::ffi::detail::ErrorBuilder(                                                             \
      #ErrorKind, TVMFFIBacktrace(__FILE__, __LINE__, TVM_FFI_FUNC_SIG, 0),                     \
      TVM_FFI_ALWAYS_LOG_BEFORE_THROW, ::std::nullopt,                                          \
      ::std::optional<::tvm::ffi::ObjectRef>(                                                   \
          ::tvm::ffi::detail::MakeVisitErrorContext(::tvm::ffi::ObjectRef(node))))              \
      .stream()

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_VISIT_ERROR_CONTEXT_H_
