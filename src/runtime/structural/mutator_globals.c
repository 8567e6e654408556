/*
 * structural/mutator_globals.c -- ffi.StructuralMap / ffi.StructuralMutate (Python's
 * structural_map / structural_mutate) and the methods of ffi.StructuralMutator as global
 * functions (mutate, default_mutate, var_remap_get/set, def_region_kind, with_def_region_kind).
 * The methods work with any mutator, the runtime's own or a C++ engine's, through the ABI
 * prefix of mutate.h.
 *
 * The root is taken as an owned value, as the reference does: a borrowed object gains a
 * reference and is therefore never mutated in place, while an rvalue reference (Python's
 * `obj._move()`) hands over the only one and allows in-place mutation along unique paths.
 */
#include <stdio.h>
#include <stdlib.h>

#include "mutate.h"

#define MUTATOR "ffi.StructuralMutator"
#define MAP_ENTRIES "Array<Tuple<int, ffi.Function>>"
#define MUTATE_ENTRIES "Array<Tuple<int, ffi.Function, bool>>"

static const char kMapSig[] = "ffi.StructuralMap(0: Any, 1: " MAP_ENTRIES ", 2: " MAP_ENTRIES
                              ", 3: int) -> Any";
static const char kMutateSig[] = "ffi.StructuralMutate(0: Any, 1: " MUTATE_ENTRIES ") -> Any";
static const char kMutatorMutateSig[] = "ffi.StructuralMutatorMutate(0: " MUTATOR ", 1: AnyView) -> Any";
static const char kDefaultSig[] =
    "ffi.StructuralMutatorDefaultMutate(0: " MUTATOR ", 1: AnyView) -> Any";
static const char kRemapGetSig[] = "ffi.StructuralMutatorVarRemapGet(0: " MUTATOR ", 1: AnyView) -> Any";
static const char kRemapSetSig[] =
    "ffi.StructuralMutatorVarRemapSet(0: " MUTATOR ", 1: AnyView, 2: AnyView) -> void";
static const char kRegionSig[] = "ffi.StructuralMutatorDefRegionKind(0: " MUTATOR ") -> int";
static const char kWithRegionSig[] =
    "ffi.StructuralMutatorWithDefRegionKind(0: " MUTATOR ", 1: int, 2: ffi.Function) -> Any";

/* ---- ffi.StructuralMap / ffi.StructuralMutate ---- */

/* Runs a new engine over an owned copy of args[0]; takes the entries. */
static int run_engine(FfiMutateMode mode, FfiMutateEntry* entries, int32_t n, const TVMFFIAny* args,
                      TVMFFIAny* result) {
  FfiMutatorBase* m;
  if (ffi_mutator_new(mode, entries, n, &m) != 0) return -1;
  TVMFFIAny root;
  int rc = TVMFFIAnyViewToOwnedAny(&args[0], &root);
  if (rc == 0) rc = ffi_mutator_run(m, root, result);
  ffi_decref(&m->header);
  return rc;
}

static int global_map(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  FfiVisitEntry* parsed = NULL;
  int32_t n = 0;
  int64_t order;
  if (ffi_check_num_args(kMapSig, num_args, 4) != 0 ||
      ffi_visit_parse_entries(kMapSig, args, 1, 2, &parsed, &n) != 0) {
    return -1;
  }
  FfiMutateEntry* entries = (FfiMutateEntry*)malloc((size_t)(n > 0 ? n : 1) * sizeof(FfiMutateEntry));
  if (entries == NULL || ffi_arg_int(kMapSig, args, 3, &order) != 0) {
    for (int32_t i = 0; i < n; ++i) ffi_decref(parsed[i].fn);
    free(parsed);
    free(entries);
    return entries == NULL ? ffi_raise("MemoryError", "out of memory in %s", kMapSig) : -1;
  }
  for (int32_t i = 0; i < n; ++i) {
    entries[i].type_index = parsed[i].type_index;
    entries[i].with_extra = parsed[i].with_region;
    entries[i].fn = parsed[i].fn; /* the reference moves over */
  }
  free(parsed);
  return run_engine(order == 0 ? FFI_MUTATE_MAP_PRE : FFI_MUTATE_MAP_POST, entries, n, args, result);
}

static bool is_seq(const TVMFFIAny* v) {
  return (v->type_index == kTVMFFIArray || v->type_index == kTVMFFIList) && v->v_obj != NULL;
}

/* Why an entry of args[1] is not a (int, Function, bool) triple, as a type text; "" when it
 * is one. */
static void describe_bad_entry(const TVMFFIAny* item, int64_t i, char* got, size_t size) {
  got[0] = '\0';
  if (!is_seq(item)) {
    TVMFFIByteArray k = ffi_type_key_of(item->type_index);
    snprintf(got, size, "Array[index %lld: %.*s]", (long long)i, (int)k.size, k.data);
    return;
  }
  TVMFFISeqCell* triple = ffi_seq_cell(item->v_obj);
  if (triple->size != 3) {
    snprintf(got, size, "Array[index %lld: Array[size=%lld]]", (long long)i, (long long)triple->size);
    return;
  }
  static const int32_t want[3] = {kTVMFFIInt, kTVMFFIFunction, kTVMFFIBool};
  for (int j = 0; j < 3; ++j) {
    int32_t t = ffi_seq_items(item->v_obj)[j].type_index;
    if (t != want[j] && !(j == 2 && t == kTVMFFIInt)) {
      TVMFFIByteArray k = ffi_type_key_of(t);
      snprintf(got, size, "Array[index %lld: Array[index %d: %.*s]]", (long long)i, j, (int)k.size,
               k.data);
      return;
    }
  }
}

static int parse_mutate_entries(const TVMFFIAny* list, FfiMutateEntry** out, int32_t* n) {
  char got[160] = "";
  if (!is_seq(list)) {
    TVMFFIByteArray k = ffi_type_key_of(list->type_index);
    snprintf(got, sizeof(got), "%.*s", (int)k.size, k.data);
  }
  int64_t count = got[0] == '\0' ? ffi_seq_cell(list->v_obj)->size : 0;
  for (int64_t i = 0; i < count && got[0] == '\0'; ++i) {
    describe_bad_entry(&ffi_seq_items(list->v_obj)[i], i, got, sizeof(got));
  }
  if (got[0] != '\0') {
    return ffi_raise("TypeError",
                     "Mismatched type on argument #1 when calling: `%s`. Expected `" MUTATE_ENTRIES
                     "` but got `%s`",
                     kMutateSig, got);
  }
  FfiMutateEntry* entries = (FfiMutateEntry*)malloc((size_t)(count > 0 ? count : 1) * sizeof(FfiMutateEntry));
  if (entries == NULL) return ffi_raise("MemoryError", "out of memory in %s", kMutateSig);
  for (int64_t i = 0; i < count; ++i) {
    const TVMFFIAny* triple = ffi_seq_items(ffi_seq_items(list->v_obj)[i].v_obj);
    entries[i].type_index = (int32_t)triple[0].v_int64;
    entries[i].fn = triple[1].v_obj;
    entries[i].with_extra = triple[2].v_int64 != 0;
    ffi_incref(entries[i].fn);
  }
  *out = entries;
  *n = (int32_t)count;
  return 0;
}

static int global_mutate(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  FfiMutateEntry* entries = NULL;
  int32_t n = 0;
  if (ffi_check_num_args(kMutateSig, num_args, 2) != 0 ||
      parse_mutate_entries(&args[1], &entries, &n) != 0) {
    return -1;
  }
  return run_engine(FFI_MUTATE_OWN, entries, n, args, result);
}

/* ---- methods of a mutator ---- */

static int arg_mutator(const char* sig, const TVMFFIAny* args, FfiMutatorBase** out) {
  TVMFFIObject* obj;
  if (ffi_arg_object(sig, args, 0, ffi_mutator_type_index(), &obj) != 0) return -1;
  *out = (FfiMutatorBase*)obj;
  return 0;
}

/* mutate / default_mutate: copy-on-write, the input itself when unchanged. */
static int mutate_with(const char* sig, bool by_default, const TVMFFIAny* args, int32_t num_args,
                       TVMFFIAny* result) {
  FfiMutatorBase* m;
  if (ffi_check_num_args(sig, num_args, 2) != 0 || arg_mutator(sig, args, &m) != 0) return -1;
  TVMFFIAny value;
  if (ffi_arg_value(&args[1], &value) != 0) return -1;
  int rc = ffi_mutator_enter(m);
  if (rc == 0) {
    /* A default descent asked for by a callback or hook records the value it failed on, as
     * the reference's DefaultMutateExpected does (the callback's own failure records it again). */
    TVMFFIAny raw = by_default ? ffi_mutator_default(m, value, FFI_INPLACE_DISALLOW)
                               : m->vtable->mutate(&m->header, value);
    if (by_default) raw = ffi_mutate_on_path(raw, value);
    ffi_mutator_leave(m);
    rc = ffi_raw_to_result(raw, &value, result);
  }
  ffi_arg_value_done(&args[1], &value);
  return rc;
}

static int global_mutator_mutate(void* self, const TVMFFIAny* args, int32_t num_args,
                                 TVMFFIAny* result) {
  (void)self;
  return mutate_with(kMutatorMutateSig, false, args, num_args, result);
}

static int global_default_mutate(void* self, const TVMFFIAny* args, int32_t num_args,
                                 TVMFFIAny* result) {
  (void)self;
  return mutate_with(kDefaultSig, true, args, num_args, result);
}

/* A raw None-or-error result of a remap call. */
static int remap_result(TVMFFIAny raw, TVMFFIAny* result) {
  if (ffi_raw_is_error(&raw)) {
    TVMFFIErrorSetRaised(raw.v_obj);
    ffi_any_release(&raw);
    return -1;
  }
  *result = raw;
  return 0;
}

static int global_remap_get(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  FfiMutatorBase* m;
  if (ffi_check_num_args(kRemapGetSig, num_args, 2) != 0 || arg_mutator(kRemapGetSig, args, &m) != 0) {
    return -1;
  }
  return remap_result(m->vtable->var_remap_get(&m->header, args[1]), result);
}

static int global_remap_set(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  FfiMutatorBase* m;
  if (ffi_check_num_args(kRemapSetSig, num_args, 3) != 0 || arg_mutator(kRemapSetSig, args, &m) != 0) {
    return -1;
  }
  TVMFFIAny mapped;
  if (ffi_arg_value(&args[2], &mapped) != 0) return -1;
  int rc = remap_result(m->vtable->var_remap_set(&m->header, args[1], mapped), result);
  ffi_arg_value_done(&args[2], &mapped);
  return rc;
}

static int global_region(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  FfiMutatorBase* m;
  if (ffi_check_num_args(kRegionSig, num_args, 1) != 0 || arg_mutator(kRegionSig, args, &m) != 0) {
    return -1;
  }
  ffi_ret_int(result, m->def_region);
  return 0;
}

/* Runs callback() with the region entered (a Pattern region is kept), restoring it after. */
static int global_with_region(void* self, const TVMFFIAny* args, int32_t num_args,
                              TVMFFIAny* result) {
  (void)self;
  FfiMutatorBase* m;
  if (ffi_check_num_args(kWithRegionSig, num_args, 3) != 0 ||
      arg_mutator(kWithRegionSig, args, &m) != 0) {
    return -1;
  }
  return ffi_call_in_def_region(kWithRegionSig, &m->def_region, args, result);
}

void ffi_register_mutator_globals(void) {
  ffi_register_builtin("ffi.StructuralMap", global_map);
  ffi_register_builtin("ffi.StructuralMutate", global_mutate);
  ffi_register_builtin("ffi.StructuralMutatorMutate", global_mutator_mutate);
  ffi_register_builtin("ffi.StructuralMutatorDefaultMutate", global_default_mutate);
  ffi_register_builtin("ffi.StructuralMutatorVarRemapGet", global_remap_get);
  ffi_register_builtin("ffi.StructuralMutatorVarRemapSet", global_remap_set);
  ffi_register_builtin("ffi.StructuralMutatorDefRegionKind", global_region);
  ffi_register_builtin("ffi.StructuralMutatorWithDefRegionKind", global_with_region);
}
