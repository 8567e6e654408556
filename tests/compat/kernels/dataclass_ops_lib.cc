// A library that uses tvm/ffi/extra/dataclass.h: DeepCopy, ReprPrint, RecursiveHash, the
// Recursive comparisons, the operator<< overloads and the hook attribute keys, exposed as
// `dc.*` global functions (tests/compat/test_reflection_tool_headers.py).
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/tvm_ffi.h>

#include <cstdint>
#include <sstream>
#include <string>

namespace dc {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

class PairObj : public ffi::Object {
 public:
  int64_t first = 0;
  ffi::String second;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("dc.Pair", PairObj, ffi::Object);
};

ffi::String Streamed(ffi::Any value) {
  std::ostringstream os;
  os << value << " | " << ffi::Optional<int64_t>(std::nullopt) << " | " << ffi::Optional<int64_t>(int64_t{2}) << " | "
     << ffi::Variant<ffi::String, int64_t>(int64_t{3});
  if (auto obj = value.try_cast<ffi::ObjectRef>()) os << " | " << *obj;
  return os.str();
}

ffi::Array<ffi::Any> Compare(ffi::Any a, ffi::Any b) {
  return ffi::Array<ffi::Any>{ffi::RecursiveEq(a, b), ffi::RecursiveLt(a, b), ffi::RecursiveLe(a, b),
                              ffi::RecursiveGt(a, b), ffi::RecursiveGe(a, b),
                              ffi::RecursiveHash(a) == ffi::RecursiveHash(b)};
}

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<PairObj>().def_rw("first", &PairObj::first).def_rw("second", &PairObj::second);
  refl::GlobalDef()
      .def("dc.deep_copy", [](ffi::Any value) { return ffi::DeepCopy(value); })
      .def("dc.repr", [](ffi::Any value) { return ffi::ReprPrint(value); })
      .def("dc.hash_is_int", [](ffi::Any value) { return ffi::RecursiveHash(value) == ffi::RecursiveHash(value); })
      .def("dc.compare", Compare)
      .def("dc.stream", Streamed)
      .def("dc.hook_names", []() {
        return ffi::Array<ffi::String>{ffi::type_attr::kRepr.name, ffi::type_attr::kHash.name,
                                       ffi::type_attr::kEq.name, ffi::type_attr::kCompare.name};
      });
}

}  // namespace dc
