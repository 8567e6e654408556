/*
 * structural/access_steps.h -- plain access steps used while walking (turned into
 * ffi.reflection.AccessPath objects only when a mismatch is reported).
 */
#ifndef TVM_FFI_RUNTIME_STRUCTURAL_ACCESS_STEPS_H_
#define TVM_FFI_RUNTIME_STRUCTURAL_ACCESS_STEPS_H_

#include "graph_util.h"

/* AccessKind values (spec STRUCTURAL.md section 5.1); kStepNone = no step. */
enum {
  kStepNone = -1,
  kStepAttr = 0,
  kStepArrayItem = 1,
  kStepMapItem = 2,
  kStepAttrMissing = 3,
  kStepArrayItemMissing = 4,
  kStepMapItemMissing = 5,
};

typedef struct {
  int32_t kind;
  TVMFFIAny key; /* owned: str for attrs, int for items, any value for map keys */
} FfiStep;

static inline FfiStep ffi_step_none(void) {
  FfiStep s;
  s.kind = kStepNone;
  s.key = ffi_any_none();
  return s;
}
static inline FfiStep ffi_step_index(int32_t kind, int64_t i) {
  FfiStep s;
  s.kind = kind;
  s.key = ffi_any_none();
  s.key.type_index = kTVMFFIInt;
  s.key.v_int64 = i;
  return s;
}
/* Step whose key is a retained copy of key. */
static inline FfiStep ffi_step_key(int32_t kind, const TVMFFIAny* key) {
  FfiStep s;
  s.kind = kind;
  s.key = ffi_any_retain(key);
  return s;
}
/* Attr step naming a field (the name becomes an owned str). */
int ffi_step_attr(int32_t kind, TVMFFIByteArray name, FfiStep* out);
static inline void ffi_step_release(FfiStep* s) { ffi_any_release(&s->key); }

/* access_path.c: an AccessPath from the root through the given steps (kStepNone skipped). */
int ffi_access_path_from_steps(const FfiStep* const* steps, size_t n, TVMFFIObject** out);

#endif /* TVM_FFI_RUNTIME_STRUCTURAL_ACCESS_STEPS_H_ */
