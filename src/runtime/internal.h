/*
 * internal.h -- what the runtime's C files share. Nothing here is exported: the library is
 * built with hidden visibility and only the TVMFFI* entry points of the public headers leave it.
 *
 * Conventions used by every file:
 *  - Functions returning int follow the ABI: 0 ok, -1 error raised into the thread-local slot.
 *  - Objects the runtime makes are malloc'ed, header-first, and released through their own
 *    deleter following the combined strong/weak protocol (refcount.h).
 *  - Names starting with ffi_ are internal; TVMFFI* are the exported C API.
 */
#ifndef TVM_FFI_RUNTIME_INTERNAL_H_
#define TVM_FFI_RUNTIME_INTERNAL_H_

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#define FFI_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#define FFI_LIKELY(x) __builtin_expect(!!(x), 1)
#define FFI_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* ------------------------------------------------------------------------------------------
 * object.c: reference counting and allocation of runtime-owned objects
 * ------------------------------------------------------------------------------------------ */

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
 * a fresh refcount. Returns NULL after raising MemoryError. */
TVMFFIObject* ffi_object_alloc(size_t size, int32_t type_index, void (*deleter)(void*, int));
/* The same without raising (for the error path itself); NULL when out of memory. */
TVMFFIObject* ffi_object_alloc_quiet(size_t size, int32_t type_index, void (*deleter)(void*, int));
/* ffi_object_alloc without zeroing the body, for objects that write every field they have
 * (an Array of n elements: zeroing would write each element twice). */
TVMFFIObject* ffi_object_alloc_uninit(size_t size, int32_t type_index,
                                      void (*deleter)(void*, int));
/* Frees a block from ffi_object_alloc. Every runtime-made object is counted from its
 * allocation to this call, so leak tests can compare live counts (ffi.LiveObjectCount). */
void ffi_object_free(void* obj);

/* Defines `static void name(void* self, int flags)` that calls destroy(self) on the strong
 * flag and frees the ffi_object_alloc'ed block on the weak flag. */
#define FFI_DEFINE_DELETER(name, destroy)                                    \
  static void name(void* self, int flags) {                                  \
    if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) destroy(self);        \
    if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) ffi_object_free(self);  \
  }

/* ------------------------------------------------------------------------------------------
 * any.c: owned Any values
 * ------------------------------------------------------------------------------------------ */

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

/* ------------------------------------------------------------------------------------------
 * error.c: raising errors
 * ------------------------------------------------------------------------------------------ */

/* Raises an error of `kind` with a printf-formatted message into the thread-local slot, with a
 * backtrace captured here. Always returns -1 so callers can `return ffi_raise(...)`. */
int ffi_raise(const char* kind, const char* fmt, ...) FFI_PRINTF(2, 3);
int ffi_vraise(const char* kind, const char* fmt, va_list ap);

/* For the entry points that cannot report errors (spec: "fatal"): prints
 * "Exception caught during <api>: <message>" to stderr and exits with status 255. */
_Noreturn void ffi_fatal(const char* api, const char* fmt, ...) FFI_PRINTF(2, 3);

/* ------------------------------------------------------------------------------------------
 * string.c: string and bytes values
 * ------------------------------------------------------------------------------------------ */

/* Makes an owned string (is_bytes = 0) or bytes (is_bytes = 1) Any from a copy of data:
 * the small inline form for up to 7 bytes, a heap object otherwise. */
int ffi_string_make(const char* data, size_t size, int is_bytes, TVMFFIAny* out);

/* Views the content of any string-like value (RawStr, SmallStr, Str, ByteArrayPtr, SmallBytes,
 * Bytes). Returns false if value holds something else. */
bool ffi_string_view(const TVMFFIAny* value, TVMFFIByteArray* out);

/* ------------------------------------------------------------------------------------------
 * str_map.c: string-keyed hash map; values are non-NULL pointers that own their key bytes
 * ------------------------------------------------------------------------------------------ */

typedef struct {
  const char* key;
  size_t size;
  uint64_t hash;
  void* value; /* NULL = empty */
} FfiStrMapSlot;

typedef struct {
  FfiStrMapSlot* slots;
  size_t capacity; /* power of two, or 0 before the first insert */
  size_t count;    /* live entries */
  size_t used;     /* live entries + tombstones */
} FfiStrMap;

uint64_t ffi_str_hash(const char* data, size_t size);
/* The value stored under key, or NULL. */
void* ffi_str_map_get(const FfiStrMap* map, const char* key, size_t size);
/* Stores value under key (key must stay valid while stored). Returns the value previously
 * stored there when there was one (the caller disposes of it), else `value`; NULL after raising
 * MemoryError. */
void* ffi_str_map_put(FfiStrMap* map, const char* key, size_t size, void* value);
/* Removes key; returns its value (the caller disposes of it) or NULL when absent. */
void* ffi_str_map_remove(FfiStrMap* map, const char* key, size_t size);
/* Iteration: start with *cursor = 0; returns the next value, NULL at the end. */
void* ffi_str_map_next(const FfiStrMap* map, size_t* cursor);

/* ------------------------------------------------------------------------------------------
 * type_registry.c
 * ------------------------------------------------------------------------------------------ */

void ffi_type_registry_init(void);
/* Type key of an index for messages; "<unknown>" when not registered. Never fails. */
TVMFFIByteArray ffi_type_key_of(int32_t type_index);
/* True when `type_index` is `ancestor` or derives from it. */
bool ffi_type_is_instance(int32_t type_index, int32_t ancestor);

/* ------------------------------------------------------------------------------------------
 * function.c and builtin_args.c: function objects and the built-in global functions
 * ------------------------------------------------------------------------------------------ */

/* Registers a runtime-provided global function whose safe_call receives its own object as
 * handle. Registration failures at start-up are fatal. */
void ffi_register_builtin(const char* name, TVMFFISafeCallType fn);

/* Argument helpers for built-in functions. `fname` names the function in error messages;
 * errors are TypeError naming the argument index, the expected and the actual type. */
int ffi_check_num_args(const char* fname, int32_t num_args, int32_t expected);
int ffi_arg_int(const char* fname, const TVMFFIAny* args, int32_t i, int64_t* out);
int ffi_arg_bool(const char* fname, const TVMFFIAny* args, int32_t i, bool* out);
int ffi_arg_str(const char* fname, const TVMFFIAny* args, int32_t i, TVMFFIByteArray* out);
int ffi_arg_ptr(const char* fname, const TVMFFIAny* args, int32_t i, void** out);
/* Borrowed object of type `type_index` (or a subtype); kTVMFFIObject accepts any object. */
int ffi_arg_object(const char* fname, const TVMFFIAny* args, int32_t i, int32_t type_index,
                   TVMFFIObject** out);

/* Result helpers: result is an owned Any the caller zero-initialised. */
static inline void ffi_ret_int(TVMFFIAny* result, int64_t v) {
  *result = ffi_any_none();
  result->type_index = kTVMFFIInt;
  result->v_int64 = v;
}
static inline void ffi_ret_bool(TVMFFIAny* result, bool v) {
  *result = ffi_any_none();
  result->type_index = kTVMFFIBool;
  result->v_int64 = v ? 1 : 0;
}
/* Steals obj. */
static inline void ffi_ret_object(TVMFFIAny* result, TVMFFIObject* obj) {
  *result = ffi_any_from_object(obj);
}

/* ------------------------------------------------------------------------------------------
 * Per-area start-up hooks, called once by init.c in dependency order.
 * ------------------------------------------------------------------------------------------ */

void ffi_register_function_globals(void);   /* function.c */
void ffi_register_string_globals(void);     /* string.c */
void ffi_register_object_globals(void);     /* object.c */
void ffi_register_array_globals(void);      /* container/array.c: ffi.Array* */
void ffi_register_tensor_globals(void);     /* tensor.c */
void ffi_register_module_globals(void);     /* module_globals.c */
void ffi_register_reflection_globals(void); /* reflection_create.c */

/* container/array.c: a new Array holding owned copies of n views. */
int ffi_array_new(const TVMFFIAny* items, int64_t n, TVMFFIObject** out);
/* tensor.c: a new Shape object copying n extents. */
int ffi_shape_new(const int64_t* data, size_t n, TVMFFIObject** out);

#endif /* TVM_FFI_RUNTIME_INTERNAL_H_ */
