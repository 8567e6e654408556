/*
 * type_final.c -- `__ffi_type_final__` of the fixture types, with the values the reference's
 * testing library registers (its C++ ObjectDef records `_type_final`; ours are defined in C).
 */
#include <string.h>

#include "testing_internal.h"

typedef struct {
  const char* key;
  bool final;
} FinalEntry;

static const FinalEntry kFixtureTypes[] = {
    {"testing.SchemaAllTypes", false},
    {"testing.TestCompare", true},
    {"testing.TestCustomCompare", true},
    {"testing.TestCustomHash", true},
    {"testing.TestCxxAutoInit", false},
    {"testing.TestCxxAutoInitAllInitOff", false},
    {"testing.TestCxxAutoInitChild", true},
    {"testing.TestCxxAutoInitKwOnlyDefaults", false},
    {"testing.TestCxxAutoInitParent", false},
    {"testing.TestCxxAutoInitSimple", false},
    {"testing.TestCxxClassBase", false},
    {"testing.TestCxxClassDerived", false},
    {"testing.TestCxxClassDerivedDerived", false},
    {"testing.TestCxxClassHiddenField", true},
    {"testing.TestCxxClassPolymorphic", true},
    {"testing.TestCxxEnumHolder", false},
    {"testing.TestCxxInitSubset", false},
    {"testing.TestCxxIntEnum", true},
    {"testing.TestCxxKwOnly", false},
    {"testing.TestCxxNoAutoInit", false},
    {"testing.TestCxxStrEnum", true},
    {"testing.TestDeepCopyEdges", false},
    {"testing.TestEnumVariant", true},
    {"testing.TestEqWithoutHash", true},
    {"testing.TestHash", true},
    {"testing.TestIntPair", true},
    {"testing.TestNonCopyable", false},
    {"testing.TestObjectBase", false},
    {"testing.TestObjectDerived", true},
    {"testing.TestObjectPtrHolder", false},
    {"testing.TestUnregisteredBaseObject", false},
    {"testing.TestUnregisteredObject", false},
    {"testing.TestVisitHook", true},
    {"testing.TestVisitRegions", true},
};

int testing_register_type_final(void) {
  static const TVMFFIByteArray kName = {"__ffi_type_final__", 18};
  for (size_t i = 0; i < sizeof(kFixtureTypes) / sizeof(kFixtureTypes[0]); ++i) {
    TVMFFIByteArray key = {kFixtureTypes[i].key, strlen(kFixtureTypes[i].key)};
    int32_t index;
    if (TVMFFITypeKeyToIndex(&key, &index) != 0) return -1;
    TVMFFIAny value;
    memset(&value, 0, sizeof(value));
    value.type_index = kTVMFFIBool;
    value.v_int64 = kFixtureTypes[i].final;
    if (TVMFFITypeRegisterAttr(index, &kName, &value) != 0) return -1;
  }
  return 0;
}
