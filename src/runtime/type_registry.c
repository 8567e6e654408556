/*
 * type_registry.c -- the type table: static and dynamic type indices, type keys and ancestors
 * (TVMFFITypeInfo, TVMFFITypeGetOrAllocIndex, TVMFFITypeKeyToIndex, TVMFFIGetTypeInfo). What is
 * registered on a type (fields, methods, metadata, attribute columns) is type_members.c's.
 *
 * Layout and concurrency:
 *  - Every type is one malloc'ed TypeEntry that lives for the process, so the TVMFFITypeInfo
 *    pointers handed out never move. Index -> entry goes through a two-level table of chunks
 *    of atomic entry pointers: O(1) and lock-free, because inline C++ calls TVMFFIGetTypeInfo
 *    on hot paths (subclass tests, error messages).
 *  - Key -> entry (here) and attribute name -> column (type_members.c) are open-addressing
 *    hash tables guarded, like every mutation, by one process-wide rwlock.
 *  - Arrays that readers reach without the lock (fields, methods, column data) are never freed
 *    when they grow: the old block goes on a retired list, so a reader holding a stale pointer
 *    still sees valid (old) contents. New elements are written before the count that exposes
 *    them is published with a release store.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "error_internal.h"
#include "object_internal.h"
#include "str_map_internal.h"
#include "type_registry_entry.h"
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
  int64_t next_dynamic_index;
  int32_t max_index;       /* highest registered index, for listing */
  RetiredBlock* retired;   /* outgrown arrays, kept alive for lock-free readers */
  bool initialized;
} g_reg = {PTHREAD_RWLOCK_INITIALIZER, {NULL, 0, 0, 0}, kTVMFFIDynObjectBegin,
           -1, NULL, false};

/* ------------------------------------------------------------------------------------------
 * Small helpers (type_registry_entry.h: type_members.c uses them too)
 * ------------------------------------------------------------------------------------------ */

void ffi_type_registry_lock(bool write) {
  if (write) {
    pthread_rwlock_wrlock(&g_reg.lock);
  } else {
    pthread_rwlock_rdlock(&g_reg.lock);
  }
}

void ffi_type_registry_unlock(void) { pthread_rwlock_unlock(&g_reg.lock); }

TypeEntry* ffi_type_entry_at(int32_t type_index) {
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
int ffi_type_copy_bytes(const char* what, TVMFFIByteArray in, TVMFFIByteArray* out) {
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

void ffi_type_free_bytes(TVMFFIByteArray* b) {
  if (b->size != 0) free((void*)b->data);
  b->data = "";
  b->size = 0;
}

int ffi_type_check_byte_array(const char* api, const char* arg, const TVMFFIByteArray* b) {
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
void* ffi_type_array_reserve(const void* old, int32_t count, int32_t* capacity, int64_t needed,
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

TypeEntry* ffi_type_entry_or_raise(const char* api, int32_t type_index) {
  TypeEntry* entry = ffi_type_entry_at(type_index);
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
    TypeEntry* taken = ffi_type_entry_at(req->static_index);
    if (taken != NULL) {
      registry_fatal(api, "static type index %d of `%.*s` is already taken by `%.*s`",
                     (int)req->static_index, (int)req->key_size, req->key, KEY_ARGS(taken));
    }
    return req->static_index;
  }
  if (parent == NULL) return take_global_indices(api, req, needed);
  /* Skip slots a static type has pinned inside the parent's reserved range. */
  while (parent->allocated_slots < parent->num_slots &&
         ffi_type_entry_at((int32_t)(parent->info.type_index + parent->allocated_slots)) != NULL) {
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
  if (req->parent_index != -1) parent = ffi_type_entry_at(req->parent_index);
  check_request(api, req, parent);
  int32_t index = choose_index(api, req, parent);
  if (ffi_type_entry_at(index) != NULL) {
    registry_fatal(api, "type index %d chosen for `%.*s` is already used by `%.*s`", (int)index,
                   (int)req->key_size, req->key, KEY_ARGS(ffi_type_entry_at(index)));
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
  if (ffi_type_check_byte_array("TVMFFITypeKeyToIndex", "type_key", type_key) != 0) return -1;
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
  TypeEntry* entry = ffi_type_entry_at(type_index);
  if (FFI_UNLIKELY(entry == NULL)) {
    ffi_fatal("TVMFFIGetTypeInfo", "Cannot find type info for type_index=%d", (int)type_index);
  }
  return &entry->info;
}

/* ------------------------------------------------------------------------------------------
 * Internal queries (internal.h)
 * ------------------------------------------------------------------------------------------ */

TVMFFIByteArray ffi_type_key_of(int32_t type_index) {
  TypeEntry* entry = ffi_type_entry_at(type_index);
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
  TypeEntry* target = ffi_type_entry_at(ancestor);
  TypeEntry* actual = ffi_type_entry_at(type_index);
  if (target == NULL || actual == NULL) return false;
  int32_t depth = target->info.type_depth;
  return actual->info.type_depth > depth &&
         actual->info.type_ancestors[depth]->type_index == ancestor;
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
  pthread_rwlock_unlock(&g_reg.lock);
}

/* ------------------------------------------------------------------------------------------
 * For the built-in global functions (type_registry_globals.c)
 * ------------------------------------------------------------------------------------------ */

/* Snapshot of every registered key in index order. */
int ffi_type_registry_collect_keys(TVMFFIByteArray** out, int64_t* count) {
  pthread_rwlock_rdlock(&g_reg.lock);
  size_t capacity = g_reg.types.count;
  TVMFFIByteArray* keys = (TVMFFIByteArray*)malloc((capacity == 0 ? 1 : capacity) *
                                                   sizeof(TVMFFIByteArray));
  int64_t n = 0;
  if (keys != NULL) {
    for (int32_t i = 0; i <= g_reg.max_index && (size_t)n < capacity; ++i) {
      TypeEntry* entry = ffi_type_entry_at(i);
      if (entry != NULL) keys[n++] = entry->info.type_key;
    }
  }
  pthread_rwlock_unlock(&g_reg.lock);
  if (keys == NULL) return ffi_raise("MemoryError", "ffi.GetRegisteredTypeKeys: out of memory");
  *out = keys;
  *count = n;
  return 0;
}
