/*
 * tvm/ffi/extra/unchanged_or.h -- UnchangedOr<T>: the result of a structural mutation, either
 * a new T or the marker "nothing changed" (Unchanged), which lets a rewrite return its input
 * without building or even naming it.
 *
 * In the ABI the marker is a TVMFFIAny of type index kTVMFFIUnchanged (13) and no payload, so
 * an UnchangedOr<T> is one Any; Expected<UnchangedOr<T>> adds the Error alternative, which is
 * the raw result of `__s_mutate__` hooks and mutator vtable entries (structural_mutate.h).
 *
 *   UnchangedOr<Any> r = mutator->Mutate(child);
 *   Any child2 = std::move(r).ValueOrUnchanged(child);
 */
#ifndef TVM_FFI_EXTRA_UNCHANGED_OR_H_
#define TVM_FFI_EXTRA_UNCHANGED_OR_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>

#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

/*! \brief The "nothing changed" result of a mutation. */
struct Unchanged {
  TVMFFIAny CopyToTVMFFIAny() const noexcept {
    TVMFFIAny raw;
    detail::SetPOD(&raw, TypeIndex::kTVMFFIUnchanged, 0);
    return raw;
  }
  operator Any() const noexcept {  // NOLINT(google-explicit-constructor)
    TVMFFIAny raw = CopyToTVMFFIAny();
    return detail::AnyUnsafe::MoveTVMFFIAnyToAny(&raw);
  }
};

template <typename T>
class UnchangedOr;

namespace detail {
template <typename T>
inline constexpr bool is_unchanged_or_v = false;
template <typename T>
inline constexpr bool is_unchanged_or_v<UnchangedOr<T>> = true;
}  // namespace detail

/*! \brief A new T, or Unchanged. */
template <typename T>
class UnchangedOr {
 public:
  static_assert(!std::is_base_of_v<Error, std::remove_cv_t<T>>, "UnchangedOr<Error> is not supported");

  UnchangedOr(Unchanged unchanged) noexcept : data_(unchanged) {}  // NOLINT(*)
  UnchangedOr(T value) : data_(Any(std::move(value))) {}          // NOLINT(*)
  /*! \brief A value convertible to T (not another UnchangedOr, Expected or error). */
  template <typename U, typename = std::enable_if_t<!std::is_same_v<std::decay_t<U>, Unchanged> &&
                                                    !detail::is_unchanged_or_v<std::decay_t<U>> &&
                                                    !detail::is_expected_v<std::decay_t<U>> &&
                                                    !detail::is_unexpected_v<std::decay_t<U>> &&
                                                    !std::is_base_of_v<Error, std::decay_t<U>> &&
                                                    !std::is_same_v<std::decay_t<U>, T> &&
                                                    std::is_convertible_v<U, T>>>
  UnchangedOr(U&& value) : data_(Any(T(std::forward<U>(value)))) {}  // NOLINT(*)
  /*! \brief From an UnchangedOr of a narrower (or convertible) type: the marker stays. */
  template <typename U, typename = std::enable_if_t<!std::is_same_v<U, T> &&
                                                    (type_subsumes_v<T, U> ||
                                                     std::is_convertible_v<U, T>)>>
  UnchangedOr(UnchangedOr<U> other)  // NOLINT(google-explicit-constructor)
      : data_(other.IsUnchanged() || type_subsumes_v<T, U>
                  ? std::move(other.data_)
                  : Any(T(std::move(other).ValueUnchecked()))) {}

  /*! \brief Whether this is the marker. */
  bool IsUnchanged() const noexcept { return data_.type_index() == TypeIndex::kTVMFFIUnchanged; }
  /*! \brief The marker, or a value that is `original` itself (same object or same bits). */
  bool UnchangedOrSameAs(const T& original) const noexcept {
    return IsUnchanged() || data_.same_as(Any(original));
  }
  /*! \brief The new value, or `original` for the marker. */
  T ValueOrUnchanged(const T& original) && {
    return IsUnchanged() ? original : std::move(*this).ValueUnchecked();
  }
  T ValueOrUnchanged(T&& original) && {
    return IsUnchanged() ? std::move(original) : std::move(*this).ValueUnchecked();
  }
  /*! \brief For UnchangedOr<Any>: the new value, or the viewed original (then owned). */
  template <typename U = T, typename = std::enable_if_t<std::is_same_v<U, Any>>>
  Any ValueOrUnchanged(AnyView original) && {
    return IsUnchanged() ? Any(original) : std::move(data_);
  }
  /*! \brief The new value; only for a result known not to be the marker. */
  T ValueUnchecked() && {
    if constexpr (std::is_same_v<T, Any>) {
      return std::move(data_);
    } else {
      return std::move(data_).template cast<T>();
    }
  }
  /*! \brief The new value as exactly a U, or nullopt (also for the marker). */
  template <typename U>
  std::optional<U> as() && {
    if (IsUnchanged()) return std::nullopt;
    if constexpr (std::is_same_v<U, Any>) {
      return std::optional<U>(std::move(data_));
    } else {
      return std::move(data_).template as<U>();
    }
  }
  /*! \brief The new value as exactly a U; TypeError "Cannot treat type ..." otherwise. */
  template <typename U>
  U as_or_throw() && {
    return std::move(data_).template as_or_throw<U>();
  }

 private:
  struct UnsafeInit {};
  UnchangedOr(UnsafeInit, Any data) noexcept : data_(std::move(data)) {}

  template <typename>
  friend class UnchangedOr;
  template <typename, typename>
  friend struct TypeTraits;

  Any data_;
};

/*! \brief An UnchangedOr<T> crosses the ABI as the T or the marker (type index 13). */
template <typename T>
struct TypeTraits<UnchangedOr<T>> : TypeTraitsBase {
  static void CopyToAnyView(const UnchangedOr<T>& src, TVMFFIAny* result) {
    *result = src.data_.CopyToTVMFFIAny();  // a view: no reference taken
  }
  static void MoveToAny(UnchangedOr<T> src, TVMFFIAny* result) {
    *result = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(src.data_));
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    if constexpr (std::is_same_v<T, Any>) {
      return src->type_index != TypeIndex::kTVMFFIError;
    } else {
      return src->type_index == TypeIndex::kTVMFFIUnchanged || TypeTraits<T>::CheckAnyStrict(src);
    }
  }
  static UnchangedOr<T> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIUnchanged) return Unchanged();
    if constexpr (std::is_same_v<T, Any>) {
      return UnchangedOr<T>(Any(AnyView::CopyFromTVMFFIAny(*src)));
    } else {
      return UnchangedOr<T>(TypeTraits<T>::CopyFromAnyViewAfterCheck(src));
    }
  }
  static UnchangedOr<T> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return UnchangedOr<T>(typename UnchangedOr<T>::UnsafeInit{},
                          detail::AnyUnsafe::MoveTVMFFIAnyToAny(src));
  }
  static std::optional<UnchangedOr<T>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    return std::nullopt;
  }
  static std::string TypeStr() { return "UnchangedOr<" + TypeTraitsNoCR<T>::TypeStr() + ">"; }
  static std::string TypeSchema() {
    return R"({"type":"UnchangedOr","args":[)" + TypeTraitsNoCR<T>::TypeSchema() + "]}";
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_UNCHANGED_OR_H_
