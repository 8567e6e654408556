// Structural visiting from C++ written against the REFERENCE headers (tvm/ffi/extra/structural_visit.h),
// loaded into either runtime by tests/compat/scripts/structural_walk_behaviour.py:
//  - demo.SwapPair has a native __s_visit__ hook (the reference's FStructuralVisit ABI): it visits
//    `second`, then `first` inside a Simple def region. Python's structural_walk must call it;
//  - demo.walk_regions / demo.walk_find_int run the header-only C++ walk engine over any graph,
//    which on our runtime goes through our container hooks, reflected fields, VisitInterrupt
//    type and the visitor layout (vtable at 24, def region at 32).
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/tvm_ffi.h>

#include <cstdint>

namespace demo {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

class SwapPairObj : public ffi::Object {
 public:
  ffi::Any first;
  ffi::Any second;

  SwapPairObj(ffi::Any first, ffi::Any second) : first(first), second(second) {}

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("demo.SwapPair", SwapPairObj, ffi::Object);
};

ffi::Expected<ffi::Optional<ffi::VisitInterrupt>> SwapPairVisit(ffi::StructuralVisitorObj* visitor,
                                                                ffi::AnyView value) noexcept {
  const SwapPairObj* self = value.as<SwapPairObj>();
  TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN(visitor->VisitExpected(self->second));
  return visitor->WithDefRegionKind(kTVMFFIDefRegionKindSimple,
                                    [&]() { return visitor->VisitExpected(self->first); });
}

ffi::ObjectRef MakeSwapPair(ffi::Any first, ffi::Any second) {
  return ffi::ObjectRef(ffi::make_object<SwapPairObj>(first, second));
}

// Every visited value with the def region it was met in, pre-order.
ffi::Array<ffi::Any> WalkRegions(ffi::AnyView root) {
  ffi::Array<ffi::Any> out;
  ffi::StructuralWalk<ffi::WalkOrder::kPreOrder>(
      root, [&](ffi::AnyView value, TVMFFIDefRegionKind kind) -> ffi::Expected<ffi::WalkResult> {
        out.push_back(ffi::Array<ffi::Any>{ffi::Any(value), static_cast<int64_t>(kind)});
        return ffi::WalkResult::Advance();
      });
  return out;
}

// Post-order; stops at the first int equal to target.
ffi::Optional<ffi::VisitInterrupt> WalkFindInt(ffi::AnyView root, int64_t target) {
  return ffi::StructuralWalk<ffi::WalkOrder::kPostOrder>(
      root, [&](int64_t value) -> ffi::Expected<ffi::WalkResult> {
        if (value == target) return ffi::WalkResult::Interrupt(ffi::VisitInterrupt(value * 10));
        return ffi::WalkResult::Advance();
      });
}

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<SwapPairObj>(refl::init(false))
      .def_ro("first", &SwapPairObj::first)
      .def_ro("second", &SwapPairObj::second);
  refl::TypeAttrDef<SwapPairObj>().native_fn_attr<&SwapPairVisit>(ffi::type_attr::kStructuralVisit);
  refl::GlobalDef()
      .def("demo.make_swap_pair", MakeSwapPair)
      .def("demo.walk_regions", WalkRegions)
      .def("demo.walk_find_int", WalkFindInt);
}

}  // namespace demo
