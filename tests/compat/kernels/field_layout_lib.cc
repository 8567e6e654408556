// field_layout_lib.cc -- one reflected type with a field of every common C++ value type, so the
// layout a header set registers (field_static_type_index, size, alignment, offset) can be compared
// between our headers and the reference's (test_field_layout_both_headers.py). Runtimes decide how
// to copy and free a field from these numbers: an index >= 64 is read as an 8-byte object pointer,
// -1 (Any) as a 16-byte Any cell (or a pointer when the size is 8).
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/tvm_ffi.h>

#include <cstdint>

namespace layout {
namespace ffi = tvm::ffi;

class ProbeObj : public ffi::Object {
 public:
  bool flag;
  int8_t i8;
  int32_t i32;
  int64_t i64;
  float f32;
  double f64;
  DLDataType dtype;
  DLDevice device;
  void* handle;
  ffi::String str;
  ffi::Bytes bytes;
  ffi::Optional<int64_t> opt_int;
  ffi::Optional<double> opt_float;
  ffi::Optional<bool> opt_bool;
  ffi::Optional<ffi::String> opt_str;
  ffi::Optional<DLDataType> opt_dtype;
  ffi::Optional<DLDevice> opt_device;
  ffi::Optional<ffi::Array<int64_t>> opt_array;
  ffi::Optional<ffi::ObjectRef> opt_object;
  ffi::Optional<ffi::Tensor> opt_tensor;
  ffi::Optional<ffi::Function> opt_function;
  ffi::Optional<ffi::Variant<int64_t, ffi::String>> opt_variant;
  ffi::Optional<ffi::ObjectPtr<ffi::Object>> opt_object_ptr;
  ffi::Array<int64_t> array;
  ffi::Array<ffi::Any> any_array;
  ffi::List<ffi::String> list;
  ffi::Map<ffi::String, int64_t> map;
  ffi::Dict<int64_t, ffi::Any> dict;
  ffi::Variant<int64_t, ffi::String> variant;
  ffi::Variant<ffi::Array<int64_t>, ffi::Map<ffi::String, int64_t>> object_variant;
  ffi::Tuple<int64_t, ffi::String> tuple;
  ffi::Any any;
  ffi::ObjectRef object;
  ffi::ObjectPtr<ffi::Object> object_ptr;
  ffi::Function function;
  ffi::Tensor tensor;
  ffi::Shape shape;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("layout.Probe", ProbeObj, ffi::Object);
};

#define LAYOUT_FIELD(name) .def_rw(#name, &ProbeObj::name)

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::ObjectDef<ProbeObj>(refl::init(false))
      LAYOUT_FIELD(flag) LAYOUT_FIELD(i8) LAYOUT_FIELD(i32) LAYOUT_FIELD(i64) LAYOUT_FIELD(f32)
      LAYOUT_FIELD(f64) LAYOUT_FIELD(dtype) LAYOUT_FIELD(device) LAYOUT_FIELD(handle)
      LAYOUT_FIELD(str) LAYOUT_FIELD(bytes) LAYOUT_FIELD(opt_int) LAYOUT_FIELD(opt_float)
      LAYOUT_FIELD(opt_bool) LAYOUT_FIELD(opt_str) LAYOUT_FIELD(opt_dtype) LAYOUT_FIELD(opt_device)
      LAYOUT_FIELD(opt_array) LAYOUT_FIELD(opt_object) LAYOUT_FIELD(opt_tensor)
      LAYOUT_FIELD(opt_function) LAYOUT_FIELD(opt_variant) LAYOUT_FIELD(opt_object_ptr)
      LAYOUT_FIELD(array) LAYOUT_FIELD(any_array) LAYOUT_FIELD(list) LAYOUT_FIELD(map)
      LAYOUT_FIELD(dict) LAYOUT_FIELD(variant) LAYOUT_FIELD(object_variant) LAYOUT_FIELD(tuple)
      LAYOUT_FIELD(any) LAYOUT_FIELD(object) LAYOUT_FIELD(object_ptr) LAYOUT_FIELD(function)
      LAYOUT_FIELD(tensor) LAYOUT_FIELD(shape);
}

}  // namespace layout
