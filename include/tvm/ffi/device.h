/*
 * tvm/ffi/device.h -- DLDevice as an FFI value: comparison, printing ("cuda:0") and parsing.
 */
#ifndef TVM_FFI_DEVICE_H_
#define TVM_FFI_DEVICE_H_

#include <tvm/ffi/string.h>

#include <string_view>

namespace tvm {
namespace ffi {
namespace detail {

struct DeviceName {
  int32_t type;
  const char* name;
};
// The names tvm_ffi.Device prints (the DLPack device types); aliases accepted when parsing.
inline constexpr DeviceName kDeviceNames[] = {
    {kDLCPU, "cpu"},         {kDLCUDA, "cuda"},         {kDLCUDAHost, "cuda_host"},
    {kDLOpenCL, "opencl"},   {kDLVulkan, "vulkan"},     {kDLMetal, "metal"},
    {kDLVPI, "vpi"},         {kDLROCM, "rocm"},         {kDLROCMHost, "rocm_host"},
    {kDLExtDev, "ext_dev"},  {kDLCUDAManaged, "cuda_managed"}, {kDLOneAPI, "oneapi"},
    {kDLWebGPU, "webgpu"},   {kDLHexagon, "hexagon"},   {kDLMAIA, "maia"},
    {kDLTrn, "trn"},         {kDLMetal, "mps"},         {kDLWebGPU, "wgpu"},
};

/*! \brief "cuda" for kDLCUDA; "unknown" for codes without a name. */
inline const char* DLDeviceTypeToCStr(int32_t device_type) {
  for (const DeviceName& d : kDeviceNames) {
    if (d.type == device_type) return d.name;
  }
  return "unknown";
}

/*! \brief Parses "cuda", "cuda:1" or "cpu:0"; nullopt when malformed. */
inline std::optional<DLDevice> TryStringViewToDLDevice(std::string_view text) {
  size_t colon = text.find(':');
  std::string_view name = text.substr(0, colon);
  int64_t id = 0;
  if (colon != std::string_view::npos) {
    // Any id a DLDevice can hold (0 .. INT32_MAX) parses; signs, blanks and overflow do not.
    std::string_view digits = text.substr(colon + 1);
    if (digits.empty() || digits.size() > 10) return std::nullopt;
    for (char c : digits) {
      if (c < '0' || c > '9') return std::nullopt;
      id = id * 10 + (c - '0');
    }
    if (id > INT32_MAX) return std::nullopt;
  }
  for (const DeviceName& d : kDeviceNames) {
    if (name.compare(d.name) == 0) return DLDevice{static_cast<DLDeviceType>(d.type), static_cast<int32_t>(id)};
  }
  return std::nullopt;
}
}  // namespace detail

/*! \brief DLDevice: stored as kTVMFFIDevice; "cuda:0"-style strings convert. */
template <>
struct TypeTraits<DLDevice> : TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIDevice;
  static void CopyToAnyView(DLDevice v, TVMFFIAny* r) {
    r->type_index = TypeIndex::kTVMFFIDevice;
    r->zero_padding = 0;
    r->v_device = v;
  }
  static void MoveToAny(DLDevice v, TVMFFIAny* r) { CopyToAnyView(v, r); }
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    return s->type_index == TypeIndex::kTVMFFIDevice;
  }
  static DLDevice CopyFromAnyViewAfterCheck(const TVMFFIAny* s) { return s->v_device; }
  static std::optional<DLDevice> TryCastFromAnyView(const TVMFFIAny* s) {
    if (CheckAnyStrict(s)) return s->v_device;
    if (auto str = TypeTraits<String>::TryCastFromAnyView(s)) {
      return detail::TryStringViewToDLDevice(std::string_view(*str));
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIDevice; }
  static std::string TypeSchema() { return detail::QuoteTypeSchema(StaticTypeKey::kTVMFFIDevice); }
};

}  // namespace ffi
}  // namespace tvm

/*! \brief `std::cout << device` prints "cuda:0" (a template: no <ostream> needed here). */
template <typename Char, typename Traits>
std::basic_ostream<Char, Traits>& operator<<(std::basic_ostream<Char, Traits>& os, DLDevice device) {
  return os << ::tvm::ffi::detail::DLDeviceTypeToCStr(device.device_type) << ':' << device.device_id;
}

// Device equality, as templates on purpose: DLDevice is a C struct of the global namespace, so
// kernel code often defines its own operator== for it; a non-template of theirs is then chosen
// over these (no ambiguity, no redefinition), and code without one still gets `a == b`.
template <typename D, typename = std::enable_if_t<std::is_same_v<D, DLDevice>>>
inline bool operator==(const D& a, const D& b) {
  return a.device_type == b.device_type && a.device_id == b.device_id;
}
template <typename D, typename = std::enable_if_t<std::is_same_v<D, DLDevice>>>
inline bool operator!=(const D& a, const D& b) {
  return !(a == b);
}

#endif  // TVM_FFI_DEVICE_H_
