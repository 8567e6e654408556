// Structural mutation from C++ written against the REFERENCE headers
// (tvm/ffi/extra/structural_mutate.h), loaded into either runtime by
// tests/compat/scripts/structural_mutate_behaviour.py:
//  - demo.MutPair has a native __s_mutate__ hook (the reference's FStructuralMutate ABI): it
//    mutates `second`, then `first` inside a Simple def region, and returns the Unchanged marker
//    when neither changed. Python's structural_map must call it;
//  - demo.map_add / demo.mutate_negate run the header-only C++ map and mutate engines over any
//    graph, which on our runtime go through our container hooks, reflected fields,
//    __ffi_shallow_copy__ and the mutator layout (vtable at 24, def region at 32).
#include <tvm/ffi/extra/structural_mutate.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/tvm_ffi.h>

#include <cstdint>

namespace demo {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

class MutPairObj : public ffi::Object {
 public:
  ffi::Any first;
  ffi::Any second;

  MutPairObj(ffi::Any first, ffi::Any second) : first(first), second(second) {}

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("demo.MutPair", MutPairObj, ffi::Object);
};

ffi::Expected<ffi::UnchangedOr<ffi::Any>> MutPairMutate(ffi::StructuralMutatorObj* mutator,
                                                        ffi::AnyView value) noexcept {
  const MutPairObj* self = value.as<MutPairObj>();
  TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN(ffi::UnchangedOr<ffi::Any>, second,
                                    mutator->MutateExpected(self->second));
  TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN(
      ffi::UnchangedOr<ffi::Any>, first,
      mutator->WithDefRegionKind(kTVMFFIDefRegionKindSimple,
                                 [&]() { return mutator->MutateExpected(self->first); }));
  if (first.UnchangedOrSameAs(self->first) && second.UnchangedOrSameAs(self->second)) {
    return ffi::Unchanged();
  }
  return ffi::Any(ffi::make_object<MutPairObj>(std::move(first).ValueOrUnchanged(self->first),
                                               std::move(second).ValueOrUnchanged(self->second)));
}

ffi::ObjectRef MakeMutPair(ffi::Any first, ffi::Any second) {
  return ffi::ObjectRef(ffi::make_object<MutPairObj>(first, second));
}

// Post-order typed map: every int gets `delta` added, every float is negated.
ffi::Any MapAdd(ffi::Any root, int64_t delta) {
  return ffi::StructuralMap<ffi::WalkOrder::kPostOrder>(
      std::move(root), [&](int64_t value) -> ffi::Expected<ffi::Any> { return ffi::Any(value + delta); },
      [](double value) -> ffi::Expected<ffi::Any> { return ffi::Any(-value); });
}

// Callback-owned mutation: arrays descend by default, ints are negated; the in-place modes seen
// by the array callback are recorded into `modes`.
ffi::Array<ffi::Any> MutateNegate(ffi::Any root) {
  ffi::Array<ffi::Any> modes;
  ffi::Any result = ffi::StructuralMutate(
      std::move(root),
      [&](ffi::Array<ffi::Any> value, ffi::StructuralMutatorObj* mutator,
          ffi::InplaceMode mode) -> ffi::Expected<ffi::Any> {
        modes.push_back(static_cast<int64_t>(mode));
        TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN(ffi::UnchangedOr<ffi::Any>, out,
                                          mutator->DefaultMutateExpected(value, mode));
        return std::move(out).ValueOrUnchanged(ffi::AnyView(value));
      },
      [](int64_t value, ffi::StructuralMutatorObj*) -> ffi::Expected<ffi::Any> {
        return ffi::Any(-value);
      });
  return ffi::Array<ffi::Any>{result, ffi::Any(modes)};
}

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<MutPairObj>(refl::init(false))
      .def_ro("first", &MutPairObj::first)
      .def_ro("second", &MutPairObj::second);
  refl::TypeAttrDef<MutPairObj>().native_fn_attr<&MutPairMutate>(
      ffi::type_attr::kStructuralMutate);
  refl::GlobalDef()
      .def("demo.make_mut_pair", MakeMutPair)
      .def("demo.map_add", MapAdd)
      .def("demo.mutate_negate", MutateNegate);
}

}  // namespace demo
