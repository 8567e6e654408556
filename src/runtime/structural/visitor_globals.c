/*
 * structural/visitor_globals.c -- the methods of ffi.StructuralVisitor as global functions
 * (Python's StructuralVisitor.visit / default_visit / def_region_kind / with_def_region_kind).
 * They work with any visitor, the runtime's own or one of C++ code built against the reference
 * headers, through the ABI prefix of visit.h.
 */
#include "visit.h"

static const char kVisitSig[] =
    "ffi.StructuralVisitorVisit(0: ffi.StructuralVisitor, 1: AnyView) -> "
    "Optional<ffi.VisitInterrupt>";
static const char kDefaultVisitSig[] =
    "ffi.StructuralVisitorDefaultVisit(0: ffi.StructuralVisitor, 1: AnyView) -> "
    "Optional<ffi.VisitInterrupt>";
static const char kRegionSig[] = "ffi.StructuralVisitorDefRegionKind(0: ffi.StructuralVisitor) -> int";
static const char kWithRegionSig[] =
    "ffi.StructuralVisitorWithDefRegionKind(0: ffi.StructuralVisitor, 1: int, 2: ffi.Function) -> "
    "Any";

static int arg_visitor(const char* sig, const TVMFFIAny* args, FfiVisitorBase** out) {
  TVMFFIObject* obj;
  if (ffi_arg_object(sig, args, 0, ffi_visitor_type_index(), &obj) != 0) return -1;
  *out = (FfiVisitorBase*)obj;
  return 0;
}

/* Shared by visit and default_visit: the value as an owned-if-needed Any for the call. */
static int visit_with(const char* sig, bool by_default, const TVMFFIAny* args, int32_t num_args,
                      TVMFFIAny* result) {
  FfiVisitorBase* v;
  if (ffi_check_num_args(sig, num_args, 2) != 0 || arg_visitor(sig, args, &v) != 0) return -1;
  TVMFFIAny value;
  if (ffi_arg_value(&args[1], &value) != 0) return -1;
  int rc = by_default ? ffi_visitor_default_visit(v, &value, result)
                      : ffi_visitor_visit(v, &value, result);
  ffi_arg_value_done(&args[1], &value);
  return rc;
}

static int global_visit(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  return visit_with(kVisitSig, false, args, num_args, result);
}

static int global_default_visit(void* self, const TVMFFIAny* args, int32_t num_args,
                                TVMFFIAny* result) {
  (void)self;
  return visit_with(kDefaultVisitSig, true, args, num_args, result);
}

static int global_region(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  FfiVisitorBase* v;
  if (ffi_check_num_args(kRegionSig, num_args, 1) != 0 || arg_visitor(kRegionSig, args, &v) != 0) {
    return -1;
  }
  ffi_ret_int(result, v->def_region);
  return 0;
}

int ffi_call_in_def_region(const char* sig, int32_t* region, const TVMFFIAny* args,
                           TVMFFIAny* result) {
  int64_t kind;
  if (ffi_arg_int(sig, args, 1, &kind) != 0) return -1;
  if (args[2].type_index != kTVMFFIFunction) {
    TVMFFIByteArray k = ffi_type_key_of(args[2].type_index);
    return ffi_raise("TypeError",
                     "Mismatched type on argument #2 when calling: `%s`. Expected `ffi.Function` "
                     "but got `%.*s`",
                     sig, (int)k.size, k.data);
  }
  int32_t saved = *region;
  if (saved != kTVMFFIDefRegionKindPattern) *region = (int32_t)kind;
  int rc = ffi_call(&args[2], NULL, 0, result);
  *region = saved;
  return rc;
}

static int global_with_region(void* self, const TVMFFIAny* args, int32_t num_args,
                              TVMFFIAny* result) {
  (void)self;
  FfiVisitorBase* v;
  if (ffi_check_num_args(kWithRegionSig, num_args, 3) != 0 ||
      arg_visitor(kWithRegionSig, args, &v) != 0) {
    return -1;
  }
  return ffi_call_in_def_region(kWithRegionSig, &v->def_region, args, result);
}

void ffi_register_visitor_globals(void) {
  ffi_register_builtin("ffi.StructuralVisitorVisit", global_visit);
  ffi_register_builtin("ffi.StructuralVisitorDefaultVisit", global_default_visit);
  ffi_register_builtin("ffi.StructuralVisitorDefRegionKind", global_region);
  ffi_register_builtin("ffi.StructuralVisitorWithDefRegionKind", global_with_region);
}
