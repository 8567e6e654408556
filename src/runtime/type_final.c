/*
 * type_final.c -- the `__ffi_type_final__` type attribute of the runtime's reflected types.
 *
 * Whether a type admits subtypes is in no other part of its reflection; binding generators
 * (tvm-ffi-stubgen, its layout coverage report) read it from this column. Types registered by
 * C++ headers get it from ObjectDef; the runtime's own types, defined in C, are listed here with
 * the values the reference registers for them. Registered once, at load, after every type.
 */
#include "internal.h"

typedef struct {
  const char* key;
  bool final;
} FinalEntry;

static const FinalEntry kRuntimeTypes[] = {
    {"ffi.BigInt", true},
    {"ffi.Module", true},
    {"ffi.Enum", false},
    {"ffi.IntEnum", false},
    {"ffi.StrEnum", false},
    {"ffi.EnumState", true},
    {"ffi.StructuralKey", true},
    {"ffi.StructuralMutator", false},
    {"ffi.StructuralVisitor", false},
    {"ffi.VisitInterrupt", true},
    {"ffi.reflection.AccessPath", true},
    {"ffi.reflection.AccessStep", true},
};

void ffi_register_type_final_attrs(void) {
  static const TVMFFIByteArray kName = {"__ffi_type_final__", 18};
  for (size_t i = 0; i < sizeof(kRuntimeTypes) / sizeof(kRuntimeTypes[0]); ++i) {
    TVMFFIByteArray key = {kRuntimeTypes[i].key, strlen(kRuntimeTypes[i].key)};
    int32_t index;
    if (TVMFFITypeKeyToIndex(&key, &index) != 0) {
      ffi_fatal("ffi_register_type_final_attrs", "type %s is not registered", kRuntimeTypes[i].key);
    }
    TVMFFIAny value = ffi_any_none();
    value.type_index = kTVMFFIBool;
    value.v_int64 = kRuntimeTypes[i].final;
    if (TVMFFITypeRegisterAttr(index, &kName, &value) != 0) {
      ffi_fatal("ffi_register_type_final_attrs", "attribute of %s", kRuntimeTypes[i].key);
    }
  }
}
