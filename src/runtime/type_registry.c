/*
 * type_registry.c -- the type table: static and dynamic type indices, ancestors, reflected
 * fields and methods, type metadata and type attribute columns (TVMFFITypeInfo and the
 * TVMFFIType* entry points of c_api.h).
 *
 * Layout and concurrency:
 *  - Every type is one malloc'ed TypeEntry that lives for the process, so the TVMFFITypeInfo
 *    pointers handed out never move. Index -> entry goes through a two-level table of chunks
 *    of atomic entry pointers: O(1) and lock-free, because inline C++ calls TVMFFIGetTypeInfo
 *    on hot paths (subclass tests, error messages).
 *  - Key -> entry and attribute name -> column are open-addressing hash tables guarded, like
 *    every mutation, by one process-wide rwlock.
 *  - Arrays that readers reach without the lock (fields, methods, column data) are never freed
 *    when they grow: the old block goes on a retired list, so a reader holding a stale pointer
 *    still sees valid (old) contents. New elements are written before the count that exposes
 *    them is published with a release store.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "type_registry_internal.h"

/* ------------------------------------------------------------------------------------------
 * Type key hash: libstdc++'s 64-bit _Hash_bytes (a MurmurHash2-64 variant), seed 0xc70f6907.
 * ------------------------------------------------------------------------------------------ */

static uint64_t hash_shift_mix(uint64_t v) { return v ^ (v >> 47); }

/* Little-endian load of the 1..7 trailing bytes. */
static uint64_t hash_load_tail(const unsigned char* p, size_t n) {
  uint64_t result = 0;
  while (n-- > 0) result = (result << 8) | p[n];
  return result;
}

uint64_t ffi_type_key_hash(const char* data, size_t size) {
  const uint64_t mul = 0xc6a4a7935bd1e995ULL;
  const unsigned char* bytes = (const unsigned char*)data;
  size_t aligned = size & ~(size_t)7;
  uint64_t hash = 0xc70f6907ULL ^ ((uint64_t)size * mul);
  for (size_t i = 0; i < aligned; i += 8) {
    uint64_t word;
    memcpy(&word, bytes + i, sizeof(word));
    hash ^= hash_shift_mix(word * mul) * mul;
    hash *= mul;
  }
  if ((size & 7) != 0) {
    hash ^= hash_load_tail(bytes + aligned, size & 7);
    hash *= mul;
  }
  hash = hash_shift_mix(hash) * mul;
  return hash_shift_mix(hash);
}

/* ------------------------------------------------------------------------------------------
 * Data structures
 * ------------------------------------------------------------------------------------------ */

enum {
  kChunkBits = 10,
  kChunkSize = 1 << kChunkBits,
  kMaxChunks = 1 << 14,
};
/* 16M type indices: far beyond any real program, small enough for a static top level. */
#define FFI_MAX_TYPE_INDEX ((int64_t)kChunkSize * kMaxChunks)

typedef struct TypeEntry {
  TVMFFITypeInfo info;      /* first: TVMFFIGetTypeInfo returns &entry->info */
  int64_t num_slots;        /* indices reserved: itself plus its child slots */
  int64_t allocated_slots;  /* of those, taken by itself and its children so far */
  bool can_overflow;        /* children may take global indices once the slots run out */
  int32_t fields_capacity;
  int32_t methods_capacity;
  TVMFFITypeMetadata metadata; /* storage behind info.metadata once registered */
} TypeEntry;

typedef struct {
  TVMFFITypeAttrColumn column; /* first: its address is what TVMFFIGetTypeAttrColumn returns */
  int32_t capacity;
  char* name;
} AttrColumn;

/* Growable arrays read without the lock carry this header so that retiring an outgrown block
 * needs no allocation; 16 bytes keeps the elements 16-byte aligned. */
typedef struct RetiredBlock {
  struct RetiredBlock* next;
  uint64_t unused;
} RetiredBlock;


typedef TypeEntry* _Atomic EntrySlot;

static EntrySlot* _Atomic g_chunks[kMaxChunks];

static struct {
  pthread_rwlock_t lock;
  FfiStrMap types;         /* type key -> TypeEntry* (key owned by the entry) */
  FfiStrMap columns;       /* attribute name -> AttrColumn* (key owned by the column) */
  int64_t next_dynamic_index;
  int32_t max_index;       /* highest registered index, for listing */
  RetiredBlock* retired;   /* outgrown arrays, kept alive for lock-free readers */
  bool initialized;
} g_reg = {PTHREAD_RWLOCK_INITIALIZER, {NULL, 0, 0, 0}, {NULL, 0, 0, 0}, kTVMFFIDynObjectBegin,
           -1, NULL, false};

/* ------------------------------------------------------------------------------------------
 * Small helpers
 * ------------------------------------------------------------------------------------------ */

static inline TypeEntry* entry_at(int32_t type_index) {
  if (type_index < 0 || (int64_t)type_index >= FFI_MAX_TYPE_INDEX) return NULL;
  EntrySlot* chunk = atomic_load_explicit(&g_chunks[type_index >> kChunkBits],
                                          memory_order_acquire);
  if (chunk == NULL) return NULL;
  return atomic_load_explicit(&chunk[type_index & (kChunkSize - 1)], memory_order_acquire);
}

/* Makes the entry visible to lock-free readers; false when out of memory. */
static bool entry_publish(int32_t type_index, TypeEntry* entry) {
  _Atomic(EntrySlot*)* chunk_slot = &g_chunks[type_index >> kChunkBits];
  EntrySlot* chunk = atomic_load_explicit(chunk_slot, memory_order_acquire);
  if (chunk == NULL) {
    chunk = (EntrySlot*)calloc(kChunkSize, sizeof(EntrySlot));
    if (chunk == NULL) return false;
    atomic_store_explicit(chunk_slot, chunk, memory_order_release);
  }
  atomic_store_explicit(&chunk[type_index & (kChunkSize - 1)], entry, memory_order_release);
  if (type_index > g_reg.max_index) g_reg.max_index = type_index;
  return true;
}

/* An owned, NUL-terminated copy of bytes; empty input gives a static "". */
static int copy_bytes(const char* what, TVMFFIByteArray in, TVMFFIByteArray* out) {
  if (in.size == 0) {
    out->data = "";
    out->size = 0;
    return 0;
  }
  if (in.data == NULL) {
    return ffi_raise("ValueError", "%s has size %zu but NULL data", what, in.size);
  }
  char* copy = (char*)malloc(in.size + 1);
  if (copy == NULL) return ffi_raise("MemoryError", "cannot copy %s of %zu bytes", what, in.size);
  memcpy(copy, in.data, in.size);
  copy[in.size] = '\0';
  out->data = copy;
  out->size = in.size;
  return 0;
}

static void free_bytes(TVMFFIByteArray* b) {
  if (b->size != 0) free((void*)b->data);
  b->data = "";
  b->size = 0;
}

static int check_byte_array(const char* api, const char* arg, const TVMFFIByteArray* b) {
  if (b == NULL) return ffi_raise("ValueError", "%s: %s is NULL", api, arg);
  if (b->data == NULL && b->size != 0) {
    return ffi_raise("ValueError", "%s: %s has size %zu but NULL data", api, arg, b->size);
  }
  return 0;
}

/* Element storage of a growable array, behind its RetiredBlock header. */
static void* block_elements(RetiredBlock* block) { return block + 1; }
static RetiredBlock* block_of(const void* elements) { return (RetiredBlock*)elements - 1; }

/* Returns an array with room for `needed` elements: `old` itself when it has room, else a
 * larger zeroed copy (old one retired, never freed). NULL when out of memory. */
static void* array_reserve(const void* old, int32_t count, int32_t* capacity, int64_t needed,
                           size_t elem_size) {
  if (old != NULL && needed <= *capacity) return (void*)old;
  int64_t new_capacity = *capacity < 4 ? 4 : (int64_t)*capacity * 2;
  if (new_capacity < needed) new_capacity = needed;
  if (new_capacity > INT32_MAX) return NULL;
  RetiredBlock* block =
      (RetiredBlock*)calloc(1, sizeof(RetiredBlock) + (size_t)new_capacity * elem_size);
  if (block == NULL) return NULL;
  void* elements = block_elements(block);
  if (old != NULL) {
    memcpy(elements, old, (size_t)count * elem_size);
    RetiredBlock* old_block = block_of(old);
    old_block->next = g_reg.retired;
    g_reg.retired = old_block;
  }
  *capacity = (int32_t)new_capacity;
  return elements;
}

static TypeEntry* find_entry_or_raise(const char* api, int32_t type_index) {
  TypeEntry* entry = entry_at(type_index);
  if (entry == NULL) {
    ffi_raise("InternalError", "%s: Cannot find type info for type_index=%d", api,
              (int)type_index);
  }
  return entry;
}

/* Fatal error raised while this thread holds the write lock: the lock is released first so
 * that exit-time handlers calling into the registry do not hang. */
static _Noreturn void registry_fatal(const char* api, const char* fmt, ...) FFI_PRINTF(2, 3);
static _Noreturn void registry_fatal(const char* api, const char* fmt, ...) {
  char message[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof(message), fmt, ap);
  va_end(ap);
  pthread_rwlock_unlock(&g_reg.lock);
  ffi_fatal(api, "%s", message);
}

#define KEY_ARGS(entry) (int)(entry)->info.type_key.size, (entry)->info.type_key.data

/* ------------------------------------------------------------------------------------------
 * Type allocation
 * ------------------------------------------------------------------------------------------ */

typedef struct {
  const char* key;
  size_t key_size;
  int32_t static_index;
  int32_t depth;
  int32_t num_child_slots;
  bool can_overflow;
  int32_t parent_index;
} TypeRequest;

/* Checks a new type's request against its parent (NULL for roots). Fatal on violations. */
static void check_request(const char* api, const TypeRequest* req, const TypeEntry* parent) {
  if (req->num_child_slots < 0) {
    registry_fatal(api, "num_child_slots of `%.*s` must be >= 0, got %d", (int)req->key_size,
                   req->key, (int)req->num_child_slots);
  }
  if (req->parent_index == -1) {
    if (req->depth != 0) {
      registry_fatal(api,
                     "`%.*s` has no parent (parent_type_index -1), so its type_depth must be 0, "
                     "got %d", (int)req->key_size, req->key, (int)req->depth);
    }
    return;
  }
  if (parent == NULL) {
    registry_fatal(api, "parent_type_index %d of `%.*s` is not a registered type",
                   (int)req->parent_index, (int)req->key_size, req->key);
  }
  if (req->depth != parent->info.type_depth + 1) {
    registry_fatal(api, "type_depth of `%.*s` must be its parent `%.*s`'s depth + 1 = %d, got %d",
                   (int)req->key_size, req->key, KEY_ARGS(parent), (int)parent->info.type_depth + 1,
                   (int)req->depth);
  }
}

static int32_t take_global_indices(const char* api, const TypeRequest* req, int64_t needed) {
  int64_t index = g_reg.next_dynamic_index;
  if (index + needed > FFI_MAX_TYPE_INDEX) {
    registry_fatal(api,
                   "type index space exhausted while allocating `%.*s` (%lld indices requested)",
                   (int)req->key_size, req->key, (long long)needed);
  }
  g_reg.next_dynamic_index = index + needed;
  return (int32_t)index;
}

/* Chooses the index of a new type: a reserved child slot of the parent, else the next
 * dynamic index. Fatal on failure. */
static int32_t choose_index(const char* api, const TypeRequest* req, TypeEntry* parent) {
  int64_t needed = (int64_t)req->num_child_slots + 1;
  if (req->static_index >= 0) {
    /* Static indices below the dynamic range only, so the global counter never meets them. */
    if (req->static_index >= kTVMFFIDynObjectBegin) {
      registry_fatal(api, "static type index %d of `%.*s` must be below %d", (int)req->static_index,
                     (int)req->key_size, req->key, (int)kTVMFFIDynObjectBegin);
    }
    TypeEntry* taken = entry_at(req->static_index);
    if (taken != NULL) {
      registry_fatal(api, "static type index %d of `%.*s` is already taken by `%.*s`",
                     (int)req->static_index, (int)req->key_size, req->key, KEY_ARGS(taken));
    }
    return req->static_index;
  }
  if (parent == NULL) return take_global_indices(api, req, needed);
  /* Skip slots a static type has pinned inside the parent's reserved range. */
  while (parent->allocated_slots < parent->num_slots &&
         entry_at((int32_t)(parent->info.type_index + parent->allocated_slots)) != NULL) {
    parent->allocated_slots++;
  }
  if (parent->allocated_slots + needed <= parent->num_slots) {
    int32_t index = (int32_t)(parent->info.type_index + parent->allocated_slots);
    parent->allocated_slots += needed;
    return index;
  }
  if (!parent->can_overflow) {
    registry_fatal(api,
                   "cannot allocate a type index for `%.*s`: its parent `%.*s` has used all of "
                   "its %lld child slots and does not allow overflow (maximum number of "
                   "sub-classes reached)", (int)req->key_size, req->key, KEY_ARGS(parent),
                   (long long)(parent->num_slots - 1));
  }
  return take_global_indices(api, req, needed);
}

/* Builds a fully initialised entry (not yet published); NULL when out of memory. */
static TypeEntry* entry_new(const TypeRequest* req, int32_t index, const TypeEntry* parent) {
  TypeEntry* entry = (TypeEntry*)calloc(1, sizeof(TypeEntry));
  char* key = (char*)malloc(req->key_size + 1);
  const TVMFFITypeInfo** ancestors = NULL;
  if (req->depth > 0) {
    ancestors = (const TVMFFITypeInfo**)malloc((size_t)req->depth * sizeof(*ancestors));
  }
  if (entry == NULL || key == NULL || (req->depth > 0 && ancestors == NULL)) {
    free(entry);
    free(key);
    free(ancestors);
    return NULL;
  }
  if (req->key_size != 0) memcpy(key, req->key, req->key_size);
  key[req->key_size] = '\0';
  if (parent != NULL) {
    /* [d] = ancestor at depth d: the parent's own chain, then the parent. */
    for (int32_t d = 0; d < parent->info.type_depth; ++d) {
      ancestors[d] = parent->info.type_ancestors[d];
    }
    ancestors[parent->info.type_depth] = &parent->info;
  }
  entry->info.type_index = index;
  entry->info.type_depth = req->depth;
  entry->info.type_key.data = key;
  entry->info.type_key.size = req->key_size;
  entry->info.type_ancestors = ancestors;
  entry->info.type_key_hash = ffi_type_key_hash(req->key, req->key_size);
  entry->num_slots = (int64_t)req->num_child_slots + 1;
  entry->allocated_slots = 1;
  /* A child of a non-overflowing parent may not overflow either. */
  entry->can_overflow = req->can_overflow && (parent == NULL || parent->can_overflow);
  return entry;
}

/* Registers a type that is known to be new. Caller holds the write lock. Fatal on failure. */
static int32_t register_type(const char* api, const TypeRequest* req) {
  TypeEntry* parent = NULL;
  if (req->parent_index != -1) parent = entry_at(req->parent_index);
  check_request(api, req, parent);
  int32_t index = choose_index(api, req, parent);
  if (entry_at(index) != NULL) {
    registry_fatal(api, "type index %d chosen for `%.*s` is already used by `%.*s`", (int)index,
                   (int)req->key_size, req->key, KEY_ARGS(entry_at(index)));
  }
  TypeEntry* entry = entry_new(req, index, parent);
  if (entry == NULL || !entry_publish(index, entry) ||
      ffi_str_map_put(&g_reg.types, entry->info.type_key.data, req->key_size, entry) == NULL) {
    registry_fatal(api, "out of memory while registering type `%.*s`", (int)req->key_size,
                   req->key);
  }
  return index;
}

static TypeEntry* find_by_key(const char* key, size_t size) {
  return (TypeEntry*)ffi_str_map_get(&g_reg.types, key, size);
}

int32_t TVMFFITypeGetOrAllocIndex(const TVMFFIByteArray* type_key, int32_t static_type_index,
                                  int32_t type_depth, int32_t num_child_slots,
                                  int32_t child_slots_can_overflow, int32_t parent_type_index) {
  static const char* api = "TVMFFITypeGetOrAllocIndex";
  if (type_key == NULL || (type_key->data == NULL && type_key->size != 0)) {
    ffi_fatal(api, "type_key is NULL");
  }
  /* Most calls are static initialisers re-asking for a known key: a shared lock suffices. */
  pthread_rwlock_rdlock(&g_reg.lock);
  TypeEntry* existing = find_by_key(type_key->data, type_key->size);
  pthread_rwlock_unlock(&g_reg.lock);
  if (existing != NULL) return existing->info.type_index;
  if (parent_type_index == -2) return -2; /* query only */
  if (parent_type_index < -1) {
    ffi_fatal(api, "invalid parent_type_index %d for `%.*s` (expected -2, -1 or a type index)",
              (int)parent_type_index, (int)type_key->size, type_key->data);
  }
  TypeRequest req = {type_key->size != 0 ? type_key->data : "", type_key->size,
                     static_type_index, type_depth,
                     num_child_slots, child_slots_can_overflow != 0,
                     parent_type_index};
  pthread_rwlock_wrlock(&g_reg.lock);
  /* Another thread may have registered the key between the two locks. */
  existing = find_by_key(type_key->data, type_key->size);
  int32_t index = existing != NULL ? existing->info.type_index : register_type(api, &req);
  pthread_rwlock_unlock(&g_reg.lock);
  return index;
}

int TVMFFITypeKeyToIndex(const TVMFFIByteArray* type_key, int32_t* out_tindex) {
  if (check_byte_array("TVMFFITypeKeyToIndex", "type_key", type_key) != 0) return -1;
  if (out_tindex == NULL) {
    return ffi_raise("ValueError", "TVMFFITypeKeyToIndex: out_tindex is NULL");
  }
  pthread_rwlock_rdlock(&g_reg.lock);
  TypeEntry* entry = find_by_key(type_key->data, type_key->size);
  pthread_rwlock_unlock(&g_reg.lock);
  if (entry == NULL) {
    return ffi_raise("InternalError", "TVMFFITypeKeyToIndex: Cannot find type `%.*s`",
                     (int)type_key->size, type_key->size != 0 ? type_key->data : "");
  }
  *out_tindex = entry->info.type_index;
  return 0;
}

const TVMFFITypeInfo* TVMFFIGetTypeInfo(int32_t type_index) {
  TypeEntry* entry = entry_at(type_index);
  if (FFI_UNLIKELY(entry == NULL)) {
    ffi_fatal("TVMFFIGetTypeInfo", "Cannot find type info for type_index=%d", (int)type_index);
  }
  return &entry->info;
}

/* ------------------------------------------------------------------------------------------
 * Internal queries (internal.h)
 * ------------------------------------------------------------------------------------------ */

TVMFFIByteArray ffi_type_key_of(int32_t type_index) {
  TypeEntry* entry = entry_at(type_index);
  if (entry != NULL) return entry->info.type_key;
  TVMFFIByteArray unknown = {"<unknown>", 9};
  return unknown;
}

bool ffi_type_is_instance(int32_t type_index, int32_t ancestor) {
  if (type_index == ancestor) return true;
  /* Every built-in object type derives directly from ffi.Object. */
  if (ancestor == kTVMFFIObject && type_index > kTVMFFIObject &&
      type_index < kTVMFFIStaticObjectEnd) {
    return true;
  }
  /* The ancestor chain decides; no slot-range shortcut, since a static type may be pinned
   * inside another type's reserved range without deriving from it. */
  TypeEntry* target = entry_at(ancestor);
  TypeEntry* actual = entry_at(type_index);
  if (target == NULL || actual == NULL) return false;
  int32_t depth = target->info.type_depth;
  return actual->info.type_depth > depth &&
         actual->info.type_ancestors[depth]->type_index == ancestor;
}

/* ------------------------------------------------------------------------------------------
 * Fields and methods
 * ------------------------------------------------------------------------------------------ */

static const TypeEntry* ancestor_with_field(const TypeEntry* entry, TVMFFIByteArray name) {
  for (int32_t d = 0; d < entry->info.type_depth; ++d) {
    const TVMFFITypeInfo* anc = entry->info.type_ancestors[d];
    for (int32_t i = 0; i < anc->num_fields; ++i) {
      if (anc->fields[i].name.size == name.size &&
          memcmp(anc->fields[i].name.data, name.data, name.size) == 0) {
        return (const TypeEntry*)anc;
      }
    }
  }
  return NULL;
}

static bool has_own_field(const TypeEntry* entry, TVMFFIByteArray name) {
  for (int32_t i = 0; i < entry->info.num_fields; ++i) {
    const TVMFFIFieldInfo* f = &entry->info.fields[i];
    if (f->name.size == name.size && memcmp(f->name.data, name.data, name.size) == 0) return true;
  }
  return false;
}

/* Owned copies of a field's strings and values; on failure nothing is kept. */
static int field_copy(const TVMFFIFieldInfo* in, TVMFFIFieldInfo* out) {
  *out = *in;
  out->name.size = out->doc.size = out->metadata.size = 0;
  out->default_value_or_factory = ffi_any_none();
  if (copy_bytes("field name", in->name, &out->name) != 0 ||
      copy_bytes("field doc", in->doc, &out->doc) != 0 ||
      copy_bytes("field metadata", in->metadata, &out->metadata) != 0 ||
      TVMFFIAnyViewToOwnedAny(&in->default_value_or_factory, &out->default_value_or_factory) != 0) {
    free_bytes(&out->name);
    free_bytes(&out->doc);
    free_bytes(&out->metadata);
    return -1;
  }
  /* A FunctionObj setter is called later through the stored pointer: keep it alive. */
  if ((in->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) && in->setter != NULL) {
    ffi_incref((TVMFFIObject*)in->setter);
  }
  return 0;
}

static void field_release(TVMFFIFieldInfo* f) {
  free_bytes(&f->name);
  free_bytes(&f->doc);
  free_bytes(&f->metadata);
  ffi_any_release(&f->default_value_or_factory);
  if ((f->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) && f->setter != NULL) {
    ffi_decref((TVMFFIObject*)f->setter);
  }
}

/* Appends a copied field. Caller holds the write lock. */
static int add_field(TypeEntry* entry, const TVMFFIFieldInfo* info) {
  if (has_own_field(entry, info->name)) {
    return ffi_raise("InternalError", "TVMFFITypeRegisterField: Duplicate field name \"%.*s\" in "
                     "type \"%.*s\"", (int)info->name.size, info->name.data, KEY_ARGS(entry));
  }
  const TypeEntry* shadowed = ancestor_with_field(entry, info->name);
  if (shadowed != NULL) {
    fprintf(stderr, "[WARNING] Field \"%.*s\" of type \"%.*s\" repeats a field of its ancestor "
            "\"%.*s\"; fields are inherited and need not be registered again.\n",
            (int)info->name.size, info->name.data, KEY_ARGS(entry), KEY_ARGS(shadowed));
  }
  TVMFFIFieldInfo copy;
  if (field_copy(info, &copy) != 0) return -1;
  int32_t count = entry->info.num_fields;
  TVMFFIFieldInfo* fields = (TVMFFIFieldInfo*)array_reserve(
      entry->info.fields, count, &entry->fields_capacity, (int64_t)count + 1, sizeof(copy));
  if (fields == NULL) {
    field_release(&copy);
    return ffi_raise("MemoryError", "TVMFFITypeRegisterField: cannot grow the field list");
  }
  fields[count] = copy;
  /* Array first, then the count that exposes the new element. */
  __atomic_store_n(&entry->info.fields, fields, __ATOMIC_RELEASE);
  __atomic_store_n(&entry->info.num_fields, count + 1, __ATOMIC_RELEASE);
  return 0;
}

int TVMFFITypeRegisterField(int32_t type_index, const TVMFFIFieldInfo* info) {
  static const char* api = "TVMFFITypeRegisterField";
  if (info == NULL) return ffi_raise("ValueError", "%s: info is NULL", api);
  if (check_byte_array(api, "info->name", &info->name) != 0) return -1;
  pthread_rwlock_wrlock(&g_reg.lock);
  TypeEntry* entry = find_entry_or_raise(api, type_index);
  int rc = entry != NULL ? add_field(entry, info) : -1;
  pthread_rwlock_unlock(&g_reg.lock);
  return rc;
}

static int method_copy(const TVMFFIMethodInfo* in, TVMFFIMethodInfo* out) {
  *out = *in;
  out->name.size = out->doc.size = out->metadata.size = 0;
  out->method = ffi_any_none();
  if (copy_bytes("method name", in->name, &out->name) != 0 ||
      copy_bytes("method doc", in->doc, &out->doc) != 0 ||
      copy_bytes("method metadata", in->metadata, &out->metadata) != 0 ||
      TVMFFIAnyViewToOwnedAny(&in->method, &out->method) != 0) {
    free_bytes(&out->name);
    free_bytes(&out->doc);
    free_bytes(&out->metadata);
    return -1;
  }
  return 0;
}

int TVMFFITypeRegisterMethod(int32_t type_index, const TVMFFIMethodInfo* info) {
  static const char* api = "TVMFFITypeRegisterMethod";
  if (info == NULL) return ffi_raise("ValueError", "%s: info is NULL", api);
  pthread_rwlock_wrlock(&g_reg.lock);
  int rc = -1;
  TVMFFIMethodInfo copy;
  TypeEntry* entry = find_entry_or_raise(api, type_index);
  if (entry != NULL && method_copy(info, &copy) == 0) {
    int32_t count = entry->info.num_methods;
    TVMFFIMethodInfo* methods = (TVMFFIMethodInfo*)array_reserve(
        entry->info.methods, count, &entry->methods_capacity, (int64_t)count + 1, sizeof(copy));
    if (methods == NULL) {
      free_bytes(&copy.name);
      free_bytes(&copy.doc);
      free_bytes(&copy.metadata);
      ffi_any_release(&copy.method);
      ffi_raise("MemoryError", "%s: cannot grow the method list", api);
    } else {
      methods[count] = copy;
      __atomic_store_n(&entry->info.methods, methods, __ATOMIC_RELEASE);
      __atomic_store_n(&entry->info.num_methods, count + 1, __ATOMIC_RELEASE);
      rc = 0;
    }
  }
  pthread_rwlock_unlock(&g_reg.lock);
  return rc;
}

/* ------------------------------------------------------------------------------------------
 * Metadata
 * ------------------------------------------------------------------------------------------ */

/* Caller holds the write lock. */
static int set_metadata(const char* api, TypeEntry* entry, const TVMFFITypeMetadata* metadata) {
  if (entry->info.metadata != NULL) {
    return ffi_raise("RuntimeError", "%s: Overriding the metadata of type `%.*s`: it is already "
                     "registered (the type was defined twice, or another type uses the same key)",
                     api, KEY_ARGS(entry));
  }
  TVMFFITypeMetadata copy = *metadata;
  if (copy_bytes("metadata doc", metadata->doc, &copy.doc) != 0) return -1;
  entry->metadata = copy;
  __atomic_store_n(&entry->info.metadata, &entry->metadata, __ATOMIC_RELEASE);
  return 0;
}

int TVMFFITypeRegisterMetadata(int32_t type_index, const TVMFFITypeMetadata* metadata) {
  static const char* api = "TVMFFITypeRegisterMetadata";
  if (metadata == NULL) return ffi_raise("ValueError", "%s: metadata is NULL", api);
  pthread_rwlock_wrlock(&g_reg.lock);
  TypeEntry* entry = find_entry_or_raise(api, type_index);
  int rc = entry != NULL ? set_metadata(api, entry, metadata) : -1;
  pthread_rwlock_unlock(&g_reg.lock);
  return rc;
}

/* ------------------------------------------------------------------------------------------
 * Type attribute columns
 * ------------------------------------------------------------------------------------------ */

/* Finds or creates the column. Caller holds the write lock. NULL after raising. */
static AttrColumn* column_get_or_create(const TVMFFIByteArray* name) {
  AttrColumn* column = (AttrColumn*)ffi_str_map_get(&g_reg.columns, name->data, name->size);
  if (column != NULL) return column;
  column = (AttrColumn*)calloc(1, sizeof(AttrColumn));
  char* key = (char*)malloc(name->size + 1);
  if (key != NULL) {
    if (name->size != 0) memcpy(key, name->data, name->size);
    key[name->size] = '\0';
  }
  if (column == NULL || key == NULL ||
      ffi_str_map_put(&g_reg.columns, key, name->size, column) == NULL) {
    free(column);
    free(key);
    ffi_raise("MemoryError", "TVMFFITypeRegisterAttr: cannot create column `%.*s`",
              (int)name->size, name->data);
    return NULL;
  }
  column->name = key;
  column->column.begin_index = 0;
  return column;
}

/* Stores an owned value at data[type_index]. Caller holds the write lock. */
static int column_set(AttrColumn* column, int32_t type_index, const TVMFFIAny* value) {
  TVMFFITypeAttrColumn* pub = &column->column;
  if (type_index < pub->size && pub->data[type_index].type_index != kTVMFFINone) {
    return ffi_raise("RuntimeError", "TVMFFITypeRegisterAttr: TypeAttr `%s` is already "
                     "registered for type index %d; values cannot be replaced (register a "
                     "mutable container once and update it instead)", column->name,
                     (int)type_index);
  }
  TVMFFIAny owned;
  if (TVMFFIAnyViewToOwnedAny(value, &owned) != 0) return -1;
  TVMFFIAny* data = (TVMFFIAny*)array_reserve(pub->data, pub->size, &column->capacity,
                                              (int64_t)type_index + 1, sizeof(TVMFFIAny));
  if (data == NULL) {
    ffi_any_release(&owned);
    return ffi_raise("MemoryError", "TVMFFITypeRegisterAttr: cannot grow column `%s`",
                     column->name);
  }
  /* Payload before type_index, so a reader that sees the index sees the value. */
  data[type_index].zero_padding = owned.zero_padding;
  data[type_index].v_uint64 = owned.v_uint64;
  __atomic_store_n(&data[type_index].type_index, owned.type_index, __ATOMIC_RELEASE);
  __atomic_store_n(&pub->data, data, __ATOMIC_RELEASE);
  if (type_index >= pub->size) __atomic_store_n(&pub->size, type_index + 1, __ATOMIC_RELEASE);
  return 0;
}

int TVMFFITypeRegisterAttr(int32_t type_index, const TVMFFIByteArray* attr_name,
                           const TVMFFIAny* attr_value) {
  static const char* api = "TVMFFITypeRegisterAttr";
  if (check_byte_array(api, "attr_name", attr_name) != 0) return -1;
  if (attr_value == NULL) return ffi_raise("ValueError", "%s: attr_value is NULL", api);
  pthread_rwlock_wrlock(&g_reg.lock);
  int rc = -1;
  if (type_index == kTVMFFINone || find_entry_or_raise(api, type_index) != NULL) {
    AttrColumn* column = column_get_or_create(attr_name);
    /* Index 0 only declares the column. */
    if (column != NULL) {
      rc = type_index == kTVMFFINone ? 0 : column_set(column, type_index, attr_value);
    }
  }
  pthread_rwlock_unlock(&g_reg.lock);
  return rc;
}

const TVMFFITypeAttrColumn* TVMFFIGetTypeAttrColumn(const TVMFFIByteArray* attr_name) {
  if (attr_name == NULL || (attr_name->data == NULL && attr_name->size != 0)) {
    ffi_fatal("TVMFFIGetTypeAttrColumn", "attr_name is NULL");
  }
  pthread_rwlock_rdlock(&g_reg.lock);
  AttrColumn* column =
      (AttrColumn*)ffi_str_map_get(&g_reg.columns, attr_name->data, attr_name->size);
  pthread_rwlock_unlock(&g_reg.lock);
  return column != NULL ? &column->column : NULL;
}

/* ------------------------------------------------------------------------------------------
 * Start-up: the static type table (the fixed indices of TVMFFITypeIndex)
 * ------------------------------------------------------------------------------------------ */

typedef struct {
  int32_t index;
  const char* key;
} StaticType;

static const StaticType kPodTypes[] = {
    {kTVMFFINone, "None"},
    {kTVMFFIInt, "int"},
    {kTVMFFIBool, "bool"},
    {kTVMFFIFloat, "float"},
    {kTVMFFIOpaquePtr, "void*"},
    {kTVMFFIDataType, "DataType"},
    {kTVMFFIDevice, "Device"},
    {kTVMFFIDLTensorPtr, "DLTensor*"},
    {kTVMFFIRawStr, "const char*"},
    {kTVMFFIByteArrayPtr, "TVMFFIByteArray*"},
    {kTVMFFIObjectRValueRef, "ObjectRValueRef"},
    {kTVMFFISmallStr, "ffi.SmallStr"},
    {kTVMFFISmallBytes, "ffi.SmallBytes"},
    {kTVMFFIUnchanged, "ffi.Unchanged"},
};

static const StaticType kObjectTypes[] = {
    {kTVMFFIStr, "ffi.String"},
    {kTVMFFIBytes, "ffi.Bytes"},
    {kTVMFFIError, "ffi.Error"},
    {kTVMFFIFunction, "ffi.Function"},
    {kTVMFFIShape, "ffi.Shape"},
    {kTVMFFITensor, "ffi.Tensor"},
    {kTVMFFIArray, "ffi.Array"},
    {kTVMFFIMap, "ffi.Map"},
    {kTVMFFIModule, "ffi.Module"},
    {kTVMFFIOpaquePyObject, "ffi.OpaquePyObject"},
    {kTVMFFIList, "ffi.List"},
    {kTVMFFIDict, "ffi.Dict"},
    {kTVMFFIVisitInterrupt, "ffi.VisitInterrupt"},
    {kTVMFFIBigInt, "ffi.BigInt"},
};

static void register_static(const StaticType* type, int32_t depth, bool can_overflow,
                            int32_t parent) {
  TypeRequest req = {type->key, strlen(type->key), type->index, depth, 0, can_overflow, parent};
  register_type("runtime start-up", &req);
}

void ffi_type_registry_init(void) {
  pthread_rwlock_wrlock(&g_reg.lock);
  if (g_reg.initialized) {
    pthread_rwlock_unlock(&g_reg.lock);
    return;
  }
  g_reg.initialized = true;
  /* POD roots and the object leaves reserve no child slots; only ffi.Object lets its
   * children overflow into the dynamic range, starting at kTVMFFIDynObjectBegin. */
  for (size_t i = 0; i < sizeof(kPodTypes) / sizeof(kPodTypes[0]); ++i) {
    register_static(&kPodTypes[i], 0, false, -1);
  }
  StaticType object = {kTVMFFIObject, "ffi.Object"};
  register_static(&object, 0, true, -1);
  for (size_t i = 0; i < sizeof(kObjectTypes) / sizeof(kObjectTypes[0]); ++i) {
    register_static(&kObjectTypes[i], 1, false, kTVMFFIObject);
  }
  /* ffi.Object's metadata: the bare header. */
  TVMFFITypeMetadata object_meta = {{"", 0}, NULL, (int32_t)sizeof(TVMFFIObject),
                                    kTVMFFISEqHashKindUnsupported};
  TVMFFIByteArray any_hash = {"__any_hash__", 12};
  TVMFFIByteArray any_equal = {"__any_equal__", 13};
  if (set_metadata("runtime start-up", entry_at(kTVMFFIObject), &object_meta) != 0 ||
      column_get_or_create(&any_hash) == NULL || column_get_or_create(&any_equal) == NULL) {
    registry_fatal("runtime start-up", "cannot initialise the type table");
  }
  pthread_rwlock_unlock(&g_reg.lock);
}

/* ------------------------------------------------------------------------------------------
 * Built-in global functions
 * ------------------------------------------------------------------------------------------ */

/* Snapshot of every registered key in index order. */
static int collect_type_keys(TVMFFIByteArray** out, int64_t* count) {
  pthread_rwlock_rdlock(&g_reg.lock);
  size_t capacity = g_reg.types.count;
  TVMFFIByteArray* keys = (TVMFFIByteArray*)malloc((capacity == 0 ? 1 : capacity) *
                                                   sizeof(TVMFFIByteArray));
  int64_t n = 0;
  if (keys != NULL) {
    for (int32_t i = 0; i <= g_reg.max_index && (size_t)n < capacity; ++i) {
      TypeEntry* entry = entry_at(i);
      if (entry != NULL) keys[n++] = entry->info.type_key;
    }
  }
  pthread_rwlock_unlock(&g_reg.lock);
  if (keys == NULL) return ffi_raise("MemoryError", "ffi.GetRegisteredTypeKeys: out of memory");
  *out = keys;
  *count = n;
  return 0;
}

static int get_registered_type_keys(void* self, const TVMFFIAny* args, int32_t num_args,
                                    TVMFFIAny* result) {
  (void)self;
  (void)args;
  if (ffi_check_num_args("ffi.GetRegisteredTypeKeys", num_args, 0) != 0) return -1;
  TVMFFIByteArray* keys = NULL;
  int64_t n = 0;
  if (collect_type_keys(&keys, &n) != 0) return -1;
  TVMFFIAny* items = (TVMFFIAny*)calloc((size_t)(n == 0 ? 1 : n), sizeof(TVMFFIAny));
  int rc = items != NULL ? 0
                         : ffi_raise("MemoryError", "ffi.GetRegisteredTypeKeys: out of memory");
  int64_t made = 0;
  for (; rc == 0 && made < n; ++made) {
    rc = ffi_string_make(keys[made].data, keys[made].size, 0, &items[made]);
    if (rc != 0) break;
  }
  TVMFFIObject* array = NULL;
  if (rc == 0) rc = ffi_array_new(items, n, &array);
  for (int64_t i = 0; i < made; ++i) ffi_any_release(&items[i]);
  free(items);
  free(keys);
  if (rc != 0) return -1;
  ffi_ret_object(result, array);
  return 0;
}

void ffi_register_type_globals(void) {
  ffi_register_builtin("ffi.GetRegisteredTypeKeys", get_registered_type_keys);
}
