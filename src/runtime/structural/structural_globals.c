/*
 * structural/structural_globals.c -- the global functions ffi.StructuralHash,
 * ffi.StructuralEqual and ffi.GetFirstStructuralMismatch: argument checks around
 * ffi_structural_hash / ffi_structural_equal.
 */
#include "structural.h"

static int global_structural_hash(void* self, const TVMFFIAny* args, int32_t num_args,
                                  TVMFFIAny* result) {
  (void)self;
  const char* fname = "ffi.StructuralHash";
  bool mfv = false, stc = false;
  if (num_args < 1 || num_args > 3) return ffi_check_num_args(fname, num_args, 3);
  if (num_args > 1 && ffi_arg_bool(fname, args, 1, &mfv) != 0) return -1;
  if (num_args > 2 && ffi_arg_bool(fname, args, 2, &stc) != 0) return -1;
  TVMFFIAny v;
  if (ffi_arg_value(&args[0], &v) != 0) return -1;
  uint64_t hash;
  int rc = ffi_structural_hash(&v, mfv, stc, &hash);
  ffi_arg_value_done(&args[0], &v);
  if (rc != 0) return -1;
  ffi_ret_int(result, (int64_t)hash);
  return 0;
}

static int parse_flags(const char* fname, const TVMFFIAny* args, int32_t num_args, bool* mfv,
                       bool* stc) {
  *mfv = *stc = false;
  if (num_args < 2 || num_args > 4) return ffi_check_num_args(fname, num_args, 4);
  if (num_args > 2 && ffi_arg_bool(fname, args, 2, mfv) != 0) return -1;
  if (num_args > 3 && ffi_arg_bool(fname, args, 3, stc) != 0) return -1;
  return 0;
}

static int owned_pair(const TVMFFIAny* args, TVMFFIAny* l, TVMFFIAny* r) {
  if (ffi_arg_value(&args[0], l) != 0) return -1;
  if (ffi_arg_value(&args[1], r) != 0) {
    ffi_arg_value_done(&args[0], l);
    return -1;
  }
  return 0;
}

static void owned_pair_done(const TVMFFIAny* args, TVMFFIAny* l, TVMFFIAny* r) {
  ffi_arg_value_done(&args[0], l);
  ffi_arg_value_done(&args[1], r);
}

static int global_structural_equal(void* self, const TVMFFIAny* args, int32_t num_args,
                                   TVMFFIAny* result) {
  (void)self;
  bool mfv, stc, equal;
  TVMFFIAny l, r;
  if (parse_flags("ffi.StructuralEqual", args, num_args, &mfv, &stc) != 0 ||
      owned_pair(args, &l, &r) != 0) {
    return -1;
  }
  int rc = ffi_structural_equal(&l, &r, mfv, stc, &equal, NULL);
  owned_pair_done(args, &l, &r);
  if (rc == 0) ffi_ret_bool(result, equal);
  return rc;
}

static int global_first_mismatch(void* self, const TVMFFIAny* args, int32_t num_args,
                                 TVMFFIAny* result) {
  (void)self;
  bool mfv, stc, equal;
  TVMFFIAny l, r;
  if (parse_flags("ffi.GetFirstStructuralMismatch", args, num_args, &mfv, &stc) != 0 ||
      owned_pair(args, &l, &r) != 0) {
    return -1;
  }
  TVMFFIObject* paths = NULL;
  int rc = ffi_structural_equal(&l, &r, mfv, stc, &equal, &paths);
  owned_pair_done(args, &l, &r);
  if (rc != 0) return -1;
  *result = ffi_any_none();
  if (!equal && paths != NULL) ffi_ret_object(result, paths);
  return 0;
}

void ffi_register_structural_eq_globals(void) {
  ffi_register_builtin("ffi.StructuralHash", global_structural_hash);
  ffi_register_builtin("ffi.StructuralEqual", global_structural_equal);
  ffi_register_builtin("ffi.GetFirstStructuralMismatch", global_first_mismatch);
}
