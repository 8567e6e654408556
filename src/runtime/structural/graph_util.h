/*
 * structural/graph_util.h -- what the structural services (repr, structural equal/hash, deep
 * copy, JSON graph, recursive compare) share: growable buffers, pointer-keyed hash maps,
 * reflection helpers (fields of a type with its ancestors, type attributes) and hash mixing.
 * Every traversal in these files uses an explicit stack, never C recursion over the value graph;
 * the one exception, structural_direct.c, recurses at most 128 levels, then hands over to a walk.
 */
#ifndef TVM_FFI_RUNTIME_STRUCTURAL_GRAPH_UTIL_H_
#define TVM_FFI_RUNTIME_STRUCTURAL_GRAPH_UTIL_H_

#include "../hash.h"
#include "../internal.h"

/* Frames beyond this raise instead of growing further (the reference's limit). */
#define FFI_GRAPH_MAX_DEPTH ((int64_t)1 << 20)

/* ---- growable byte buffer (text output) ---- */

typedef struct {
  char* data;
  size_t size;
  size_t capacity;
} FfiBuf;

int ffi_buf_reserve_slow(FfiBuf* b, size_t extra);
static inline int ffi_buf_reserve(FfiBuf* b, size_t extra) {
  return b->size + extra <= b->capacity ? 0 : ffi_buf_reserve_slow(b, extra);
}
static inline int ffi_buf_append(FfiBuf* b, const char* data, size_t size) {
  if (ffi_buf_reserve(b, size) != 0) return -1;
  if (size != 0) memcpy(b->data + b->size, data, size);
  b->size += size;
  return 0;
}
static inline int ffi_buf_puts(FfiBuf* b, const char* s) { return ffi_buf_append(b, s, strlen(s)); }
int ffi_buf_printf(FfiBuf* b, const char* fmt, ...) FFI_PRINTF(2, 3);
/* Decimal text of v (no printf). */
int ffi_buf_put_i64(FfiBuf* b, int64_t v);
void ffi_buf_free(FfiBuf* b);
/* Moves the text into an owned str Any; the buffer is emptied. */
int ffi_buf_to_str(FfiBuf* b, TVMFFIAny* out);

/* ---- growable vector of fixed-size elements ---- */

typedef struct {
  char* data;
  size_t size; /* elements */
  size_t capacity;
  size_t elem;
  char* inline_data; /* caller-provided first buffer (not freed), or NULL */
} FfiVec;

static inline void ffi_vec_init(FfiVec* v, size_t elem) {
  v->data = v->inline_data = NULL;
  v->size = v->capacity = 0;
  v->elem = elem;
}
/* A vector starting in the caller's buffer of `capacity` elements (small walks allocate nothing). */
static inline void ffi_vec_init_inline(FfiVec* v, size_t elem, void* buffer, size_t capacity) {
  v->data = v->inline_data = (char*)buffer;
  v->size = 0;
  v->capacity = capacity;
  v->elem = elem;
}
/* Doubles the capacity; -1 after raising MemoryError. */
int ffi_vec_grow(FfiVec* v);
/* Appends one zeroed element and returns it; NULL after raising MemoryError. Inline: every
 * traversal pushes once per value, and the call cost more than the push. */
static inline void* ffi_vec_push(FfiVec* v) {
  if (v->size == v->capacity && ffi_vec_grow(v) != 0) return NULL;
  void* slot = v->data + v->size * v->elem;
  memset(slot, 0, v->elem);
  v->size += 1;
  return slot;
}
/* The same without zeroing, for callers that set every member of the element. */
static inline void* ffi_vec_push_uninit(FfiVec* v) {
  if (v->size == v->capacity && ffi_vec_grow(v) != 0) return NULL;
  void* slot = v->data + v->size * v->elem;
  v->size += 1;
  return slot;
}
static inline void* ffi_vec_at(const FfiVec* v, size_t i) { return v->data + i * v->elem; }
static inline void* ffi_vec_top(const FfiVec* v) { return v->data + (v->size - 1) * v->elem; }
void ffi_vec_free(FfiVec* v);

/* ---- open-addressing map from a non-zero 64-bit key (usually a pointer) to a 64-bit value ---- */

typedef struct {
  uint64_t key; /* 0 = empty */
  uint64_t value;
} FfiPtrSlot;

#define FFI_PTR_MAP_INLINE 16

typedef struct {
  FfiPtrSlot* slots; /* `inline_slots` until the map outgrows it */
  size_t capacity;   /* power of two */
  size_t count;
  FfiPtrSlot inline_slots[FFI_PTR_MAP_INLINE]; /* small maps need no allocation */
} FfiPtrMap;

/* The inline slots are zeroed by the first put (capacity 0 until then): most walks leave most of
 * their maps empty, and clearing them all up front was a visible share of a small comparison. */
static inline void ffi_ptr_map_init(FfiPtrMap* m) {
  m->slots = m->inline_slots;
  m->capacity = 0;
  m->count = 0;
}

static inline size_t ffi_ptr_slot_of(uint64_t key, size_t capacity) {
  return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 17) & (capacity - 1);
}

/* Pointer to the value of key, or NULL. */
static inline uint64_t* ffi_ptr_map_find(FfiPtrMap* m, uint64_t key) {
  if (m->count == 0) return NULL;
  for (size_t i = ffi_ptr_slot_of(key, m->capacity);; i = (i + 1) & (m->capacity - 1)) {
    if (m->slots[i].key == key) return &m->slots[i].value;
    if (m->slots[i].key == 0) return NULL;
  }
}
/* Sets key -> value (insert or overwrite); -1 after raising MemoryError. */
int ffi_ptr_map_put(FfiPtrMap* m, uint64_t key, uint64_t value);
/* Removes key (no-op when absent). */
void ffi_ptr_map_erase(FfiPtrMap* m, uint64_t key);
void ffi_ptr_map_free(FfiPtrMap* m);

/* ---- hashing ---- */

/* ffi_hash_combine, ffi_hash_bytes: ../hash.h. */
/* The type's type_key_hash (0 when the type is unknown). */
uint64_t ffi_type_key_hash_of(int32_t type_index);

/* ---- children of the nodes a walk has open (child_stack.c) ---- */

/* One child on the walk's stack: the value (owned), the field it was read from (NULL for a
 * container item), the hash of its key (map values, in walks that hash), and one bit of the
 * walker's own (deep copy: a result still pending; JSON graph: a field written in place). */
typedef struct {
  TVMFFIAny value;
  const TVMFFIFieldInfo* field;
  uint64_t keyhash;
  bool mark;
} FfiChild;

/* Appends a borrowed value (retained); -1 after raising MemoryError. */
int ffi_children_push_view(FfiVec* children, const TVMFFIAny* view, const TVMFFIFieldInfo* field);
/* Appends the fields of obj (ancestors' first) whose flags have none of `skip_flags` set. */
int ffi_children_push_fields(FfiVec* children, TVMFFIObject* obj, int64_t skip_flags);
/* Appends the items of an Array/List, the keys and values of a Map/Dict in turn, or the
 * fields of any other object (ancestors' first). */
int ffi_children_push_all(FfiVec* children, TVMFFIObject* obj);
/* Releases the children from `begin` on and drops them from the stack. */
void ffi_children_drop(FfiVec* children, size_t begin);

/* ---- reflection helpers ---- */

/* The fields of a type, ancestors' first, for loops that need no callback:
 *   FfiFieldIter it = ffi_field_iter(info);
 *   for (const TVMFFIFieldInfo* f; (f = ffi_field_next(&it)) != NULL;) ... */
typedef struct {
  const TVMFFITypeInfo* info;
  int32_t level, index;
} FfiFieldIter;
static inline FfiFieldIter ffi_field_iter(const TVMFFITypeInfo* info) {
  FfiFieldIter it = {info, 0, 0};
  return it;
}
static inline const TVMFFIFieldInfo* ffi_field_next(FfiFieldIter* it) {
  for (; it->level <= it->info->type_depth; it->level += 1, it->index = 0) {
    const TVMFFITypeInfo* t =
        it->level < it->info->type_depth ? it->info->type_ancestors[it->level] : it->info;
    if (t != NULL && it->index < t->num_fields) return &t->fields[it->index++];
  }
  return NULL;
}
/* Calls visit(field, ctx) for each field of the type, ancestors' first; stops and returns the
 * first non-zero result. */
typedef int (*FfiFieldVisitor)(const TVMFFIFieldInfo* field, void* ctx);
int ffi_for_each_field(int32_t type_index, FfiFieldVisitor visit, void* ctx);
/* Number of fields of the type including its ancestors. */
int32_t ffi_count_fields(int32_t type_index);
/* Reads a field of obj into an owned Any. */
int ffi_field_get(TVMFFIObject* obj, const TVMFFIFieldInfo* field, TVMFFIAny* out);
/* Reads a field of obj as a view: borrowed (*owned = false) when the field is stored in a
 * layout this runtime's own getters define (an Any, an object pointer), else through the getter
 * (*owned = true, release it). For walks that run no code able to change obj meanwhile. */
int ffi_field_view(TVMFFIObject* obj, const TVMFFIFieldInfo* field, TVMFFIAny* out, bool* owned);
/* Writes a (borrowed) value into a field of obj through its setter. */
int ffi_field_set(TVMFFIObject* obj, const TVMFFIFieldInfo* field, const TVMFFIAny* value);
/* The value of type attribute `name` for the exact type, or NULL when unset/None. */
const TVMFFIAny* ffi_type_attr(int32_t type_index, const char* name);
/* Structural eq/hash kind of a type; -1 when it has no metadata. */
int ffi_type_seq_kind(int32_t type_index);
/* Calls a function value with views; result owned. */
int ffi_call(const TVMFFIAny* fn, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result);
/* Wraps a C closure as a function object (owned); the data is freed with free_data. */
int ffi_closure_new(void* data, TVMFFISafeCallType call, void (*free_data)(void*),
                    TVMFFIObject** out);

/* True for the string-like owned kinds (SmallStr, Str) resp. bytes (SmallBytes, Bytes). */
static inline bool ffi_is_str(int32_t t) { return t == kTVMFFISmallStr || t == kTVMFFIStr; }
static inline bool ffi_is_bytes(int32_t t) { return t == kTVMFFISmallBytes || t == kTVMFFIBytes; }
/* Identity of two values: the same object, or the same POD bits / small string. */
static inline bool ffi_any_same(const TVMFFIAny* a, const TVMFFIAny* b) {
  return a->type_index == b->type_index && a->zero_padding == b->zero_padding &&
         a->v_uint64 == b->v_uint64;
}


/* object.c: "<MISSING>" / "<KWARGS>" for the sentinels, else NULL. */
const char* ffi_sentinel_repr(const TVMFFIObject* obj);

/* A call argument as a value for the duration of the call: the argument itself (the caller keeps
 * it alive), or an owned conversion of the view-only kinds (raw strings, byte arrays, rvalue
 * references); release it with ffi_arg_value_done. */
static inline int ffi_arg_value(const TVMFFIAny* arg, TVMFFIAny* out) {
  int32_t t = arg->type_index;
  if (t == kTVMFFIRawStr || t == kTVMFFIByteArrayPtr || t == kTVMFFIObjectRValueRef) {
    return TVMFFIAnyViewToOwnedAny(arg, out);
  }
  *out = *arg;
  return 0;
}
static inline void ffi_arg_value_done(const TVMFFIAny* arg, TVMFFIAny* value) {
  int32_t t = arg->type_index;
  if (t == kTVMFFIRawStr || t == kTVMFFIByteArrayPtr || t == kTVMFFIObjectRValueRef) {
    ffi_any_release(value);
  }
}

/* A retained copy of a value (objects get a reference). */
static inline TVMFFIAny ffi_any_retain(const TVMFFIAny* v) {
  if (ffi_is_object_index(v->type_index) && v->v_obj != NULL) ffi_incref(v->v_obj);
  return *v;
}

#endif /* TVM_FFI_RUNTIME_STRUCTURAL_GRAPH_UTIL_H_ */
