// cpp_api_kernel.cc -- one kernel source written with the C++ API as kernel authors use it (the
// seeds' snippets and common idioms). It compiles unchanged against OUR headers and against the
// REFERENCE headers; test_cpp_api_both_ways.py runs every build on every runtime.
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/tvm_ffi.h>

#include <string>

namespace ffi = tvm::ffi;

namespace {

// tensor_and_dlpack.rst, "Kernel Signatures" (CPU instead of CUDA; the reference headers have
// no DLDevice comparison or printing, so the device check compares fields).
void MyKernel(ffi::TensorView input, ffi::TensorView output) {
  if (input.dtype() != DLDataType{kDLFloat, 32, 1})
    TVM_FFI_THROW(TypeError) << "Expect float32 input, but got " << input.dtype();
  if (input.device().device_type != kDLCPU)
    TVM_FFI_THROW(ValueError) << "Expect input on CPU, but got device type "
                              << static_cast<int>(input.device().device_type);
  TVM_FFI_ICHECK_EQ(input.numel(), output.numel()) << "size mismatch";
  float* input_data_ptr = static_cast<float*>(input.data_ptr());
  float* output_data_ptr = static_cast<float*>(output.data_ptr());
  for (int64_t i = 0; i < input.numel(); ++i) output_data_ptr[i] = input_data_ptr[i] * 2.0f;
}

// tensor_and_dlpack.rst, "Env Allocator": a result from the framework's allocator (the one of
// the framework whose tensor the call carried, e.g. torch.empty).
ffi::Tensor OnesLike(ffi::Tensor like) {
  ffi::Tensor tensor = ffi::Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, like.shape(),
                                                 DLDataType({kDLFloat, 32, 1}), DLDevice({kDLCPU, 0}));
  float* data = static_cast<float*>(tensor.data_ptr());
  for (int64_t i = 0; i < tensor.numel(); ++i) data[i] = 1.0f;
  return tensor;
}

// tensor_and_dlpack.rst, "Obtain Stream Context".
int64_t StreamOf(ffi::TensorView input) {
  DLDevice device = input.device();
  return reinterpret_cast<int64_t>(TVMFFIEnvGetStream(device.device_type, device.device_id));
}

ffi::Array<int64_t> Layout(ffi::TensorView x) {
  ffi::Array<int64_t> out;
  out.push_back(x.ndim());
  for (int32_t i = 0; i < x.ndim(); ++i) out.push_back(x.size(i));
  for (int32_t i = 0; i < x.ndim(); ++i) out.push_back(x.stride(i));
  out.push_back(x.IsContiguous() ? 1 : 0);
  return out;
}

ffi::String Join(ffi::Array<ffi::String> parts, ffi::Optional<ffi::String> sep) {
  std::string out;
  std::string s = sep.has_value() ? std::string(sep.value()) : std::string(",");
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i != 0) out += s;
    out += std::string(parts[i]);
  }
  return ffi::String(out);
}

double Mean(ffi::Array<double> values) {
  TVM_FFI_CHECK(values.size() != 0, ValueError) << "mean of an empty list";
  double total = 0;
  for (double v : values) total += v;
  return total / static_cast<double>(values.size());
}

int64_t Lookup(ffi::Map<ffi::String, int64_t> table, ffi::String key) {
  auto it = table.find(key);
  if (it == table.end()) TVM_FFI_THROW(KeyError) << "no key " << key;
  return (*it).second;
}

// A Python (or any) callable passed in as a Function, called back from C++.
ffi::Any CallTwice(ffi::Function f, ffi::Any x) { return f(f(x)); }

// abi_overview: Any holds managed values of any FFI type.
ffi::Any Describe(ffi::Any value) {
  if (auto i = value.as<int64_t>()) return ffi::String("int " + std::to_string(*i));
  if (auto s = value.try_cast<ffi::String>()) return ffi::String("str " + std::string(*s));
  if (value.as<ffi::TensorObj>() != nullptr) return ffi::String("tensor");
  if (value == nullptr) return ffi::String("none");
  return ffi::String("other " + value.GetTypeKey());
}

ffi::Tuple<int64_t, ffi::String> Pair(int64_t n) {
  return ffi::Tuple<int64_t, ffi::String>(n, ffi::String(std::to_string(n)));
}

int64_t Width(ffi::Variant<int64_t, ffi::String> v) {
  if (auto i = v.as<int64_t>()) return *i;
  return static_cast<int64_t>(v.get<ffi::String>().size());
}

// Tuples: an upcast shares storage; a structured binding of a moved, sole tuple moves its items.
ffi::Tuple<ffi::String, int64_t> Swap(ffi::Tuple<int64_t, ffi::String> t) {
  ffi::Tuple<ffi::Any, ffi::Any> wide = t;
  TVM_FFI_ICHECK(wide.same_as(t));
  auto [n, s] = std::move(t);
  return ffi::Tuple<ffi::String, int64_t>(s, n);
}

// A stateful packed function built in place; the caller keeps a pointer to its state.
struct Counter {
  explicit Counter(int64_t start) : total(start) {}
  void operator()(const ffi::AnyView* args, int32_t num_args, ffi::Any* rv) {
    for (int32_t i = 0; i < num_args; ++i) total += args[i].cast<int64_t>();
    *rv = total;
  }
  int64_t total;
};

ffi::Function MakeCounter(int64_t start) {
  auto [fn, state] = ffi::Function::FromPackedInplace<Counter>(start);
  TVM_FFI_ICHECK_EQ(state->total, start);
  return fn;
}

// A reference type with a mutating method, written through the protected get_mutable().
class BoxObj : public ffi::Object {
 public:
  explicit BoxObj(int64_t v) : value(v) {}
  int64_t value;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cpp_api.Box", BoxObj, ffi::Object);
};

class Box : public ffi::ObjectRef {
 public:
  explicit Box(int64_t v) : ffi::ObjectRef(ffi::make_object<BoxObj>(v)) {}
  void Add(int64_t k) { static_cast<BoxObj*>(get_mutable())->value += k; }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Box, ffi::ObjectRef, BoxObj);
};

int64_t BoxAdd(int64_t start, int64_t k) {
  Box box(start);
  Box alias = box;
  box.Add(k);
  return alias->value;
}

}  // namespace

// User metadata next to the type schema of a registered global.
TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::GlobalDef().def("cpp_api.scaled", [](double x) { return x * 2; }, "Doubles x.",
                        refl::Metadata{{"unit", "px"}, {"pure", true}, {"version", 2}});
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(swap, Swap);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_counter, MakeCounter);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(box_add, BoxAdd);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(my_kernel, MyKernel);
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(my_kernel, "Doubles a float32 CPU tensor into output.");
TVM_FFI_DLL_EXPORT_TYPED_FUNC(ones_like, OnesLike);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(stream_of, StreamOf);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(layout, Layout);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(join, Join);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(mean, Mean);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(lookup, Lookup);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(call_twice, CallTwice);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(describe, Describe);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(pair, Pair);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(width, Width);
