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
/* Equality of two values of which one or both are leaves; *error set when comparing tensor
 * contents failed (an error is raised). */
bool ffi_leaf_structural_equal(const TVMFFIAny* a, const TVMFFIAny* b, bool skip_tensor_content,
                               int* error);
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
