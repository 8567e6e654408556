/*
 * structural/mutate.h -- the structural mutator (ffi.StructuralMutator): default mutation
 * (mutate_default.c), the runtime's map/mutate engines (mutate_engine.c) and their globals
 * (mutator_globals.c).
 *
 * The first fields of a mutator are ABI, like a visitor's (visit.h): C++ code compiled against
 * the reference headers (a `__s_mutate__` hook, or an engine of its own) reads the vtable at
 * offset 24 and the def-region kind at offset 32 inline. The C signatures below are the same
 * machine-level calls as the C++ `TVMFFIAny (*)(StructuralMutatorObj*, AnyView...) noexcept`.
 *
 * A raw mutation result is an owned Any: the replacement value, the Unchanged marker (type
 * index 13: keep the input), or an ffi.Error (failed). Callers compare a replacement with the
 * input by identity, so returning the input itself also means "unchanged".
 */
#ifndef TVM_FFI_RUNTIME_STRUCTURAL_MUTATE_H_
#define TVM_FFI_RUNTIME_STRUCTURAL_MUTATE_H_

#include "visit.h"

typedef TVMFFIAny (*FfiMutateFn)(TVMFFIObject* mutator, TVMFFIAny value);
typedef TVMFFIAny (*FfiVarRemapGetFn)(TVMFFIObject* mutator, TVMFFIAny var);
typedef TVMFFIAny (*FfiVarRemapSetFn)(TVMFFIObject* mutator, TVMFFIAny var, TVMFFIAny mapped);

typedef struct {
  FfiMutateFn mutate;               /* copy-on-write */
  FfiMutateFn maybe_inplace_mutate; /* the value is uniquely owned along its path */
  FfiVarRemapGetFn var_remap_get;   /* owned replacement, None on a miss, or an error */
  FfiVarRemapSetFn var_remap_set;   /* None or an error */
} FfiMutatorVTable;

/* The ABI prefix of every mutator, ours or a C++ engine's. */
typedef struct {
  TVMFFIObject header;
  const FfiMutatorVTable* vtable; /* @24 */
  int32_t def_region;             /* @32, a TVMFFIDefRegionKind */
} FfiMutatorBase;

_Static_assert(offsetof(FfiMutatorBase, vtable) == 24 && offsetof(FfiMutatorBase, def_region) == 32,
               "StructuralMutatorObj layout");

/* InplaceMode of the reference headers. */
enum { FFI_INPLACE_DISALLOW = 0, FFI_INPLACE_ALLOW = 1 };

/* ---- raw results ---- */

static inline TVMFFIAny ffi_unchanged(void) {
  TVMFFIAny v = ffi_any_none();
  v.type_index = kTVMFFIUnchanged;
  return v;
}
static inline bool ffi_is_unchanged(const TVMFFIAny* v) { return v->type_index == kTVMFFIUnchanged; }
static inline bool ffi_raw_is_error(const TVMFFIAny* v) {
  return ffi_is_object_index(v->type_index) && v->v_obj != NULL &&
         ffi_type_is_instance(v->type_index, kTVMFFIError);
}
/* The error raised on this thread, moved into a raw result. */
TVMFFIAny ffi_raw_from_raised(void);
/* True when a raw result means "keep `original`" (the marker, or `original` itself). */
static inline bool ffi_raw_keeps(const TVMFFIAny* raw, const TVMFFIAny* original) {
  return ffi_is_unchanged(raw) || ffi_any_same(raw, original);
}
/* Turns a raw result into a call result: the replacement, a copy of `original` for the
 * marker, or -1 with the error raised. */
int ffi_raw_to_result(TVMFFIAny raw, const TVMFFIAny* original, TVMFFIAny* out);

/* ---- mutation through any mutator (mutate_default.c) ---- */

int32_t ffi_mutator_type_index(void);
/* MutateExpected: the mutator's in-place entry when allowed and value is a uniquely owned
 * object, else its copy-on-write entry. */
TVMFFIAny ffi_mutator_mutate(FfiMutatorBase* m, TVMFFIAny value, int inplace);
/* DefaultMutateExpected: the type's `__s_maybe_inplace_mutate__` (when allowed) or
 * `__s_mutate__` hook, else reflected fields with variable remapping; children go through the
 * mutator's vtable. */
TVMFFIAny ffi_mutator_default(FfiMutatorBase* m, TVMFFIAny value, int inplace);
/* Enters `kind` the way C++ WithDefRegionKind does and returns the kind to restore. */
static inline int32_t ffi_mutator_enter_region(FfiMutatorBase* m, int32_t kind) {
  int32_t saved = m->def_region;
  if (saved != kTVMFFIDefRegionKindPattern) m->def_region = kind;
  return saved;
}

/* ---- the runtime's engines (mutate_engine.c) ---- */

typedef enum {
  FFI_MUTATE_MAP_PRE,  /* map: callback, then default descent of its result */
  FFI_MUTATE_MAP_POST, /* map: default descent, then callback on the result */
  FFI_MUTATE_OWN       /* mutate: a matched callback owns descent */
} FfiMutateMode;

/* One typed callback: values of type_index (-1: any). Map callbacks get (value) or, with_extra,
 * (value, def_region_kind); mutate callbacks get (value, mutator) or, with_extra,
 * (value, mutator, inplace_mode). */
typedef struct {
  int32_t type_index;
  bool with_extra;
  TVMFFIObject* fn; /* owned ffi.Function */
} FfiMutateEntry;

/* A runtime mutator owning `entries` (malloc'ed; freed with it, also on failure). */
int ffi_mutator_new(FfiMutateMode mode, FfiMutateEntry* entries, int32_t num_entries,
                    FfiMutatorBase** out);
/* Mutates an owned root (unique ownership allows in-place mutation) with a runtime mutator;
 * *out gets the result (the root itself when unchanged). Consumes root. */
int ffi_mutator_run(FfiMutatorBase* m, TVMFFIAny root, TVMFFIAny* out);
/* Guards a call into a mutator from a global (one thread at a time); no-op for foreign ones. */
int ffi_mutator_enter(FfiMutatorBase* m);
void ffi_mutator_leave(FfiMutatorBase* m);
/* The engine's cycle guard around default descent of an object: -1 raised when the object is
 * already being descended (a value that contains itself); a no-op for foreign mutators.
 * mutate_default.c calls it through the pair the engine installs at registration, so the
 * default descent does not depend on the engine (which sits above it). */
typedef struct {
  int (*enter)(FfiMutatorBase* m, TVMFFIObject* obj);
  void (*leave)(FfiMutatorBase* m, TVMFFIObject* obj);
} FfiMutatorObjectGuard;
void ffi_mutator_set_object_guard(FfiMutatorObjectGuard guard);

/* Registration (called by register.c): the container/leaf hooks (mutate_default.c), the
 * ffi.StructuralMutator type (mutate_engine.c), the globals (mutator_globals.c). */
void ffi_register_mutate_hooks(void);
void ffi_register_mutate_types(void);
void ffi_register_mutator_globals(void);

/* A failed raw result with `node` appended to its error's visit record (ffi.VisitErrorContext)
 * when `node` is an object, as the reference's engines record each value an error unwinds
 * through, innermost first; any other result as it is. */
TVMFFIAny ffi_mutate_on_path(TVMFFIAny result, TVMFFIAny node);

#endif /* TVM_FFI_RUNTIME_STRUCTURAL_MUTATE_H_ */
