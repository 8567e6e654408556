/*
 * object_internal.h -- reference counting and allocation of runtime-owned objects, and owned Any values
 * (object.c). Nothing here raises.
 */
#ifndef TVM_FFI_RUNTIME_OBJECT_INTERNAL_H_
#define TVM_FFI_RUNTIME_OBJECT_INTERNAL_H_

#include "runtime_base.h"

#include "refcount.h" /* FFI_STRONG_ONE, FFI_WEAK_ONE, FFI_FRESH_REFCOUNT */

/* The refcount word is accessed atomically; the header declares it as a plain uint64_t so
 * that it stays valid C for kernels, so the runtime goes through this view. */
static inline _Atomic uint64_t* ffi_refcount_word(TVMFFIObject* obj) {
  return (_Atomic uint64_t*)&obj->combined_ref_count;
}

static inline void ffi_incref(TVMFFIObject* obj) {
  atomic_fetch_add_explicit(ffi_refcount_word(obj), FFI_STRONG_ONE, memory_order_relaxed);
}

/* Slow part of a release: runs the deleter protocol. Lives in object.c. */
void ffi_object_release_slow(TVMFFIObject* obj, uint64_t old_count);

static inline void ffi_decref(TVMFFIObject* obj) {
  uint64_t old =
      atomic_fetch_sub_explicit(ffi_refcount_word(obj), FFI_STRONG_ONE, memory_order_release);
  if (FFI_UNLIKELY((old & 0xFFFFFFFFu) == 1)) ffi_object_release_slow(obj, old);
}

/* For destroyers releasing the objects they own: the same as ffi_decref, except that a child
 * dying deep inside nested destruction is queued instead of recursing (object.c). */
void ffi_release_nested_slow(TVMFFIObject* obj, uint64_t old_count);

static inline void ffi_decref_nested(TVMFFIObject* obj) {
  uint64_t old =
      atomic_fetch_sub_explicit(ffi_refcount_word(obj), FFI_STRONG_ONE, memory_order_release);
  if (FFI_UNLIKELY((old & 0xFFFFFFFFu) == 1)) ffi_release_nested_slow(obj, old);
}

/* Strong count (low 32 bits), for diagnostics and tests. */
static inline uint32_t ffi_strong_count(TVMFFIObject* obj) {
  return (uint32_t)(atomic_load_explicit(ffi_refcount_word(obj), memory_order_relaxed) &
                    0xFFFFFFFFu);
}

/* Allocates `size` zeroed bytes (size >= sizeof(TVMFFIObject)) and initialises the header with
 * a fresh refcount; NULL when out of memory, nothing raised (the error path itself allocates
 * this way). ffi_object_alloc (object_api_internal.h) raises instead. */
TVMFFIObject* ffi_object_alloc_quiet(size_t size, int32_t type_index, void (*deleter)(void*, int));
/* The same without zeroing the body. */
TVMFFIObject* ffi_object_alloc_uninit_quiet(size_t size, int32_t type_index,
                                            void (*deleter)(void*, int));
/* Frees a block from ffi_object_alloc. Every runtime-made object is counted from its
 * allocation to this call, so leak tests can compare live counts (ffi.LiveObjectCount). */
void ffi_object_free(void* obj);
/* ffi_object_alloc_quiet with `prefix` zeroed bytes before the header (a C++ vtable pointer
 * slot, see module.c); such objects are freed with ffi_object_free_prefixed. */
TVMFFIObject* ffi_object_alloc_prefixed_quiet(size_t prefix, size_t size, int32_t type_index,
                                              void (*deleter)(void*, int));
void ffi_object_free_prefixed(void* obj, size_t prefix);
/* Objects allocated by this runtime and not yet freed (ffi.LiveObjectCount). */
int64_t ffi_live_object_count(void);

/* Defines `static void name(void* self, int flags)` that calls destroy(self) on the strong
 * flag and frees the ffi_object_alloc'ed block on the weak flag. */
#define FFI_DEFINE_DELETER(name, destroy)                                    \
  static void name(void* self, int flags) {                                  \
    if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) destroy(self);        \
    if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) ffi_object_free(self);  \
  }

/* ---- owned Any values (inline: they only release objects) ---- */

static inline bool ffi_is_object_index(int32_t type_index) {
  return type_index >= kTVMFFIStaticObjectBegin;
}

static inline TVMFFIAny ffi_any_none(void) {
  TVMFFIAny v;
  v.type_index = kTVMFFINone;
  v.zero_padding = 0;
  v.v_uint64 = 0;
  return v;
}

/* Releases an owned Any and resets it to None. */
static inline void ffi_any_release(TVMFFIAny* value) {
  if (ffi_is_object_index(value->type_index) && value->v_obj != NULL) ffi_decref(value->v_obj);
  *value = ffi_any_none();
}

/* ffi_any_release for destroyers releasing the values their object owns. */
static inline void ffi_any_release_nested(TVMFFIAny* value) {
  if (ffi_is_object_index(value->type_index) && value->v_obj != NULL) {
    ffi_decref_nested(value->v_obj);
  }
  *value = ffi_any_none();
}

/* Owned Any holding obj; steals the reference. */
static inline TVMFFIAny ffi_any_from_object(TVMFFIObject* obj) {
  TVMFFIAny v = ffi_any_none();
  if (obj != NULL) {
    v.type_index = obj->type_index;
    v.v_obj = obj;
  }
  return v;
}

#endif /* TVM_FFI_RUNTIME_OBJECT_INTERNAL_H_ */
