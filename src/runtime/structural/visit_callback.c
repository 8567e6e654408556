/*
 * structural/visit_callback.c -- the typed callbacks of a runtime visitor: the first entry that
 * matches a value is called, and its result read as the walk or visit mode asks. The engine
 * (visit_engine.c) calls this at each value; walk.c builds the entries from its arguments.
 *
 * type_index -1 matches everything, ffi.Object any object, str/bytes also their small inline
 * forms, another object type its subtypes, and a POD index only itself (int matches neither
 * bool nor float).
 */
#include "visit.h"

bool ffi_visit_entry_matches(int32_t want, int32_t t) {
  if (want == -1 || want == t) return true;
  if (want == kTVMFFIStr) return t == kTVMFFISmallStr;
  if (want == kTVMFFIBytes) return t == kTVMFFISmallBytes;
  return want >= kTVMFFIStaticObjectBegin && ffi_is_object_index(t) &&
         ffi_type_is_instance(t, want);
}

static int raise_result_type(const char* expected, int32_t actual) {
  TVMFFIByteArray k = ffi_type_key_of(actual);
  return ffi_raise("TypeError", "CallExpected: result type mismatch, expected %s, but got %.*s",
                   expected, (int)k.size, k.data);
}

int ffi_visitor_callback(FfiVisitor* v, const TVMFFIAny* value, int* action, TVMFFIAny* out) {
  *action = FFI_WALK_UNMATCHED;
  const FfiVisitEntry* e;
  if (value->type_index == v->match_type) {
    e = v->match_entry;
  } else {
    e = NULL;
    for (int32_t i = 0; i < v->num_entries; ++i) {
      if (ffi_visit_entry_matches(v->entries[i].type_index, value->type_index)) {
        e = &v->entries[i];
        break;
      }
    }
    v->match_type = value->type_index;
    v->match_entry = e;
  }
  if (e == NULL) {
    if (v->mode != FFI_VISIT_OWN) *action = FFI_WALK_ADVANCE;
    return 0;
  }
  TVMFFIAny args[2];
  args[0] = *value;
  args[1] = ffi_any_none();
  int32_t num_args = 1;
  if (v->mode == FFI_VISIT_OWN) {
    args[1].type_index = v->base.header.type_index;
    args[1].v_obj = &v->base.header;
    num_args = 2;
  } else if (e->with_region) {
    args[1].type_index = kTVMFFIInt;
    args[1].v_int64 = v->base.def_region;
    num_args = 2;
  }
  TVMFFIAny fn = ffi_any_from_object(e->fn);
  TVMFFIAny result;
  if (ffi_call(&fn, args, num_args, &result) != 0) return -1;
  *action = FFI_WALK_ADVANCE;
  switch (result.type_index) {
    case kTVMFFINone:
      return 0;
    case kTVMFFIVisitInterrupt:
      *out = result;
      return 0;
    case kTVMFFIInt:
    case kTVMFFIBool:
      if (v->mode != FFI_VISIT_OWN) {
        if (result.v_int64 == FFI_WALK_SKIP) *action = FFI_WALK_SKIP;
        return 0;
      }
      break;
    default:
      break;
  }
  int32_t actual = result.type_index;
  ffi_any_release(&result);
  return raise_result_type(v->mode == FFI_VISIT_OWN ? "Optional<ffi.VisitInterrupt>" : "WalkResult",
                           actual);
}
