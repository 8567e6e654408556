/*
 * tvm/ffi/dtype.h -- DLDataType as an FFI value: comparison, printing and string conversion
 * ("float32", "int8x4", ...) through the runtime's parser and printer.
 */
#ifndef TVM_FFI_DTYPE_H_
#define TVM_FFI_DTYPE_H_

#include <tvm/ffi/string.h>

namespace tvm {
namespace ffi {

/*! \brief Codes beyond DLPack's: custom data types start here. */
enum DLExtDataTypeCode { kDLExtCustomBegin = 129 };

namespace detail {
/*!
 * \brief The name of a dtype code as dtype strings spell it ("int", "bfloat", "float8_e4m3fn");
 * "custom" for custom codes, ValueError for codes DLPack does not define.
 */
inline const char* DLDataTypeCodeAsCStr(DLDataTypeCode code) {
  switch (static_cast<int>(code)) {
    case kDLInt: return "int";
    case kDLUInt: return "uint";
    case kDLFloat: return "float";
    case kDLOpaqueHandle: return "handle";
    case kDLBfloat: return "bfloat";
    case kDLBool: return "bool";
    case kDLFloat8_e3m4: return "float8_e3m4";
    case kDLFloat8_e4m3: return "float8_e4m3";
    case kDLFloat8_e4m3b11fnuz: return "float8_e4m3b11fnuz";
    case kDLFloat8_e4m3fn: return "float8_e4m3fn";
    case kDLFloat8_e4m3fnuz: return "float8_e4m3fnuz";
    case kDLFloat8_e5m2: return "float8_e5m2";
    case kDLFloat8_e5m2fnuz: return "float8_e5m2fnuz";
    case kDLFloat8_e8m0fnu: return "float8_e8m0fnu";
    case kDLFloat6_e2m3fn: return "float6_e2m3fn";
    case kDLFloat6_e3m2fn: return "float6_e3m2fn";
    case kDLFloat4_e2m1fn: return "float4_e2m1fn";
    default:
      if (static_cast<int>(code) >= kDLExtCustomBegin) return "custom";
      TVM_FFI_THROW(ValueError) << "DLDataType contains unknown type_code=" << static_cast<int>(code);
  }
  TVM_FFI_UNREACHABLE();
}
}  // namespace detail

/*! \brief Parses a dtype string ("float32", "bfloat16", "int8x4"); ValueError when unknown. */
inline DLDataType StringToDLDataType(const String& str) {
  TVMFFIByteArray text{str.data(), str.size()};
  DLDataType out;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIDataTypeFromString(&text, &out));
  return out;
}

/*! \brief The canonical name of a dtype ("float32"). */
inline String DLDataTypeToString(DLDataType dtype) {
  TVMFFIAny out;
  detail::ClearAny(&out);
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIDataTypeToString(&dtype, &out));
  return String::FromOwnedAny(out);
}

/*!
 * \brief A dtype's short spelling for text formats: a letter for the code, then the bits
 * ("i32", "u8", "f16", "bf16"); the 8-, 6- and 4-bit float formats keep their suffix without
 * the bits ("f8_e4m3fn"); vectors add "x<lanes>" (scalable ones "xvscalex<n>"). "bool", "void"
 * and "handle" stand alone; custom codes use the canonical name.
 */
inline std::string DTypeAbbrev(DLDataType dtype) {
  if (dtype.code == kDLBool && dtype.bits == 8 && dtype.lanes == 1) return "bool";
  if (dtype.code == kDLOpaqueHandle && dtype.bits == 0 && dtype.lanes == 0) return "void";
  if (dtype.code == kDLOpaqueHandle) return "handle";
  int code = static_cast<int>(dtype.code);
  if (code >= kDLExtCustomBegin) return std::string(DLDataTypeToString(dtype));
  std::string name = detail::DLDataTypeCodeAsCStr(static_cast<DLDataTypeCode>(code));
  bool small_float = code >= kDLFloat8_e3m4 && code <= kDLFloat4_e2m1fn;
  std::string out;
  if (small_float) {
    out = "f" + name.substr(std::string("float").size());  // float8_e4m3fn -> f8_e4m3fn
  } else {
    out = code == kDLInt ? "i" : code == kDLUInt ? "u" : code == kDLFloat ? "f"
        : code == kDLBfloat ? "bf" : name;
    if (code != kDLBool || dtype.bits != 8) out += std::to_string(static_cast<int>(dtype.bits));
  }
  int16_t lanes = static_cast<int16_t>(dtype.lanes);
  if (lanes > 1) {
    out += "x" + std::to_string(lanes);
  } else if (lanes < -1) {
    out += "xvscalex" + std::to_string(-lanes);
  }
  return out;
}

inline bool DTypeIsFloat(DLDataType dtype) {
  return dtype.code == kDLFloat || dtype.code == kDLBfloat ||
         (dtype.code >= kDLFloat8_e3m4 && dtype.code <= kDLFloat4_e2m1fn);
}
inline bool DTypeIsInt(DLDataType dtype) { return dtype.code == kDLInt || dtype.code == kDLUInt; }
inline bool DTypeIsBool(DLDataType dtype) { return dtype.code == kDLBool; }

/*! \brief DLDataType: stored as kTVMFFIDataType; dtype strings convert. */
template <>
struct TypeTraits<DLDataType> : TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIDataType;
  static void CopyToAnyView(DLDataType v, TVMFFIAny* r) {
    detail::ClearAny(r);
    r->type_index = TypeIndex::kTVMFFIDataType;
    r->v_dtype = v;
  }
  static void MoveToAny(DLDataType v, TVMFFIAny* r) { CopyToAnyView(v, r); }
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    return s->type_index == TypeIndex::kTVMFFIDataType;
  }
  static DLDataType CopyFromAnyViewAfterCheck(const TVMFFIAny* s) { return s->v_dtype; }
  static std::optional<DLDataType> TryCastFromAnyView(const TVMFFIAny* s) {
    if (CheckAnyStrict(s)) return s->v_dtype;
    // Text converts, bytes too (through std::string, as the reference headers do); a string that
    // is no dtype raises the parser's ValueError ("unknown dtype `x`"), not a type mismatch.
    if (auto str = TypeTraits<std::string>::TryCastFromAnyView(s)) {
      TVMFFIByteArray text{str->data(), str->size()};
      DLDataType out;
      TVM_FFI_CHECK_SAFE_CALL(TVMFFIDataTypeFromString(&text, &out));
      return out;
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIDataType; }
  static std::string TypeSchema() {
    return detail::QuoteTypeSchema(StaticTypeKey::kTVMFFIDataType);
  }
};

}  // namespace ffi
}  // namespace tvm

/*! \brief `std::cout << dtype` prints "float32" (a template: no <ostream> needed here). */
template <typename Char, typename Traits>
std::basic_ostream<Char, Traits>& operator<<(std::basic_ostream<Char, Traits>& os, DLDataType dtype) {
  if (dtype.code == kDLComplex) {  // the runtime's printer refuses complex; name it here
    return os << "complex" << static_cast<int>(dtype.bits);
  }
  return os << ::tvm::ffi::DLDataTypeToString(dtype);
}

inline bool operator==(const DLDataType& a, const DLDataType& b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}
inline bool operator!=(const DLDataType& a, const DLDataType& b) { return !(a == b); }

#endif  // TVM_FFI_DTYPE_H_
