// test_enum.cc -- enum.h / reflection/enum_def.h: enum types derived from EnumObj / IntEnumObj /
// StrEnumObj, members registered with EnumDef (indices, attributes), lookups by canonical index,
// and the EnumState the runtime and other frontends read (the `__ffi_enum__` type attribute).
#include <tvm/ffi/enum.h>
#include <tvm/ffi/reflection/enum_def.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/tvm_ffi.h>

#include "check.h"

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

class ModeObj : public ffi::EnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.cpp.Mode", ModeObj, ffi::EnumObj);
};

class LevelObj : public ffi::IntEnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.cpp.Level", LevelObj, ffi::IntEnumObj);
};

class UnitObj : public ffi::StrEnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.cpp.Unit", UnitObj, ffi::StrEnumObj);
};

static int64_t MeterHash(const ffi::Any&) { return 1000; }

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<ModeObj>();
  refl::EnumDef<ModeObj>("fast").set_attr("cost", 1);
  refl::EnumDef<ModeObj>("slow").set_attr("cost", 5).set_attr("label", ffi::String("careful"));
  refl::EnumDef<LevelObj>("low", 1);
  refl::EnumDef<LevelObj>("high", 10);
  refl::EnumDef<UnitObj>("meter")
      .set_attr(ffi::type_attr::kTypeFinal, true)  // a typed key: the value is made a bool
      .set_native_fn_attr<&MeterHash>(ffi::type_attr::kAnyHash);
}

static ffi::EnumState StateOf(int32_t type_index) {
  ffi::EnumStateObj* state = ffi::detail::FindEnumState(type_index);
  CHECK(state != nullptr);
  return ffi::detail::ObjectUnsafe::ObjectRefFromObjectPtr<ffi::EnumState>(
      ffi::detail::ObjectUnsafe::ObjectPtrFromUnowned<ffi::Object>(state));
}

static void test_members_and_indices() {
  ffi::Enum fast = ffi::EnumObj::_GetByStrIndex<ModeObj>("fast");
  ffi::Enum slow = ffi::EnumObj::_GetByIntIndex<ModeObj>(1);
  CHECK_EQ(fast->_int_index, 0);
  CHECK(fast->_str_index == "fast");
  CHECK(slow->_str_index == "slow");
  CHECK_EQ(fast->type_index(), ModeObj::RuntimeTypeIndex());
  CHECK(ffi::EnumObj::_GetByStrIndex<ModeObj>("fast").same_as(fast));  // one singleton
  ffi::Enum high = ffi::EnumObj::_GetByIntIndex<LevelObj>(10);
  CHECK(high->_str_index == "high");
  CHECK_EQ(ffi::EnumObj::_GetByStrIndex<UnitObj>("meter")->_int_index, 0);
  CHECK(refl::EnumDef<ModeObj>::IsDefined("slow"));
  CHECK(!refl::EnumDef<ModeObj>::IsDefined("medium"));
}

static void test_missing_index_raises_value_error() {
  bool raised = false;
  try {
    ffi::EnumObj::_GetByIntIndex<LevelObj>(7);
  } catch (const ffi::Error& err) {
    raised = err.kind() == "ValueError" &&
             std::string(err.message()) == "Enum `test.cpp.Level` has no instance with index 7";
  }
  CHECK(raised);
}

static void test_state_holds_entries_indexes_and_attrs() {
  ffi::EnumState state = StateOf(ModeObj::RuntimeTypeIndex());
  CHECK_EQ(state->entries.size(), 2u);
  CHECK_EQ(state->indexes.size(), 4u);
  ffi::Dict<ffi::ObjectRef, ffi::Any> cost = state->attrs.at("cost");
  CHECK_EQ(cost.at(ffi::EnumObj::_GetByStrIndex<ModeObj>("slow")).cast<int64_t>(), 5);
  CHECK_EQ(state->attrs.at("label").size(), 1u);
  // Attributes by typed key, and a native hook kept as its view and callable from there.
  ffi::EnumState units = StateOf(UnitObj::RuntimeTypeIndex());
  ffi::Enum meter = ffi::EnumObj::_GetByStrIndex<UnitObj>("meter");
  CHECK(units->attrs.at(ffi::type_attr::kTypeFinal.name).at(meter).cast<bool>());
  ffi::Any hook = units->attrs.at(ffi::type_attr::kAnyHash.name).at(meter);
  CHECK_EQ(hook.type_index(), ffi::TypeIndex::kTVMFFIOpaquePtr);
  using HashHook = refl::NativeFunctionView<int64_t(const ffi::Any&)>;
  CHECK_EQ(hook.cast<HashHook>()(ffi::Any(meter)), 1000);
}

static void test_runtime_prints_and_serialises_members() {
  ffi::Enum slow = ffi::EnumObj::_GetByStrIndex<ModeObj>("slow");
  ffi::String text = ffi::Function::GetGlobalRequired("ffi.ReprPrint")(slow).cast<ffi::String>();
  CHECK(text == "test.cpp.Mode.slow");
  ffi::Any graph = ffi::Function::GetGlobalRequired("ffi.ToJSONGraph")(slow);
  ffi::Any back = ffi::Function::GetGlobalRequired("ffi.FromJSONGraph")(graph);
  CHECK(back.cast<ffi::ObjectRef>().same_as(slow));
  ffi::Any copy = ffi::Function::GetGlobalRequired("ffi.DeepCopy")(slow);
  CHECK(copy.cast<ffi::ObjectRef>().same_as(slow));
}

static void test_layout_matches_the_runtime() {
  ModeObj probe;
  const char* header = reinterpret_cast<const char*>(static_cast<ffi::Object*>(&probe));
  CHECK_EQ(reinterpret_cast<const char*>(&probe._int_index) - header, 24);
  CHECK_EQ(reinterpret_cast<const char*>(&probe._str_index) - header, 32);
  CHECK_EQ(sizeof(ffi::EnumObj), 48u);
  CHECK_EQ(sizeof(ffi::EnumStateObj), 48u);
}

int main() {
  RUN(test_layout_matches_the_runtime);
  RUN(test_members_and_indices);
  RUN(test_missing_index_raises_value_error);
  RUN(test_state_holds_entries_indexes_and_attrs);
  RUN(test_runtime_prints_and_serialises_members);
  return check_failed_tests;
}
