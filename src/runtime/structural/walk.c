/*
 * structural/walk.c -- ffi.StructuralWalk and ffi.StructuralVisit: typed callbacks over the
 * runtime visitor (visit_engine.c).
 *
 * Callback entries are (type_index, function) pairs tried in order; the first that matches a
 * value is called (visit_callback.c matches and calls them). The walk's plain callbacks come
 * before its def-region-aware ones, which also receive the current TVMFFIDefRegionKind.
 *
 * A walk callback returns None or WalkResult: 1 (Skip) prunes the children of a pre-order
 * value, any other int goes on; a VisitInterrupt stops the walk and is returned. A visit
 * callback receives (value, visitor), visits whatever children it wants through the visitor and
 * returns None or a VisitInterrupt; values no callback matches descend by default.
 */
#include <stdio.h>
#include <stdlib.h>

#include "visit.h"

#define ENTRIES_TYPE "Array<Tuple<int, ffi.Function>>"
static const char kWalkSig[] =
    "ffi.StructuralWalk(0: AnyView, 1: " ENTRIES_TYPE ", 2: " ENTRIES_TYPE
    ", 3: int) -> Optional<ffi.VisitInterrupt>";
static const char kVisitSig[] =
    "ffi.StructuralVisit(0: AnyView, 1: " ENTRIES_TYPE ") -> Optional<ffi.VisitInterrupt>";

/* ---- argument parsing ---- */

static int raise_entries(const char* sig, int32_t arg, const char* got) {
  return ffi_raise("TypeError",
                   "Mismatched type on argument #%d when calling: `%s`. Expected `" ENTRIES_TYPE
                   "` but got `%s`",
                   (int)arg, sig, got);
}

static bool is_seq(const TVMFFIAny* v) {
  return (v->type_index == kTVMFFIArray || v->type_index == kTVMFFIList) && v->v_obj != NULL;
}

/* Appends the entries of args[arg] to entries[*n] (capacity checked by the caller). */
static int parse_entries(const char* sig, const TVMFFIAny* args, int32_t arg, bool with_region,
                         FfiVisitEntry* entries, int32_t* n) {
  char got[160];
  if (!is_seq(&args[arg])) {
    TVMFFIByteArray k = ffi_type_key_of(args[arg].type_index);
    snprintf(got, sizeof(got), "%.*s", (int)k.size, k.data);
    return raise_entries(sig, arg, got);
  }
  TVMFFISeqCell* cell = ffi_seq_cell(args[arg].v_obj);
  for (int64_t i = 0; i < cell->size; ++i) {
    const TVMFFIAny* item = &ffi_seq_items(args[arg].v_obj)[i];
    if (!is_seq(item)) {
      TVMFFIByteArray k = ffi_type_key_of(item->type_index);
      snprintf(got, sizeof(got), "Array[index %lld: %.*s]", (long long)i, (int)k.size, k.data);
      return raise_entries(sig, arg, got);
    }
    TVMFFISeqCell* pair = ffi_seq_cell(item->v_obj);
    if (pair->size != 2) {
      snprintf(got, sizeof(got), "Array[index %lld: Array[size=%lld]]", (long long)i,
               (long long)pair->size);
      return raise_entries(sig, arg, got);
    }
    const TVMFFIAny* type = &ffi_seq_items(item->v_obj)[0];
    const TVMFFIAny* fn = &ffi_seq_items(item->v_obj)[1];
    int bad = type->type_index != kTVMFFIInt ? 0 : fn->type_index != kTVMFFIFunction ? 1 : -1;
    if (bad >= 0) {
      TVMFFIByteArray k = ffi_type_key_of(bad == 0 ? type->type_index : fn->type_index);
      snprintf(got, sizeof(got), "Array[index %lld: Array[index %d: %.*s]]", (long long)i, bad,
               (int)k.size, k.data);
      return raise_entries(sig, arg, got);
    }
    FfiVisitEntry* e = &entries[(*n)++];
    e->type_index = (int32_t)type->v_int64;
    e->with_region = with_region;
    e->fn = fn->v_obj;
    ffi_incref(e->fn);
  }
  return 0;
}

static int64_t entry_count(const TVMFFIAny* v) {
  return is_seq(v) ? ffi_seq_cell(v->v_obj)->size : 0;
}

int ffi_visit_parse_entries(const char* sig, const TVMFFIAny* args, int32_t first, int32_t count,
                             FfiVisitEntry** out, int32_t* n) {
  int64_t total = 0;
  for (int32_t a = first; a < first + count; ++a) total += entry_count(&args[a]);
  FfiVisitEntry* entries = (FfiVisitEntry*)malloc((size_t)(total > 0 ? total : 1) * sizeof(FfiVisitEntry));
  if (entries == NULL) return ffi_raise("MemoryError", "out of memory in %s", sig);
  *n = 0;
  for (int32_t a = first; a < first + count; ++a) {
    if (parse_entries(sig, args, a, a > first, entries, n) != 0) {
      for (int32_t i = 0; i < *n; ++i) ffi_decref(entries[i].fn);
      free(entries);
      return -1;
    }
  }
  *out = entries;
  return 0;
}

/* Visits args[0] with a new visitor owning `entries`. */
static int run_entries(FfiVisitMode mode, FfiVisitEntry* entries, int32_t n, const TVMFFIAny* args,
                       TVMFFIAny* result) {
  FfiVisitor* v;
  if (ffi_visitor_new(mode, entries, n, &v) != 0) return -1;
  TVMFFIAny root;
  int rc = ffi_arg_value(&args[0], &root);
  if (rc == 0) {
    rc = ffi_visitor_run(v, &root, result);
    ffi_arg_value_done(&args[0], &root);
  }
  ffi_decref(&v->base.header);
  return rc;
}

/* ffi.StructuralWalk(root, callbacks, callbacks_with_def_region, order); arguments are checked
 * in order, as the reference does. */
static int global_walk(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  FfiVisitEntry* entries;
  int32_t n;
  int64_t order;
  if (ffi_check_num_args(kWalkSig, num_args, 4) != 0 ||
      ffi_visit_parse_entries(kWalkSig, args, 1, 2, &entries, &n) != 0) {
    return -1;
  }
  if (ffi_arg_int(kWalkSig, args, 3, &order) != 0) {
    for (int32_t i = 0; i < n; ++i) ffi_decref(entries[i].fn);
    free(entries);
    return -1;
  }
  return run_entries(order == 0 ? FFI_VISIT_PRE : FFI_VISIT_POST, entries, n, args, result);
}

/* ffi.StructuralVisit(root, callbacks) */
static int global_visit(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  FfiVisitEntry* entries;
  int32_t n;
  if (ffi_check_num_args(kVisitSig, num_args, 2) != 0 ||
      ffi_visit_parse_entries(kVisitSig, args, 1, 1, &entries, &n) != 0) {
    return -1;
  }
  return run_entries(FFI_VISIT_OWN, entries, n, args, result);
}

void ffi_register_walk_globals(void) {
  ffi_register_builtin("ffi.StructuralWalk", global_walk);
  ffi_register_builtin("ffi.StructuralVisit", global_visit);
}
