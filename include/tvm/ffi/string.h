/*
 * tvm/ffi/string.h -- String and Bytes: 16-byte values that hold up to 7 bytes inline (the
 * kTVMFFISmallStr/kTVMFFISmallBytes encoding) and longer contents in a NUL-terminated
 * ffi.String/ffi.Bytes object, so a String field or argument is exactly one TVMFFIAny.
 */
#ifndef TVM_FFI_STRING_H_
#define TVM_FFI_STRING_H_

#include <tvm/ffi/memory.h>
#include <tvm/ffi/type_traits.h>

#include <cstring>
#include <string>
#include <string_view>

namespace tvm {
namespace ffi {

/*! \brief Heap string object: header, then {data, size}; the bytes follow at +40. */
class StringObj : public Object, public TVMFFIByteArray {
 public:
  StringObj() : TVMFFIByteArray{nullptr, 0} {}
  static constexpr int32_t _type_index = TypeIndex::kTVMFFIStr;
  static constexpr int32_t _type_child_slots = 0;
  static constexpr bool _type_child_slots_can_overflow = false;
  static constexpr bool _type_final = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIStr, StringObj, Object);
};

/*! \brief Heap bytes object, same layout as StringObj. */
class BytesObj : public Object, public TVMFFIByteArray {
 public:
  BytesObj() : TVMFFIByteArray{nullptr, 0} {}
  static constexpr int32_t _type_index = TypeIndex::kTVMFFIBytes;
  static constexpr int32_t _type_child_slots = 0;
  static constexpr bool _type_child_slots_can_overflow = false;
  static constexpr bool _type_final = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIBytes, BytesObj, Object);
};

namespace detail {

/*! \brief Shared storage of String and Bytes: one TVMFFIAny, small or an object reference. */
template <int32_t kSmallIndex, typename TObj>
class BytesBase {
 public:
  static constexpr size_t kMaxSmallSize = sizeof(int64_t) - 1;

  BytesBase() noexcept { InitSmall(nullptr, 0); }
  BytesBase(const char* data, size_t size) { Init(data, size); }
  /*! \brief Always a heap object, whatever the size (what a moved-in std::string becomes). */
  struct HeapTag {};
  BytesBase(const char* data, size_t size, HeapTag) { InitObject(data, size); }
  BytesBase(const BytesBase& other) noexcept : data_(other.data_) {
    if (IsObject()) ObjectIncRef(data_.v_obj);
  }
  BytesBase(BytesBase&& other) noexcept : data_(other.data_) { other.InitSmall(nullptr, 0); }
  BytesBase& operator=(const BytesBase& other) noexcept {
    BytesBase copy(other);
    std::swap(data_, copy.data_);
    return *this;
  }
  BytesBase& operator=(BytesBase&& other) noexcept {
    std::swap(data_, other.data_);
    return *this;
  }
  ~BytesBase() {
    if (IsObject()) ObjectDecRef(data_.v_obj);
  }

  const char* data() const noexcept {
    return IsObject() ? Cell()->data : data_.v_bytes;
  }
  size_t size() const noexcept { return IsObject() ? Cell()->size : data_.small_str_len; }
  size_t length() const noexcept { return size(); }
  bool empty() const noexcept { return size() == 0; }
  const char* c_str() const noexcept { return data(); }
  char at(size_t i) const {
    if (i >= size()) {
      TVM_FFI_THROW(IndexError) << "index " << i << " out of range for size " << size();
    }
    return data()[i];
  }
  operator std::string() const { return std::string(data(), size()); }  // NOLINT
  operator std::string_view() const noexcept {                           // NOLINT
    return std::string_view(data(), size());
  }
  int compare(std::string_view other) const noexcept {
    return std::string_view(data(), size()).compare(other);
  }
  /*! \brief The underlying Any cell (borrowed). */
  const TVMFFIAny& raw() const noexcept { return data_; }

  /*! \brief Adopts an owned small/object Any of the right kind. */
  static BytesBase FromOwnedAny(const TVMFFIAny& any) noexcept {
    BytesBase out;
    out.data_ = any;
    return out;
  }
  /*! \brief Copies the content of a small/object view. */
  static BytesBase CopyFromView(const TVMFFIAny* any) noexcept {
    BytesBase out;
    out.data_ = *any;
    if (out.IsObject()) ObjectIncRef(out.data_.v_obj);
    return out;
  }
  /*! \brief Moves the value out as an owned Any. */
  TVMFFIAny MoveToTVMFFIAny() noexcept {
    TVMFFIAny out = data_;
    InitSmall(nullptr, 0);
    return out;
  }

 protected:
  bool IsObject() const noexcept { return data_.type_index >= TypeIndex::kTVMFFIStaticObjectBegin; }
  const TVMFFIByteArray* Cell() const noexcept {
    return static_cast<const TVMFFIByteArray*>(
        static_cast<const TObj*>(reinterpret_cast<const Object*>(data_.v_obj)));
  }
  void InitSmall(const char* src, size_t size) noexcept {
    data_.type_index = kSmallIndex;
    data_.small_str_len = static_cast<uint32_t>(size);
    data_.v_int64 = 0;
    if (size != 0) std::memcpy(data_.v_bytes, src, size);
  }
  void Init(const char* src, size_t size) {
    if (size <= kMaxSmallSize) return InitSmall(src, size);
    InitObject(src, size);
  }
  void InitObject(const char* src, size_t size) {
    ObjectPtr<TObj> obj = make_inplace_array_object<TObj, char>(size + 1);
    char* tail = reinterpret_cast<char*>(obj.get()) + sizeof(TObj);
    std::memcpy(tail, src, size);
    tail[size] = '\0';
    obj->data = tail;
    obj->size = size;
    data_.type_index = TObj::_type_index;
    data_.zero_padding = 0;
    data_.v_obj = ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(obj));
  }
  TVMFFIAny data_;
};
}  // namespace detail

/*! \brief An immutable UTF-8 string value. */
class String : public detail::BytesBase<TypeIndex::kTVMFFISmallStr, StringObj> {
  using Base = detail::BytesBase<TypeIndex::kTVMFFISmallStr, StringObj>;

 public:
  String() = default;
  String(const char* s) : Base(s, std::strlen(s)) {}                   // NOLINT
  String(const char* s, size_t size) : Base(s, size) {}
  String(const std::string& s) : Base(s.data(), s.size()) {}           // NOLINT
  // A moved-in std::string becomes a heap object even when short, as in the reference, so
  // results built from one reach Python as tvm_ffi.core.String there and here alike.
  String(std::string&& s) : Base(s.data(), s.size(), HeapTag{}) {}     // NOLINT
  String(std::string_view s) : Base(s.data(), s.size()) {}             // NOLINT
  String(Base&& base) noexcept : Base(std::move(base)) {}             // NOLINT
  String(std::nullptr_t) = delete;
  String& operator=(const char* s) { return *this = String(s); }
  String& operator=(const std::string& s) { return *this = String(s); }
  String(const String&) = default;
  String(String&&) = default;
  String& operator=(const String&) = default;
  String& operator=(String&&) = default;
  using ContainerType = StringObj;
};

/*! \brief An immutable byte string value. */
class Bytes : public detail::BytesBase<TypeIndex::kTVMFFISmallBytes, BytesObj> {
  using Base = detail::BytesBase<TypeIndex::kTVMFFISmallBytes, BytesObj>;

 public:
  Bytes() = default;
  Bytes(const char* data, size_t size) : Base(data, size) {}
  Bytes(const std::string& s) : Base(s.data(), s.size()) {}  // NOLINT
  Bytes(std::string&& s) : Base(s.data(), s.size(), HeapTag{}) {}  // NOLINT
  Bytes(std::string_view s) : Base(s.data(), s.size()) {}    // NOLINT
  Bytes(Base&& base) noexcept : Base(std::move(base)) {}    // NOLINT
  Bytes(const Bytes&) = default;
  Bytes(Bytes&&) = default;
  Bytes& operator=(const Bytes&) = default;
  Bytes& operator=(Bytes&&) = default;
  using ContainerType = BytesObj;
};

inline bool operator==(const String& a, const String& b) noexcept {
  return a.compare(std::string_view(b)) == 0;
}
inline bool operator!=(const String& a, const String& b) noexcept { return !(a == b); }
inline bool operator<(const String& a, const String& b) noexcept {
  return a.compare(std::string_view(b)) < 0;
}
inline bool operator>(const String& a, const String& b) noexcept { return b < a; }
inline bool operator<=(const String& a, const String& b) noexcept { return !(b < a); }
inline bool operator>=(const String& a, const String& b) noexcept { return !(a < b); }
inline bool operator==(const String& a, const char* b) { return a.compare(std::string_view(b)) == 0; }
inline bool operator==(const char* a, const String& b) { return b == a; }
inline bool operator!=(const String& a, const char* b) { return !(a == b); }
inline bool operator!=(const char* a, const String& b) { return !(b == a); }
inline bool operator==(const String& a, const std::string& b) {
  return a.compare(std::string_view(b)) == 0;
}
inline bool operator==(const std::string& a, const String& b) { return b == a; }
inline bool operator!=(const String& a, const std::string& b) { return !(a == b); }
inline bool operator!=(const std::string& a, const String& b) { return !(b == a); }
inline bool operator==(const Bytes& a, const Bytes& b) noexcept {
  return a.compare(std::string_view(b)) == 0;
}
inline bool operator!=(const Bytes& a, const Bytes& b) noexcept { return !(a == b); }

inline String operator+(const String& a, const String& b) {
  std::string out(a);
  out.append(b.data(), b.size());
  return String(out);
}
inline String operator+(const String& a, const char* b) { return a + String(b); }
inline String operator+(const char* a, const String& b) { return String(a) + b; }
inline String operator+(const String& a, const std::string& b) { return a + String(b); }
inline String operator+(const std::string& a, const String& b) { return String(a) + b; }

/*! \brief `std::cout << s` (a template so that this header does not need <ostream>). */
template <typename Char, typename Traits>
std::basic_ostream<Char, Traits>& operator<<(std::basic_ostream<Char, Traits>& os, const String& s) {
  return os << std::string_view(s);
}

namespace detail {
inline MessageStream& operator<<(MessageStream& os, const String& s) {
  return os << std::string_view(s);
}
template <int32_t kSmallIndex, typename TObj>
struct BytesTraitsBase : TypeTraitsBase {
  static constexpr int32_t kObjIndex = TObj::_type_index;
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    return s->type_index == kSmallIndex || s->type_index == kObjIndex;
  }
};
}  // namespace detail

template <>
struct TypeTraits<String>
    : detail::BytesTraitsBase<TypeIndex::kTVMFFISmallStr, StringObj> {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIStr;
  static void CopyToAnyView(const String& v, TVMFFIAny* r) { *r = v.raw(); }
  static void MoveToAny(String v, TVMFFIAny* r) { *r = v.MoveToTVMFFIAny(); }
  static String CopyFromAnyViewAfterCheck(const TVMFFIAny* s) { return String::CopyFromView(s); }
  static std::optional<String> TryCastFromAnyView(const TVMFFIAny* s) {
    if (CheckAnyStrict(s)) return CopyFromAnyViewAfterCheck(s);
    if (s->type_index == TypeIndex::kTVMFFIRawStr) return String(s->v_c_str);
    return std::nullopt;
  }
  static std::string TypeStr() { return "str"; }
  static std::string TypeSchema() { return detail::QuoteTypeSchema(StaticTypeKey::kTVMFFIStr); }
};

template <>
struct TypeTraits<Bytes>
    : detail::BytesTraitsBase<TypeIndex::kTVMFFISmallBytes, BytesObj> {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIBytes;
  static void CopyToAnyView(const Bytes& v, TVMFFIAny* r) { *r = v.raw(); }
  static void MoveToAny(Bytes v, TVMFFIAny* r) { *r = v.MoveToTVMFFIAny(); }
  static Bytes CopyFromAnyViewAfterCheck(const TVMFFIAny* s) { return Bytes::CopyFromView(s); }
  static std::optional<Bytes> TryCastFromAnyView(const TVMFFIAny* s) {
    if (CheckAnyStrict(s)) return CopyFromAnyViewAfterCheck(s);
    if (s->type_index == TypeIndex::kTVMFFIByteArrayPtr) {
      const TVMFFIByteArray* a = static_cast<const TVMFFIByteArray*>(s->v_ptr);
      return Bytes(a->data, a->size);
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return "bytes"; }
  static std::string TypeSchema() { return detail::QuoteTypeSchema(StaticTypeKey::kTVMFFIBytes); }
};

/*! \brief std::string converts through String (owned Any values never hold raw C strings). */
template <>
struct TypeTraits<std::string> : TypeTraitsBase {
  static void CopyToAnyView(const std::string& v, TVMFFIAny* r) {
    r->type_index = TypeIndex::kTVMFFIRawStr;
    r->zero_padding = 0;
    r->v_c_str = v.c_str();
  }
  static void MoveToAny(const std::string& v, TVMFFIAny* r) {
    TypeTraits<String>::MoveToAny(String(v), r);
  }
  static bool CheckAnyStrict(const TVMFFIAny*) { return false; }
  static std::string CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
    return *TryCastFromAnyView(s);
  }
  static std::optional<std::string> TryCastFromAnyView(const TVMFFIAny* s) {
    if (s->type_index == TypeIndex::kTVMFFIRawStr) return std::string(s->v_c_str);
    if (auto str = TypeTraits<String>::TryCastFromAnyView(s)) return std::string(*str);
    return std::nullopt;
  }
  static std::string TypeStr() { return "std::string"; }
  static std::string TypeSchema() { return "{\"type\":\"std::string\"}"; }
};

/*! \brief const char*: a raw view in arguments; stored values become a String. */
template <>
struct TypeTraits<const char*> : TypeTraitsBase {
  static void CopyToAnyView(const char* v, TVMFFIAny* r) {
    r->type_index = TypeIndex::kTVMFFIRawStr;
    r->zero_padding = 0;
    r->v_c_str = v;
  }
  static void MoveToAny(const char* v, TVMFFIAny* r) {
    TypeTraits<String>::MoveToAny(String(v), r);
  }
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    return s->type_index == TypeIndex::kTVMFFIRawStr;
  }
  static const char* CopyFromAnyViewAfterCheck(const TVMFFIAny* s) { return s->v_c_str; }
  static std::optional<const char*> TryCastFromAnyView(const TVMFFIAny* s) {
    if (CheckAnyStrict(s)) return s->v_c_str;
    return std::nullopt;
  }
  static std::string TypeStr() { return "const char*"; }
  static std::string TypeSchema() { return "{\"type\":\"const char*\"}"; }
};
/*! \brief TVMFFIByteArray*: a raw view of bytes in arguments; stored values become Bytes. */
template <>
struct TypeTraits<TVMFFIByteArray*> : TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIByteArrayPtr;
  static constexpr bool storage_enabled = false;
  static void CopyToAnyView(TVMFFIByteArray* v, TVMFFIAny* r) {
    r->type_index = TypeIndex::kTVMFFIByteArrayPtr;
    r->zero_padding = 0;
    r->v_int64 = 0;
    r->v_ptr = v;
  }
  static void MoveToAny(TVMFFIByteArray* v, TVMFFIAny* r) {
    TypeTraits<Bytes>::MoveToAny(Bytes(v->data, v->size), r);
  }
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    return s->type_index == TypeIndex::kTVMFFIByteArrayPtr;
  }
  static TVMFFIByteArray* CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
    return static_cast<TVMFFIByteArray*>(s->v_ptr);
  }
  static std::optional<TVMFFIByteArray*> TryCastFromAnyView(const TVMFFIAny* s) {
    if (CheckAnyStrict(s)) return CopyFromAnyViewAfterCheck(s);
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIByteArrayPtr; }
  static std::string TypeSchema() { return detail::QuoteTypeSchema(StaticTypeKey::kTVMFFIByteArrayPtr); }
};

template <>
struct TypeTraits<char*> : TypeTraits<const char*> {};
template <int N>
struct TypeTraits<char[N]> : TypeTraits<const char*> {};

}  // namespace ffi
}  // namespace tvm

namespace std {
template <>
struct hash<::tvm::ffi::String> {
  size_t operator()(const ::tvm::ffi::String& s) const noexcept {
    return std::hash<std::string_view>()(std::string_view(s));
  }
};
}  // namespace std

#endif  // TVM_FFI_STRING_H_
