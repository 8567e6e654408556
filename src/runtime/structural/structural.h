/*
 * structural/structural.h -- entry points and shared pieces of the structural services.
 */
#ifndef TVM_FFI_RUNTIME_STRUCTURAL_STRUCTURAL_H_
#define TVM_FFI_RUNTIME_STRUCTURAL_STRUCTURAL_H_

#include "graph_util.h"

/* repr.c: ffi.ReprPrint of a value into an owned str. */
int ffi_repr_print(const TVMFFIAny* value, TVMFFIAny* result);

/* structural_hash.c */
int ffi_structural_hash(const TVMFFIAny* value, bool map_free_vars, bool skip_tensor_content,
                        uint64_t* out);
/* Values hashed/compared without a frame: POD, strings, bytes, BigInt, Shape, Tensor. Inline:
 * every walk asks it of every value. */
static inline bool ffi_structural_is_leaf(const TVMFFIAny* v) {
  int32_t t = v->type_index;
  if (!ffi_is_object_index(t) || v->v_obj == NULL) return true;
  return t == kTVMFFIStr || t == kTVMFFIBytes || t == kTVMFFIBigInt || t == kTVMFFIShape ||
         t == kTVMFFITensor;
}
int ffi_leaf_structural_hash(const TVMFFIAny* v, bool skip_tensor_content, uint64_t* out);
/* ffi_leaf_structural_hash of the commonest leaves (None, int, bool, float, small strings), inline
 * for the loops over container items; false (nothing written) for every other value. A small
 * string hashes as its bytes do (ffi_hash_bytes of at most 7 bytes: one zero-padded word). */
static inline bool ffi_leaf_hash_quick(const TVMFFIAny* v, uint64_t* out) {
  int32_t t = v->type_index;
  if (t == kTVMFFIInt || t == kTVMFFIBool || t == kTVMFFINone) {
    *out = ffi_hash_combine((uint64_t)(int64_t)t, v->v_uint64);
    return true;
  }
  if (t == kTVMFFIFloat) { /* ffi_float_hash_bits: every NaN hashes as the quiet NaN */
    *out = ffi_hash_combine(kTVMFFIFloat, v->v_float64 != v->v_float64 ? 0x7ff8000000000000ULL
                                                                        : v->v_uint64);
    return true;
  }
  if (t == kTVMFFISmallStr && v->small_str_len < 8) {
    uint64_t word = v->v_uint64 & ((1ULL << (8 * v->small_str_len)) - 1);
    *out = ffi_hash_combine(kTVMFFIStr, ffi_mod_mersenne31(word));
    return true;
  }
  return false;
}
/* Equality of two values of which one or both are leaves; *error set when comparing tensor
 * contents failed (an error is raised). */
bool ffi_leaf_structural_equal(const TVMFFIAny* a, const TVMFFIAny* b, bool skip_tensor_content,
                               int* error);
/* ffi_leaf_structural_equal of two values when both are None, ints, bools, floats or small strings,
 * inline (*equal set, true); false for every other pair. */
static inline bool ffi_leaf_equal_quick(const TVMFFIAny* a, const TVMFFIAny* b, bool* equal) {
  int32_t t = a->type_index;
  if (t != b->type_index) return false;
  if (t == kTVMFFIInt || t == kTVMFFIBool || t == kTVMFFINone) {
    *equal = a->v_uint64 == b->v_uint64;
    return true;
  }
  if (t == kTVMFFIFloat) { /* by bits, and NaN equals NaN */
    bool a_nan = a->v_float64 != a->v_float64, b_nan = b->v_float64 != b->v_float64;
    *equal = a_nan || b_nan ? a_nan && b_nan : a->v_uint64 == b->v_uint64;
    return true;
  }
  if (t == kTVMFFISmallStr && a->small_str_len < 8) {
    uint64_t mask = (1ULL << (8 * a->small_str_len)) - 1;
    *equal = a->small_str_len == b->small_str_len && (a->v_uint64 & mask) == (b->v_uint64 & mask);
    return true;
  }
  return false;
}
/* Float bits with every NaN mapped to the canonical quiet NaN. */
uint64_t ffi_float_hash_bits(double v);
/* Data and byte size of a CPU contiguous tensor; what = "hash" / "compare" for the error. */
int ffi_tensor_content(TVMFFIObject* tensor, const char* what, const char** data, size_t* size);

/* structural_eq.c: *equal; when paths is non-NULL and unequal, *paths gets an Array of the
 * two AccessPaths of the first mismatch. */
int ffi_structural_equal(const TVMFFIAny* lhs, const TVMFFIAny* rhs, bool map_free_vars,
                         bool skip_tensor_content, bool* equal, TVMFFIObject** paths);

/* structural_direct.c: bounded recursion over trees, tried before the walks; undecided
 * (resp. false) when the value needs the walk (hooks, errors, depth; see the file). */
typedef enum { kFfiDirectUnequal, kFfiDirectEqual, kFfiDirectUndecided } FfiDirectOutcome;
FfiDirectOutcome ffi_structural_equal_direct(const TVMFFIAny* lhs, const TVMFFIAny* rhs,
                                             bool map_free_vars, bool skip_tensor_content);
bool ffi_structural_hash_direct(const TVMFFIAny* value, bool map_free_vars,
                                bool skip_tensor_content, uint64_t* out);

/* deep_copy.c: ffi.DeepCopy of a value into an owned result. */
int ffi_deep_copy(const TVMFFIAny* value, TVMFFIAny* result);

/* recursive_compare.c / recursive_hash.c: value comparison (cmp < 0, 0, > 0; in equality
 * mode 0 = equal) and its hash. */
int ffi_recursive_compare(const TVMFFIAny* a, const TVMFFIAny* b, bool ordering, int* out);
int ffi_recursive_hash(const TVMFFIAny* value, uint64_t* out);

/* Registration of the global functions, one per file (called by register.c). */
void ffi_register_access_path_types(void);
void ffi_register_repr_globals(void);
void ffi_register_structural_eq_globals(void);
void ffi_register_deep_copy_globals(void);
void ffi_register_json_text_globals(void);
void ffi_register_bigint_any_hooks(void);
void ffi_register_structural_key(void);
void ffi_register_recursive_compare_globals(void);
void ffi_register_recursive_hash_globals(void);

#endif /* TVM_FFI_RUNTIME_STRUCTURAL_STRUCTURAL_H_ */
