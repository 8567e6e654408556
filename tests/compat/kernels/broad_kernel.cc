// A kernel library that uses the C++ header API the way kernel libraries and compilers do: every
// argument kind TVM_FFI_DLL_EXPORT_TYPED_FUNC unpacks, output tensors from the env allocator and
// from a user NDAllocator, env streams and signals, errors of every kind, callbacks in both
// directions, global functions (registered here and from Python), reflected object types, and
// calls through module imports (`__tvm_ffi__library_ctx`).
//
// tests/compat/test_broad_kernel.py builds it against the reference headers and against ours,
// and scripts/broad_kernel_observations.py records what each build does on each runtime.
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/tvm_ffi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

namespace broad {

// ---- scalars, dtype, device -------------------------------------------------------------------
double AddScalars(int64_t a, double b, bool c) { return static_cast<double>(a) + b + (c ? 100 : 0); }

ffi::String DTypeName(DLDataType dtype) { return ffi::DLDataTypeToString(dtype); }

DLDataType WidenDType(DLDataType dtype) {
  dtype.bits = static_cast<uint8_t>(dtype.bits * 2);
  return dtype;
}

ffi::Array<int64_t> DeviceInfo(DLDevice device) { return {device.device_type, device.device_id}; }

DLDevice MakeDevice(int32_t type, int32_t id) { return DLDevice{static_cast<DLDeviceType>(type), id}; }

// ---- Optional / Variant -----------------------------------------------------------------------
int64_t OptLen(ffi::Optional<ffi::String> text) { return text.has_value() ? static_cast<int64_t>(text.value().size()) : -1; }

ffi::Optional<int64_t> OptHalf(int64_t x) {
  if (x % 2) return std::nullopt;
  return x / 2;
}

ffi::String VariantKind(ffi::Variant<int64_t, ffi::String, ffi::Array<int64_t>> value) {
  if (auto i = value.as<int64_t>()) return "int:" + std::to_string(*i);
  if (auto s = value.as<ffi::String>()) return "str:" + std::string(*s);
  return "array:" + std::to_string(value.get<ffi::Array<int64_t>>().size());
}

// ---- containers -------------------------------------------------------------------------------
int64_t SumNested(ffi::Array<ffi::Array<int64_t>> rows) {
  int64_t total = 0;
  for (const auto& row : rows) {
    for (int64_t v : row) total += v;
  }
  return total;
}

void ListAppend(ffi::List<int64_t> items, int64_t value) { items.push_back(value); }

ffi::Array<ffi::String> SortedKeys(ffi::Map<ffi::String, int64_t> map) {
  std::vector<std::string> keys;
  for (const auto& kv : map) keys.push_back(kv.first);
  std::sort(keys.begin(), keys.end());
  ffi::Array<ffi::String> out;
  for (const auto& k : keys) out.push_back(k);
  return out;
}

void DictSet(ffi::Dict<ffi::String, ffi::Any> dict, ffi::String key, ffi::Any value) { dict.Set(key, value); }

ffi::Map<ffi::String, ffi::Array<int64_t>> GroupByParity(ffi::Array<int64_t> values) {
  ffi::Array<int64_t> even, odd;
  for (int64_t v : values) (v % 2 ? odd : even).push_back(v);
  return {{"even", even}, {"odd", odd}};
}

ffi::Tuple<int64_t, ffi::String, double> MakeTuple(int64_t i) {
  return ffi::Tuple<int64_t, ffi::String, double>(i, ffi::String(std::to_string(i)), i * 0.5);
}

ffi::Shape ShapeOf(ffi::TensorView x) { return ffi::Shape(x.shape().begin(), x.shape().end()); }

// ---- strings and bytes ------------------------------------------------------------------------
ffi::String Concat(ffi::String a, ffi::String b) { return a + b; }

int64_t BytesLen(ffi::Bytes data) { return static_cast<int64_t>(data.size()); }

ffi::Bytes MakeBytes(int64_t n) {
  std::string data(static_cast<size_t>(n), '\0');
  for (int64_t i = 0; i < n; ++i) data[static_cast<size_t>(i)] = static_cast<char>(i % 3);
  return ffi::Bytes(data);
}

// ---- Any --------------------------------------------------------------------------------------
ffi::String AnyTypeKey(ffi::Any value) { return value.GetTypeKey(); }

ffi::Any AnyEcho(ffi::Any value) { return value; }

// ---- callbacks --------------------------------------------------------------------------------
ffi::Any CallCallback(ffi::Function fn, ffi::Any arg) { return fn(arg); }

int64_t CallTyped(ffi::TypedFunction<int64_t(int64_t, int64_t)> fn) { return fn(3, 4) + fn(10, 20); }

ffi::Function MakeAdder(int64_t k) {
  return ffi::Function::FromTyped([k](int64_t x) { return x + k; });
}

ffi::String CatchCallbackError(ffi::Function fn) {
  try {
    fn();
  } catch (const ffi::Error& err) {
    return err.kind() + ": " + err.message();
  }
  return "no error";
}

ffi::Any CallGlobal(ffi::String name, ffi::Any arg) {
  return ffi::Function::GetGlobalRequired(name)(arg);
}

bool HasGlobal(ffi::String name) { return ffi::Function::GetGlobal(name).has_value(); }

// ---- errors -----------------------------------------------------------------------------------
void Raise(ffi::String kind, ffi::String message) {
  std::string k = kind;
  if (k == "ValueError") TVM_FFI_THROW(ValueError) << message;
  if (k == "TypeError") TVM_FFI_THROW(TypeError) << message;
  if (k == "RuntimeError") TVM_FFI_THROW(RuntimeError) << message;
  if (k == "IndexError") TVM_FFI_THROW(IndexError) << message;
  if (k == "KeyError") TVM_FFI_THROW(KeyError) << message;
  if (k == "AttributeError") TVM_FFI_THROW(AttributeError) << message;
  if (k == "NotImplementedError") TVM_FFI_THROW(NotImplementedError) << message;
  if (k == "InternalError") TVM_FFI_THROW(InternalError) << message;
  if (k == "std::runtime_error") throw std::runtime_error(std::string(message));
  if (k == "icheck") TVM_FFI_ICHECK_EQ(message.size(), 1U) << "one character wanted";
  if (k == "check") TVM_FFI_CHECK(message.size() == 1, ValueError) << "want one character";
  throw ffi::Error(kind, message, TVMFFIBacktrace(__FILE__, __LINE__, "broad::Raise", 0));
}

// ---- tensors and env --------------------------------------------------------------------------
struct CPUAllocator {
  void AllocData(DLTensor* tensor) {
    size_t bytes = static_cast<size_t>(ffi::GetDataSize(*tensor));
    tensor->data = std::malloc(std::max<size_t>(bytes, 1));
  }
  void FreeData(DLTensor* tensor) { std::free(tensor->data); }
};

ffi::Tensor Arange(int64_t n) {
  ffi::Tensor out = ffi::Tensor::FromNDAlloc(CPUAllocator(), ffi::Shape({n}), DLDataType{kDLFloat, 32, 1},
                                             DLDevice{kDLCPU, 0});
  float* data = static_cast<float*>(out.data_ptr());
  for (int64_t i = 0; i < n; ++i) data[i] = static_cast<float>(i);
  return out;
}

ffi::Tensor Scale(ffi::TensorView x, double factor) {
  TVM_FFI_CHECK(x.dtype() == DLDataType({kDLFloat, 32, 1}), TypeError) << "float32 wanted, got " << x.dtype();
  TVM_FFI_CHECK(x.IsContiguous(), ValueError) << "contiguous input wanted";
  ffi::Tensor out = ffi::Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, x.shape(), x.dtype(), x.device());
  const float* in = static_cast<const float*>(x.data_ptr());
  float* res = static_cast<float*>(out.data_ptr());
  for (int64_t i = 0; i < x.numel(); ++i) res[i] = static_cast<float>(in[i] * factor);
  return out;
}

ffi::Tensor Keep(ffi::Tensor x) { return x; }

ffi::Array<int64_t> TensorFacts(ffi::Tensor x) {
  return {x.ndim(), x.numel(), x.dtype().code, x.dtype().bits, x.device().device_type,
          x.IsContiguous() ? 1 : 0, x.strides()[0]};
}

int64_t StreamOf(DLDevice device) {
  return reinterpret_cast<int64_t>(TVMFFIEnvGetStream(device.device_type, device.device_id));
}

int64_t CheckSignals() { return TVMFFIEnvCheckSignals(); }

// ---- reflected objects ------------------------------------------------------------------------
class PointObj : public ffi::Object {
 public:
  int64_t x;
  int64_t y;
  PointObj(int64_t x, int64_t y) : x(x), y(y) {}
  int64_t Norm2() const { return x * x + y * y; }

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("broad.Point", PointObj, ffi::Object);
};

class Point : public ffi::ObjectRef {
 public:
  Point(int64_t x, int64_t y) : ffi::ObjectRef(ffi::make_object<PointObj>(x, y)) {}
  static Point Origin() { return Point(0, 0); }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Point, ffi::ObjectRef, PointObj);
};

class LabeledPointObj : public PointObj {
 public:
  ffi::String label;
  LabeledPointObj(int64_t x, int64_t y, ffi::String label) : PointObj(x, y), label(label) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("broad.LabeledPoint", LabeledPointObj, PointObj);
};

Point Translate(Point p, int64_t dx) { return Point(p->x + dx, p->y); }

int64_t SumX(ffi::Array<Point> points) {
  int64_t total = 0;
  for (const Point& p : points) total += p->x;
  return total;
}

ffi::String LabelOf(ffi::ObjectRef obj) {
  if (const auto* lp = obj.as<LabeledPointObj>()) return lp->label;
  if (obj.as<PointObj>()) return "<point>";
  return "<" + std::string(obj->GetTypeKey()) + ">";
}

// ---- calls through module imports (what compiled code does) -----------------------------------
extern "C" {
TVM_FFI_DLL_EXPORT void* __tvm_ffi__library_ctx = nullptr;
}

ffi::Any CallImported(ffi::String name, ffi::Any arg) {
  TVMFFIObjectHandle fn = nullptr;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIEnvModLookupFromImports(__tvm_ffi__library_ctx, name.c_str(), &fn));
  ffi::Function func = ffi::details::ObjectUnsafe::ObjectRefFromObjectPtr<ffi::Function>(
      ffi::details::ObjectUnsafe::ObjectPtrFromUnowned<ffi::Object>(static_cast<TVMFFIObject*>(fn)));
  return func(arg);
}

}  // namespace broad

// Statically linked code registers its functions with the system library the way TVM's
// system-lib codegen does: "__tvm_ffi_" + prefix + name.
extern "C" int __tvm_ffi_add_scalars(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);

TVM_FFI_STATIC_INIT_BLOCK() {
  using namespace broad;
  TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_broad_sys_add", reinterpret_cast<void*>(__tvm_ffi_add_scalars));
  refl::ObjectDef<PointObj>()
      .def(refl::init<int64_t, int64_t>())
      .def_ro("x", &PointObj::x, "the x coordinate")
      .def_rw("y", &PointObj::y)
      .def("norm2", &PointObj::Norm2, "squared length")
      .def_static("origin", &Point::Origin);
  refl::ObjectDef<LabeledPointObj>()
      .def(refl::init<int64_t, int64_t, ffi::String>())
      .def_ro("label", &LabeledPointObj::label);
  refl::GlobalDef()
      .def("broad.make_point", [](int64_t x, int64_t y) { return Point(x, y); })
      .def("broad.translate", Translate, "moves a point along x")
      .def_packed("broad.count_args", [](ffi::PackedArgs args, ffi::Any* rv) { *rv = args.size(); });
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_scalars, broad::AddScalars);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(dtype_name, broad::DTypeName);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(widen_dtype, broad::WidenDType);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(device_info, broad::DeviceInfo);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_device, broad::MakeDevice);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(opt_len, broad::OptLen);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(opt_half, broad::OptHalf);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(variant_kind, broad::VariantKind);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(sum_nested, broad::SumNested);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(list_append, broad::ListAppend);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(sorted_keys, broad::SortedKeys);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(dict_set, broad::DictSet);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(group_by_parity, broad::GroupByParity);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_tuple, broad::MakeTuple);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(shape_of, broad::ShapeOf);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(concat, broad::Concat);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(bytes_len, broad::BytesLen);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_bytes, broad::MakeBytes);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(any_type_key, broad::AnyTypeKey);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(any_echo, broad::AnyEcho);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(call_callback, broad::CallCallback);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(call_typed, broad::CallTyped);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_adder, broad::MakeAdder);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(catch_callback_error, broad::CatchCallbackError);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(call_global, broad::CallGlobal);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(has_global, broad::HasGlobal);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(raise_error, broad::Raise);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(arange, broad::Arange);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(scale, broad::Scale);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(keep, broad::Keep);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(tensor_facts, broad::TensorFacts);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(stream_of, broad::StreamOf);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(check_signals, broad::CheckSignals);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(translate, broad::Translate);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(sum_x, broad::SumX);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(label_of, broad::LabelOf);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(call_imported, broad::CallImported);
