// One reflected object type with a read-write field per common field type (scalars, strings,
// dtype, device, Optional, containers, Variant, Tuple, Shape, tensor, function, Any, ObjectRef),
// registered with refl::ObjectDef and a default constructor. Assigning Python values to its
// fields runs the header-generated field setters: they convert, or refuse with a TypeError.
// Built against the reference's headers and against ours (tests/compat/test_header_grids.py).
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/tvm_ffi.h>

namespace setters {
namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

class AllFieldsObj : public ffi::Object {
 public:
  int64_t i64 = 0;
  int32_t i32 = 0;
  double f64 = 0;
  float f32 = 0;
  bool b = false;
  ffi::String s;
  ffi::Bytes by;
  DLDataType dt{kDLFloat, 32, 1};
  DLDevice dev{kDLCPU, 0};
  ffi::Optional<int64_t> oi;
  ffi::Optional<ffi::String> os;
  ffi::Array<int64_t> ai;
  ffi::Array<ffi::Any> aa;
  ffi::List<ffi::String> ls;
  ffi::Map<ffi::String, int64_t> msi;
  ffi::Dict<ffi::Any, ffi::Any> daa;
  ffi::Variant<int64_t, ffi::String> v = int64_t(0);  // not nullable: needs a value
  ffi::Tuple<int64_t, ffi::String> tup{int64_t(0), ffi::String("")};
  ffi::Shape shape;
  ffi::Optional<ffi::Tensor> ten;
  ffi::Optional<ffi::Function> fn;
  ffi::Any any;
  ffi::ObjectRef obj;
  ffi::Optional<ffi::Array<ffi::Optional<int64_t>>> nested;

  AllFieldsObj() = default;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("setters.AllFields", AllFieldsObj, ffi::Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  using T = AllFieldsObj;
  refl::ObjectDef<T>()
      .def(refl::init<>())
      .def_rw("i64", &T::i64)
      .def_rw("i32", &T::i32)
      .def_rw("f64", &T::f64)
      .def_rw("f32", &T::f32)
      .def_rw("b", &T::b)
      .def_rw("s", &T::s)
      .def_rw("by", &T::by)
      .def_rw("dt", &T::dt)
      .def_rw("dev", &T::dev)
      .def_rw("oi", &T::oi)
      .def_rw("os", &T::os)
      .def_rw("ai", &T::ai)
      .def_rw("aa", &T::aa)
      .def_rw("ls", &T::ls)
      .def_rw("msi", &T::msi)
      .def_rw("daa", &T::daa)
      .def_rw("v", &T::v)
      .def_rw("tup", &T::tup)
      .def_rw("shape", &T::shape)
      .def_rw("ten", &T::ten)
      .def_rw("fn", &T::fn)
      .def_rw("any", &T::any)
      .def_rw("obj", &T::obj)
      .def_rw("nested", &T::nested);
}
}  // namespace setters
