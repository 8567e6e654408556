/*
 * tvm/ffi/string.h -- String and Bytes: 16-byte values that hold up to 7 bytes inline (the
 * kTVMFFISmallStr/kTVMFFISmallBytes encoding) and longer contents in a NUL-terminated
 * ffi.String/ffi.Bytes object, so a String field or argument is exactly one TVMFFIAny.
 */
#ifndef TVM_FFI_STRING_H_
#define TVM_FFI_STRING_H_

#include <tvm/ffi/memory.h>
#include <tvm/ffi/type_traits.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

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

/*!
 * \brief Platform-independent hash mixing (the boost hash_combine step): the runtime's maps and
 * structural hashes combine with exactly this, so values must not come from std::hash.
 */
template <typename T, std::enable_if_t<std::is_convertible_v<T, uint64_t>, bool> = true>
inline uint64_t StableHashCombine(uint64_t key, const T& value) {
  return key ^ (static_cast<uint64_t>(value) + 0x9e3779b9 + (key << 6) + (key >> 2));
}

/*!
 * \brief Content hash of bytes, the one str/bytes keys hash with: each 8-byte little-endian
 * word (the zero-padded tail last) folded as result = (result * 1099511628211 + word) mod
 * 2^31 - 1. Byte-wise word assembly keeps it independent of alignment and host byte order.
 */
inline uint64_t StableHashBytes(const void* data_ptr, size_t size) {
  constexpr uint64_t kMultiplier = 1099511628211ULL;
  constexpr uint64_t kModulus = 2147483647ULL;
  const unsigned char* data = static_cast<const unsigned char*>(data_ptr);
  uint64_t result = 0;
  for (size_t i = 0; i < size; i += 8) {
    const size_t n = size - i < 8 ? size - i : 8;
    uint64_t word = 0;
    for (size_t k = 0; k < n; ++k) word |= static_cast<uint64_t>(data[i + k]) << (8 * k);
    result = (result * kMultiplier + word) % kModulus;
  }
  return result;
}

/*! \brief Shared storage of String and Bytes: one TVMFFIAny, small or an object reference. */
template <int32_t kSmallIndex, typename TObj>
class BytesBase {
 public:
  static constexpr size_t kMaxSmallSize = sizeof(int64_t) - 1;

  BytesBase() noexcept { InitSmall(nullptr, 0); }
  BytesBase(const char* data, size_t size) { Init(data, size); }
  /*!
   * \brief Adopts a std::string's buffer: always a heap object, whatever the size, that keeps
   * the moved-in string and points its {data, size} at it (the source is left empty, as a
   * moved-from std::string usually is).
   */
  explicit BytesBase(std::string&& s) {
    ObjectPtr<TObj> obj = make_object<StdStringCell>(std::move(s));
    data_.type_index = TObj::_type_index;
    data_.zero_padding = 0;
    data_.v_obj = ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(obj));
  }
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
  /*! \brief Bounds-checked read; a std::out_of_range (not an ffi::Error), as with std::string. */
  char at(size_t i) const {
    if (i >= size()) throw std::out_of_range("tvm::String index out of bounds");
    return data()[i];
  }
  operator std::string() const { return std::string(data(), size()); }  // NOLINT
  operator std::string_view() const noexcept {                           // NOLINT
    return std::string_view(data(), size());
  }
  /*! \brief -1, 0 or 1 (exactly), ordering by `char` values then by length. */
  int compare(std::string_view other) const noexcept {
    return CompareChars(data(), size(), other.data(), other.size());
  }
  int compare(const TVMFFIByteArray& other) const noexcept {
    return CompareChars(data(), size(), other.data, other.size);
  }
  /*!
   * \brief Three-way comparison of two char ranges: -1, 0 or 1. Elements compare as `char`
   * (signed on most ABIs), unlike memcmp, so that orderings agree with the reference's.
   */
  static int CompareChars(const char* lhs, size_t lhs_size, const char* rhs,
                          size_t rhs_size) noexcept {
    if (lhs == rhs && lhs_size == rhs_size) return 0;
    const size_t common = lhs_size < rhs_size ? lhs_size : rhs_size;
    for (size_t i = 0; i < common; ++i) {
      if (lhs[i] != rhs[i]) return lhs[i] < rhs[i] ? -1 : 1;
    }
    if (lhs_size == rhs_size) return 0;
    return lhs_size < rhs_size ? -1 : 1;
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
  /*! \brief The heap cell of a moved-in std::string (same type index as TObj; its deleter,
   * chosen by make_object, also destroys the string). */
  struct StdStringCell : public TObj {
    explicit StdStringCell(std::string&& s) : storage(std::move(s)) {
      this->data = storage.data();
      this->size = storage.size();
    }
    std::string storage;
  };
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
  String(std::string&& s) : Base(std::move(s)) {}                      // NOLINT
  String(std::string_view s) : Base(s.data(), s.size()) {}             // NOLINT
  String(Base&& base) noexcept : Base(std::move(base)) {}             // NOLINT
  String(std::nullptr_t) = delete;
  String& operator=(const char* s) { return *this = String(s); }
  String& operator=(const std::string& s) { return *this = String(s); }
  /*! \brief Copies a borrowed byte range (explicit: the array does not own its bytes). */
  explicit String(TVMFFIByteArray bytes) : Base(bytes.data, bytes.size) {}
  String(const String&) = default;
  String(String&&) = default;
  String& operator=(const String&) = default;
  String& operator=(String&&) = default;
  void swap(String& other) noexcept { std::swap(data_, other.data_); }
  using ContainerType = StringObj;

  /*! \brief What find() returns when there is no match. */
  static constexpr size_t npos = static_cast<size_t>(-1);

  /*! \brief First position >= pos where `str` occurs, or npos (std::string semantics). */
  size_t find(const String& str, size_t pos = 0) const { return find(str.data(), pos, str.size()); }
  size_t find(const char* str, size_t pos = 0) const { return find(str, pos, std::strlen(str)); }
  size_t find(const char* str, size_t pos, size_t count) const {
    return std::string_view(data(), size()).find(std::string_view(str, count), pos);
  }

  /*! \brief The characters [pos, pos + count), clipped to the end; std::out_of_range when
   * pos is past the end. */
  String substr(size_t pos = 0, size_t count = npos) const {
    if (pos > size()) throw std::out_of_range("tvm::String substr index out of bounds");
    const size_t rest = size() - pos;
    return String(data() + pos, count < rest ? count : rest);
  }

  bool starts_with(const String& prefix) const { return starts_with(prefix.data(), prefix.size()); }
  bool starts_with(std::string_view prefix) const {
    return starts_with(prefix.data(), prefix.size());
  }
  bool starts_with(const char* prefix) const { return starts_with(prefix, std::strlen(prefix)); }
  bool starts_with(const char* prefix, size_t count) const {
    return count <= size() && std::memcmp(data(), prefix, count) == 0;
  }
  bool ends_with(const String& suffix) const { return ends_with(suffix.data(), suffix.size()); }
  bool ends_with(std::string_view suffix) const { return ends_with(suffix.data(), suffix.size()); }
  bool ends_with(const char* suffix) const { return ends_with(suffix, std::strlen(suffix)); }
  bool ends_with(const char* suffix, size_t count) const {
    return count <= size() && std::memcmp(data() + size() - count, suffix, count) == 0;
  }

  /*!
   * \brief The pieces between occurrences of `delim` (always at least one, possibly empty).
   * They view this string's bytes, so they are valid only while this String lives.
   */
  std::vector<std::string_view> Split(char delim) const {
    std::vector<std::string_view> pieces;
    std::string_view rest(data(), size());
    for (size_t cut = rest.find(delim); cut != std::string_view::npos; cut = rest.find(delim)) {
      pieces.push_back(rest.substr(0, cut));
      rest.remove_prefix(cut + 1);
    }
    pieces.push_back(rest);
    return pieces;
  }
};

/*! \brief An immutable byte string value. */
class Bytes : public detail::BytesBase<TypeIndex::kTVMFFISmallBytes, BytesObj> {
  using Base = detail::BytesBase<TypeIndex::kTVMFFISmallBytes, BytesObj>;

 public:
  Bytes() = default;
  Bytes(const char* data, size_t size) : Base(data, size) {}
  /*! \brief Copies a borrowed byte range (implicit, unlike String's: bytes are bytes). */
  Bytes(TVMFFIByteArray bytes) : Base(bytes.data, bytes.size) {}  // NOLINT
  Bytes(const std::string& s) : Base(s.data(), s.size()) {}  // NOLINT
  // No const char* or std::string_view overloads, as in the reference: `Bytes("abcd")` goes
  // through a temporary std::string and so, like any moved-in std::string, is a heap object.
  Bytes(std::string&& s) : Base(std::move(s)) {}  // NOLINT
  Bytes(Base&& base) noexcept : Base(std::move(base)) {}    // NOLINT
  Bytes(const Bytes&) = default;
  Bytes(Bytes&&) = default;
  Bytes& operator=(const Bytes&) = default;
  Bytes& operator=(Bytes&&) = default;
  void swap(Bytes& other) noexcept { std::swap(data_, other.data_); }
  using ContainerType = BytesObj;

  /*! \brief Three-way comparison of two byte ranges: -1, 0 or 1. */
  static int memncmp(const char* lhs, const char* rhs, size_t lhs_count, size_t rhs_count) {
    return CompareChars(lhs, lhs_count, rhs, rhs_count);
  }
  /*! \brief Whether two byte ranges hold the same bytes. */
  static bool memequal(const void* lhs, const void* rhs, size_t lhs_count, size_t rhs_count) {
    return lhs_count == rhs_count && (lhs == rhs || std::memcmp(lhs, rhs, lhs_count) == 0);
  }
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

/*! \brief A borrowed byte array viewed as a std::string_view. */
inline std::string_view ToStringView(TVMFFIByteArray bytes) {
  return std::string_view(bytes.data, bytes.size);
}

/*!
 * \brief `value` as a JSON string literal, quotes included (RFC 8259): `"` `\` and `/` are
 * backslash-escaped, \b \f \n \r \t use their short forms, other control bytes (and DEL)
 * become \u00XX; bytes from 0x80 up pass through, so UTF-8 stays UTF-8.
 */
inline String EscapeStringJSON(const String& value) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(value.size() + 2);
  out.push_back('"');
  for (size_t i = 0; i < value.size(); ++i) {
    const char c = value.data()[i];
    const unsigned char u = static_cast<unsigned char>(c);
    const char* short_form = nullptr;
    switch (c) {
      case '"': short_form = "\\\""; break;
      case '\\': short_form = "\\\\"; break;
      case '/': short_form = "\\/"; break;
      case '\b': short_form = "\\b"; break;
      case '\f': short_form = "\\f"; break;
      case '\n': short_form = "\\n"; break;
      case '\r': short_form = "\\r"; break;
      case '\t': short_form = "\\t"; break;
      default: break;
    }
    if (short_form != nullptr) {
      out += short_form;
    } else if (u < 0x20 || u == 0x7f) {
      out += "\\u00";
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 15]);
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
  return String(std::move(out));
}

/*! \brief The old name of EscapeStringJSON. */
[[deprecated("Use EscapeStringJSON instead")]] inline String EscapeString(const String& value) {
  return EscapeStringJSON(value);
}

/*!
 * \brief `value` as a double-quoted Python-style literal: \n \t \r \\ \" short forms, other
 * control bytes as \xNN, well-formed UTF-8 sequences as \uXXXX (or \UXXXXXXXX past the BMP),
 * stray high bytes as \xNN; ANSI color sequences (ESC [ digits/; m or K) are kept readable as
 * \x1b[...m.
 */
inline String EscapedStringPy(const String& value) {
  static const char kHex[] = "0123456789abcdef";
  const unsigned char* s = reinterpret_cast<const unsigned char*>(value.data());
  const size_t n = value.size();
  std::string out = "\"";
  auto hex = [&](const char* prefix, uint32_t v, int digits) {
    out += prefix;
    for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) out.push_back(kHex[(v >> shift) & 15]);
  };
  auto is_cont = [&](size_t k) { return k < n && (s[k] & 0xC0) == 0x80; };
  size_t i = 0;
  while (i < n) {
    const unsigned char c = s[i];
    if (c == 0x1b && i + 1 < n && s[i + 1] == '[') {
      size_t j = i + 2;
      while (j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == ';')) ++j;
      if (j < n && (s[j] == 'm' || s[j] == 'K')) {
        out += "\\x1b";
        out.append(reinterpret_cast<const char*>(s + i + 1), j - i);
        i = j + 1;
        continue;
      }
    }
    if (c == '\n' || c == '\t' || c == '\r' || c == '\\' || c == '"') {
      out.push_back('\\');
      out.push_back(c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' : static_cast<char>(c));
      ++i;
    } else if (c < 0x80) {
      if (c < 0x20 || c == 0x7f) {
        hex("\\x", c, 2);
      } else {
        out.push_back(static_cast<char>(c));
      }
      ++i;
    } else if ((c & 0xE0) == 0xC0 && is_cont(i + 1)) {
      hex("\\u", ((c & 0x1Fu) << 6) | (s[i + 1] & 0x3Fu), 4);
      i += 2;
    } else if ((c & 0xF0) == 0xE0 && i + 2 < n && is_cont(i + 1) && is_cont(i + 2)) {
      hex("\\u", ((c & 0x0Fu) << 12) | ((s[i + 1] & 0x3Fu) << 6) | (s[i + 2] & 0x3Fu), 4);
      i += 3;
    } else if ((c & 0xF8) == 0xF0 && i + 3 < n && is_cont(i + 1) && is_cont(i + 2) &&
               is_cont(i + 3)) {
      hex("\\U",
          ((c & 0x07u) << 18) | ((s[i + 1] & 0x3Fu) << 12) | ((s[i + 2] & 0x3Fu) << 6) |
              (s[i + 3] & 0x3Fu),
          8);
      i += 4;
    } else {
      hex("\\x", c, 2);
      ++i;
    }
  }
  out.push_back('"');
  return String(std::move(out));
}

/*! \brief `std::cout << s` (a template so that this header does not need <ostream>). */
template <typename Char, typename Traits>
std::basic_ostream<Char, Traits>& operator<<(std::basic_ostream<Char, Traits>& os, const String& s) {
  return os << std::string_view(s);
}

namespace detail {
template <int32_t kSmallIndex, typename TObj>
struct BytesTraitsBase : TypeTraitsBase {
  static constexpr int32_t kObjIndex = TObj::_type_index;
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    return s->type_index == kSmallIndex || s->type_index == kObjIndex;
  }
};

/*! \brief Takes a String/Bytes cell out of an owned Any (left None): no count traffic. */
template <typename Ref>
Ref MoveOwnedCell(TVMFFIAny* s) {
  Ref out = Ref::FromOwnedAny(*s);
  ClearAny(s);
  return out;
}
}  // namespace detail

template <>
struct TypeTraits<String>
    : detail::BytesTraitsBase<TypeIndex::kTVMFFISmallStr, StringObj> {
  // Any, as the reference: a String field is a 16-byte Any-layout cell, not an object pointer.
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIAny;
  static void CopyToAnyView(const String& v, TVMFFIAny* r) { *r = v.raw(); }
  static void MoveToAny(String v, TVMFFIAny* r) { *r = v.MoveToTVMFFIAny(); }
  static String CopyFromAnyViewAfterCheck(const TVMFFIAny* s) { return String::CopyFromView(s); }
  /*! \brief Takes over the reference of an owned Any (left None), no count traffic. */
  static String MoveFromAnyAfterCheck(TVMFFIAny* s) { return detail::MoveOwnedCell<String>(s); }
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
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIAny;
  static void CopyToAnyView(const Bytes& v, TVMFFIAny* r) { *r = v.raw(); }
  static void MoveToAny(Bytes v, TVMFFIAny* r) { *r = v.MoveToTVMFFIAny(); }
  static Bytes CopyFromAnyViewAfterCheck(const TVMFFIAny* s) { return Bytes::CopyFromView(s); }
  /*! \brief Takes over the reference of an owned Any (left None), no count traffic. */
  static Bytes MoveFromAnyAfterCheck(TVMFFIAny* s) { return detail::MoveOwnedCell<Bytes>(s); }
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
  // Taken by value and moved on, so a stored std::string is always a heap str object.
  static void MoveToAny(std::string v, TVMFFIAny* r) {
    TypeTraits<String>::MoveToAny(String(std::move(v)), r);
  }
  static bool CheckAnyStrict(const TVMFFIAny*) { return false; }
  static std::string CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
    return *TryCastFromAnyView(s);
  }
  /*! \brief Any text or bytes value converts: raw C strings, byte-array views, str, bytes. */
  static std::optional<std::string> TryCastFromAnyView(const TVMFFIAny* s) {
    if (s->type_index == TypeIndex::kTVMFFIRawStr) return std::string(s->v_c_str);
    if (s->type_index == TypeIndex::kTVMFFIByteArrayPtr) {
      const TVMFFIByteArray* a = static_cast<const TVMFFIByteArray*>(s->v_ptr);
      return std::string(a->data, a->size);
    }
    if (auto str = TypeTraits<String>::TryCastFromAnyView(s)) return std::string(*str);
    if (auto bytes = TypeTraits<Bytes>::TryCastFromAnyView(s)) return std::string(*bytes);
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
struct hash<::tvm::ffi::Bytes> {
  size_t operator()(const ::tvm::ffi::Bytes& b) const noexcept {
    return std::hash<std::string_view>()(std::string_view(b));
  }
};
template <>
struct hash<::tvm::ffi::String> {
  size_t operator()(const ::tvm::ffi::String& s) const noexcept {
    return std::hash<std::string_view>()(std::string_view(s));
  }
};
}  // namespace std

#endif  // TVM_FFI_STRING_H_
