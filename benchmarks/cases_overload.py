"""Overload cases: calling methods registered several times under one name with
``refl::OverloadObjectDef`` (reflection/overload.h), where each call picks its signature.

Both packages compile the same kernel with ``tvm_ffi.cpp.load_inline`` against their own headers
(once per worker process; the setup keeps the loaded module and the Python class in a private
module so later rounds reuse them).
"""

from __future__ import annotations

from cases import Case

_SETUP = """\
import os, sys, tempfile, types
import tvm_ffi, tvm_ffi.cpp
state = sys.modules.get("_bench_overload_state")
if state is None:
    state = types.ModuleType("_bench_overload_state")
    os.environ["TVM_FFI_CACHE_DIR"] = tempfile.mkdtemp(prefix="tvm_ffi_bench_overload_")
    state.module = tvm_ffi.cpp.load_inline("bench_overload", cpp_sources='''
#include <tvm/ffi/reflection/overload.h>
#include <tvm/ffi/tvm_ffi.h>
namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;
class OVecObj : public ffi::Object {
 public:
  int64_t a, b;
  OVecObj(int64_t a, int64_t b) : a(a), b(b) {}
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("bench.OVec", OVecObj, ffi::Object);
};
TVM_FFI_STATIC_INIT_BLOCK() {
  refl::OverloadObjectDef<OVecObj>()
      .def(refl::init<int64_t, int64_t>())
      .def("total", [](const OVecObj* self) { return self->a + self->b; })
      .def("total", [](const OVecObj* self, ffi::String unit) { return unit; })
      .def("total", [](const OVecObj* self, int64_t k) { return (self->a + self->b) * k; })
      .def("single", [](const OVecObj* self, int64_t k) { return self->a * k; });
}
''', functions=[])

    @tvm_ffi.register_object("bench.OVec")
    class OVec(tvm_ffi.Object):
        pass

    state.OVec = OVec
    sys.modules["_bench_overload_state"] = state
v = state.OVec(1, 2)
"""

CASES = [
    # No target of their own: the ratio to the reference is reported (1.0 = as fast).
    Case("overload: method, 1 signature", _SETUP, "v.single(3)", ref_target=1.0),
    Case("overload: 1st of 3 signatures", _SETUP, "v.total()", ref_target=1.0),
    Case("overload: 3rd of 3 signatures", _SETUP, "v.total(3)", ref_target=1.0),
]
