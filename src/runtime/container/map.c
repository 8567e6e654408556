/*
 * container/map.c -- ffi.Map (type index 72, never mutated after construction here) and
 * ffi.Dict (76, mutated in place), one object layout for both (the reference MapObj layout).
 *
 * Kernels built against the reference headers read these objects and, for Dict, insert and
 * erase inline, so the layouts and the probing are reproduced exactly:
 *  - small layout (bit 63 of slots set): data -> `slots & ~tag` key/value pairs of 32 bytes,
 *    scanned linearly, kept in insertion order;
 *  - dense layout: data -> blocks of 16 metadata bytes + 16 items (key, value, prev, next);
 *    a key's chain starts at its Fibonacci-hashed home slot and continues by probe-table jumps;
 *    prev/next link the items in insertion order.
 * Every object is allocated with the 80-byte dense body, because a kernel may switch a small
 * Dict to dense in place. Storage is malloc'ed and freed through data_deleter; storage a kernel
 * installed is freed through the deleter it installed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "container_internal.h"
#include "map_layout.h"

#define SMALL_INIT_CAPACITY 2
#define SMALL_MAX_CAPACITY 4
#define META_EMPTY 0xFF
#define META_PROTECTED 0xFE
#define META_CHAIN_BIT 0x80
#define META_JUMP_MASK 0x7F
#define NUM_JUMPS 126
#define NO_INDEX FFI_MAP_NO_POS
#define FIB_MULT 11400714819323198485ULL

static const uint64_t kProbe[NUM_JUMPS] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 21, 28, 36, 45, 55, 66, 78, 91, 105, 120,
    136, 153, 171, 190, 210, 231, 253, 276, 300, 325, 351, 378, 406, 435, 465, 496, 528, 561, 595,
    630, 666, 703, 741, 780, 820, 861, 903, 946, 990, 1035, 1081, 1128, 1176, 1225, 1275, 1326,
    1378, 1431, 1485, 1540, 1596, 1653, 1711, 1770, 1830, 1891, 1953, 2016, 2080, 2145, 2211, 2278,
    2346, 2415, 2485, 2556, 2628, 8515, 19110, 42778, 96141, 216153, 486591, 1092981, 2458653,
    5532801, 12442566, 27993903, 62983476, 141717030, 318844378, 717352503, 1614057336,
    3631522476ULL, 8170957530ULL, 18384510628ULL, 41364789378ULL, 93070452520ULL,
    209408356380ULL, 471168559170ULL, 1060128894105ULL, 2385289465695ULL, 5366898840628ULL,
    12075518705635ULL, 27169915244790ULL, 61132312065111ULL, 137547689707000ULL,
    309482283181501ULL, 696335127828753ULL, 1566753995631385ULL, 3525196511162271ULL,
    7931691992677701ULL, 17846306936293605ULL, 40154190677507445ULL, 90346928918121501ULL,
    203280589587557251ULL, 457381325854679626ULL, 1029107982097042876ULL,
    2315492959180353330ULL, 5209859154120846435ULL};

/* ---- layout accessors ---- */

static bool map_is_small(const MapObject* m) { return (m->slots & MAP_SMALL_TAG) != 0; }
static uint64_t small_capacity(const MapObject* m) { return m->slots & ~MAP_SMALL_TAG; }
static MapPair* small_pairs(const MapObject* m) { return (MapPair*)m->data; }

static uint8_t* slot_meta(const MapObject* m, uint64_t i) {
  return &((MapBlock*)m->data)[i / MAP_BLOCK_SLOTS].meta[i % MAP_BLOCK_SLOTS];
}
static MapItem* slot_item(const MapObject* m, uint64_t i) {
  return &((MapBlock*)m->data)[i / MAP_BLOCK_SLOTS].items[i % MAP_BLOCK_SLOTS];
}
static bool slot_is_head(const MapObject* m, uint64_t i) {
  return (*slot_meta(m, i) & META_CHAIN_BIT) == 0;
}
static uint64_t home_slot(const MapObject* m, const TVMFFIAny* key) {
  return (FIB_MULT * ffi_any_hash(key)) >> m->fib_shift;
}
/* Follows the chain link of slot i; false at the end of the chain. */
static bool slot_next(const MapObject* m, uint64_t* i) {
  uint8_t jump = *slot_meta(m, *i) & META_JUMP_MASK;
  if (jump == 0) return false;
  *i = (*i + kProbe[jump]) & (m->slots - 1);
  return true;
}
static void slot_set_jump(MapObject* m, uint64_t i, uint8_t jump) {
  uint8_t* meta = slot_meta(m, i);
  *meta = (uint8_t)((*meta & META_CHAIN_BIT) | jump);
}

/* ---- insertion-order list of the dense layout ---- */

static void iter_push_back(MapObject* m, uint64_t i) {
  MapItem* item = slot_item(m, i);
  item->prev = m->iter_tail;
  item->next = NO_INDEX;
  if (m->iter_tail != NO_INDEX) slot_item(m, m->iter_tail)->next = i;
  else m->iter_head = i;
  m->iter_tail = i;
}

static void iter_remove(MapObject* m, uint64_t i) {
  MapItem* item = slot_item(m, i);
  if (item->prev != NO_INDEX) slot_item(m, item->prev)->next = item->next;
  else m->iter_head = item->next;
  if (item->next != NO_INDEX) slot_item(m, item->next)->prev = item->prev;
  else m->iter_tail = item->prev;
}

/* The item that moved from slot src to slot dst takes src's place in the order. */
static void iter_relink(MapObject* m, uint64_t src, uint64_t dst) {
  MapItem* item = slot_item(m, dst);
  if (item->prev != NO_INDEX) slot_item(m, item->prev)->next = dst;
  else m->iter_head = dst;
  if (item->next != NO_INDEX) slot_item(m, item->next)->prev = dst;
  else m->iter_tail = dst;
  (void)src;
}

/* ---- storage ---- */

static void release_storage(MapObject* m) {
  if (m->data_deleter != NULL) m->data_deleter(m->data);
  m->data = NULL;
  m->data_deleter = NULL;
}

/* Releases every key and value and the storage; leaves an empty small map of capacity 0. */
static void map_destroy(void* self) {
  MapObject* m = (MapObject*)self;
  if (map_is_small(m)) {
    for (uint64_t i = 0; i < m->size; ++i) {
      ffi_any_release_nested(&small_pairs(m)[i].key);
      ffi_any_release_nested(&small_pairs(m)[i].value);
    }
  } else if (m->data != NULL) {
    for (uint64_t i = 0; i < m->slots; ++i) {
      uint8_t meta = *slot_meta(m, i);
      if (meta == META_EMPTY || meta == META_PROTECTED) continue;
      ffi_any_release_nested(&slot_item(m, i)->key);
      ffi_any_release_nested(&slot_item(m, i)->value);
    }
  }
  release_storage(m);
  m->size = 0;
  m->slots = MAP_SMALL_TAG;
}
FFI_DEFINE_DELETER(map_deleter, map_destroy)

/* Installs an empty small buffer of `capacity` pairs (old storage already released). */
static int small_alloc(MapObject* m, uint64_t capacity) {
  m->data = malloc((size_t)capacity * sizeof(MapPair));
  if (m->data == NULL) return ffi_raise("MemoryError", "ffi.Map: out of memory");
  m->data_deleter = ffi_container_buffer_free;
  m->slots = MAP_SMALL_TAG | capacity;
  m->size = 0;
  return 0;
}

static int map_new(int32_t type_index, MapObject** out) {
  MapObject* m = (MapObject*)ffi_object_alloc(sizeof(MapObject), type_index, map_deleter);
  if (m == NULL) return -1;
  if (small_alloc(m, SMALL_INIT_CAPACITY) != 0) {
    ffi_decref(&m->header);
    return -1;
  }
  *out = m;
  return 0;
}

/* Table size for `capacity` entries: a power of two above it with room to spare. */
static void table_size(uint64_t capacity, uint32_t* fib_shift, uint64_t* slots) {
  uint32_t shift = 64;
  uint64_t n = 1;
  for (uint64_t c = capacity; c != 0; c >>= 1) {
    shift -= 1;
    n <<= 1;
  }
  if (n < capacity * 2) {
    shift -= 1;
    n <<= 1;
  }
  *fib_shift = shift;
  *slots = n;
}

/* A fresh empty dense storage; on success the fields of `out` describe it. */
static int dense_alloc(MapObject* out, uint64_t slots, uint32_t fib_shift) {
  size_t blocks = (size_t)((slots + MAP_BLOCK_SLOTS - 1) / MAP_BLOCK_SLOTS);
  MapBlock* data = (MapBlock*)malloc(blocks * sizeof(MapBlock));
  if (data == NULL) return ffi_raise("MemoryError", "ffi.Map: out of memory for %" PRIu64 " slots", slots);
  for (size_t b = 0; b < blocks; ++b) memset(data[b].meta, META_EMPTY, MAP_BLOCK_SLOTS);
  out->data = data;
  out->data_deleter = ffi_container_buffer_free;
  out->slots = slots;
  out->fib_shift = fib_shift;
  out->size = 0;
  out->iter_head = out->iter_tail = NO_INDEX;
  return 0;
}

/* ---- lookup ---- */

/* Position of key (pair index or slot), or NO_INDEX. */
static uint64_t map_find(const MapObject* m, const TVMFFIAny* key) {
  if (map_is_small(m)) {
    for (uint64_t i = 0; i < m->size; ++i) {
      if (ffi_any_equal(key, &small_pairs(m)[i].key)) return i;
    }
    return NO_INDEX;
  }
  if (m->size == 0 || m->data == NULL) return NO_INDEX;
  uint64_t i = home_slot(m, key);
  if (!slot_is_head(m, i)) return NO_INDEX;
  do {
    if (ffi_any_equal(key, &slot_item(m, i)->key)) return i;
  } while (slot_next(m, &i));
  return NO_INDEX;
}

static TVMFFIAny* map_value_at(MapObject* m, uint64_t pos) {
  return map_is_small(m) ? &small_pairs(m)[pos].value : &slot_item(m, pos)->value;
}

/* ---- dense insertion (the reference DenseMapObj probing) ---- */

static bool dense_full(const MapObject* m) {
  return (double)(m->size + 1) > (double)m->slots * 0.99;
}

/* First empty slot reachable from i by one probe jump. */
static bool next_empty(const MapObject* m, uint64_t i, uint8_t* jump, uint64_t* out) {
  for (uint8_t j = 1; j < NUM_JUMPS; ++j) {
    uint64_t candidate = (i + kProbe[j]) & (m->slots - 1);
    if (*slot_meta(m, candidate) == META_EMPTY) {
      *jump = j;
      *out = candidate;
      return true;
    }
  }
  return false;
}

/* The chain element that links to slot `target`. */
static uint64_t chain_prev(const MapObject* m, uint64_t target) {
  uint64_t i = home_slot(m, &slot_item(m, target)->key);
  uint64_t next = i;
  while (slot_next(m, &next) && next != target) i = next;
  return i;
}

/* Slot `target` holds a member of another key's chain: move that chain tail elsewhere so the
 * new key can start its own chain there. False when there is no room (caller rehashes). */
static bool dense_evict_and_place(MapObject* m, uint64_t target, uint64_t* out) {
  uint64_t r = target, w = chain_prev(m, target);
  bool first = true;
  for (;;) {
    uint8_t jump;
    uint64_t empty;
    if (!next_empty(m, w, &jump, &empty)) return false;
    uint8_t r_meta = *slot_meta(m, r);
    *slot_item(m, empty) = *slot_item(m, r);
    *slot_meta(m, empty) = META_CHAIN_BIT;
    iter_relink(m, r, empty);
    /* The target stays reserved so later moves of this chain cannot land on it. */
    *slot_meta(m, r) = first ? META_PROTECTED : META_EMPTY;
    first = false;
    slot_set_jump(m, w, jump);
    w = empty;
    uint8_t step = r_meta & META_JUMP_MASK;
    if (step == 0) break;
    r = (r + kProbe[step]) & (m->slots - 1);
  }
  *slot_meta(m, target) = 0;
  *out = target;
  return true;
}

/* Finds or makes the slot of key. *fresh tells whether it was made (key/value then unset).
 * False when the table needs to grow first. */
static bool dense_try_insert(MapObject* m, const TVMFFIAny* key, uint64_t* out, bool* fresh) {
  uint64_t i = home_slot(m, key);
  *fresh = true;
  uint8_t meta = *slot_meta(m, i);
  if (meta == META_EMPTY) {
    *slot_meta(m, i) = 0;
    *out = i;
    return true;
  }
  if ((meta & META_CHAIN_BIT) != 0) return !dense_full(m) && dense_evict_and_place(m, i, out);
  uint64_t tail = i;
  do {
    if (ffi_any_equal(key, &slot_item(m, i)->key)) {
      *fresh = false;
      *out = i;
      return true;
    }
    tail = i;
  } while (slot_next(m, &i));
  if (dense_full(m)) return false;
  uint8_t jump;
  if (!next_empty(m, tail, &jump, out)) return false;
  *slot_meta(m, *out) = META_CHAIN_BIT;
  slot_set_jump(m, tail, jump);
  return true;
}

/* Places a key known to be absent into a dense table that has room (rehash helper). */
static bool dense_place(MapObject* m, TVMFFIAny key, TVMFFIAny value) {
  uint64_t slot;
  bool fresh;
  if (!dense_try_insert(m, &key, &slot, &fresh)) return false;
  slot_item(m, slot)->key = key;
  slot_item(m, slot)->value = value;
  iter_push_back(m, slot);
  m->size += 1;
  return true;
}

/* Rebuilds m as a dense table of `slots` slots, moving every entry in iteration order.
 * Doubles again if probing runs out of room (can only happen with pathological hashes). */
static int dense_rebuild(MapObject* m, uint64_t slots, uint32_t fib_shift) {
  for (;;) {
    MapObject fresh;
    if (dense_alloc(&fresh, slots, fib_shift) != 0) return -1;
    bool ok = true;
    if (map_is_small(m)) {
      for (uint64_t i = 0; i < m->size && ok; ++i) {
        ok = dense_place(&fresh, small_pairs(m)[i].key, small_pairs(m)[i].value);
      }
    } else {
      for (uint64_t i = m->iter_head; i != NO_INDEX && ok; i = slot_item(m, i)->next) {
        ok = dense_place(&fresh, slot_item(m, i)->key, slot_item(m, i)->value);
      }
    }
    if (ok) {
      release_storage(m); /* entries were moved, not copied */
      m->data = fresh.data;
      m->data_deleter = fresh.data_deleter;
      m->slots = fresh.slots;
      m->fib_shift = fresh.fib_shift;
      m->iter_head = fresh.iter_head;
      m->iter_tail = fresh.iter_tail;
      return 0;
    }
    free(fresh.data);
    slots *= 2;
    fib_shift -= 1;
  }
}

/* Moves the small pairs into a new malloc'ed buffer of `capacity`. */
static int small_grow(MapObject* m, uint64_t capacity) {
  MapPair* data = (MapPair*)malloc((size_t)capacity * sizeof(MapPair));
  if (data == NULL) return ffi_raise("MemoryError", "ffi.Map: out of memory");
  if (m->size > 0) memcpy(data, m->data, (size_t)m->size * sizeof(MapPair));
  uint64_t size = m->size;
  release_storage(m);
  m->data = data;
  m->data_deleter = ffi_container_buffer_free;
  m->slots = MAP_SMALL_TAG | capacity;
  m->size = size;
  return 0;
}

/* Inserts or overwrites; steals key and value (released on failure too). The reference's
 * headers do the same inline in kernels, so the orders agree:
 *  - a small map overwrites in place, appends, or grows its capacity 2 -> 4;
 *  - a full small map of capacity 4 turns dense (sized for its 4 entries) on any insert, even
 *    one that overwrites;
 *  - a dense map overwrites by moving the entry to the end of the iteration order. */
static int map_insert(MapObject* m, TVMFFIAny key, TVMFFIAny value) {
  int rc = 0;
  if (map_is_small(m)) {
    uint64_t cap = small_capacity(m);
    if (cap < SMALL_MAX_CAPACITY || m->size < cap) {
      uint64_t pos = map_find(m, &key);
      if (pos != NO_INDEX) {
        TVMFFIAny old = small_pairs(m)[pos].value;
        small_pairs(m)[pos].value = value;
        ffi_any_release(&old);
        ffi_any_release(&key);
        return 0;
      }
      if (m->size < cap) {
        small_pairs(m)[m->size].key = key;
        small_pairs(m)[m->size].value = value;
        m->size += 1;
        return 0;
      }
      uint64_t grown = cap * 2 < SMALL_INIT_CAPACITY ? SMALL_INIT_CAPACITY : cap * 2;
      rc = small_grow(m, grown > SMALL_MAX_CAPACITY ? SMALL_MAX_CAPACITY : grown);
      if (rc == 0) return map_insert(m, key, value);
    } else {
      uint32_t shift;
      uint64_t slots;
      table_size(m->size, &shift, &slots);
      rc = dense_rebuild(m, slots, shift);
    }
  }
  uint64_t slot;
  bool fresh = false;
  while (rc == 0 && !dense_try_insert(m, &key, &slot, &fresh)) {
    rc = dense_rebuild(m, m->slots * 2, m->fib_shift - 1);
  }
  if (rc != 0) {
    ffi_any_release(&key);
    ffi_any_release(&value);
    return rc;
  }
  MapItem* item = slot_item(m, slot);
  if (fresh) {
    item->key = key;
    item->value = value;
    m->size += 1;
  } else {
    TVMFFIAny old = item->value;
    item->value = value;
    ffi_any_release(&old);
    ffi_any_release(&key);
    iter_remove(m, slot);
  }
  iter_push_back(m, slot);
  return 0;
}

/* Removes the entry at pos (found by map_find). */
static void map_erase_at(MapObject* m, uint64_t pos) {
  TVMFFIAny key, value;
  if (map_is_small(m)) {
    MapPair* pairs = small_pairs(m);
    key = pairs[pos].key;
    value = pairs[pos].value;
    memmove(&pairs[pos], &pairs[pos + 1], (size_t)(m->size - pos - 1) * sizeof(MapPair));
    m->size -= 1;
  } else {
    key = slot_item(m, pos)->key;
    value = slot_item(m, pos)->value;
    m->size -= 1;
    iter_remove(m, pos);
    uint64_t last = pos, prev = pos;
    if (!slot_next(m, &last)) {
      /* pos ends its chain: unlink it from its predecessor. */
      if (!slot_is_head(m, pos)) slot_set_jump(m, chain_prev(m, pos), 0);
      *slot_meta(m, pos) = META_EMPTY;
    } else {
      /* Keep the chain compact: the chain's last element moves into pos. */
      for (uint64_t probe = last; slot_next(m, &probe);) {
        prev = last;
        last = probe;
      }
      slot_item(m, pos)->key = slot_item(m, last)->key;
      slot_item(m, pos)->value = slot_item(m, last)->value;
      slot_item(m, pos)->prev = slot_item(m, last)->prev;
      slot_item(m, pos)->next = slot_item(m, last)->next;
      iter_relink(m, last, pos);
      *slot_meta(m, last) = META_EMPTY;
      slot_set_jump(m, prev, 0);
    }
  }
  ffi_any_release(&key); /* last: the entry might own the map */
  ffi_any_release(&value);
}

/* ---- iteration: positions in order ---- */

static uint64_t map_first(const MapObject* m) {
  if (m->size == 0) return NO_INDEX;
  return map_is_small(m) ? 0 : m->iter_head;
}

static uint64_t map_after(const MapObject* m, uint64_t pos) {
  if (map_is_small(m)) return pos + 1 < m->size ? pos + 1 : NO_INDEX;
  return slot_item(m, pos)->next;
}

static bool map_pos_valid(const MapObject* m, uint64_t pos) {
  if (pos == NO_INDEX) return false;
  if (map_is_small(m)) return pos < m->size;
  if (pos >= m->slots) return false;
  uint8_t meta = *slot_meta(m, pos);
  return meta != META_EMPTY && meta != META_PROTECTED;
}

static TVMFFIAny* map_key_at(MapObject* m, uint64_t pos) {
  return map_is_small(m) ? &small_pairs(m)[pos].key : &slot_item(m, pos)->key;
}

/* ---- internal API: the structural services (internal.h) and map_globals.c
 * (container_internal.h) ---- */

int ffi_map_new_empty(int32_t type_index, TVMFFIObject** out) {
  MapObject* m;
  if (map_new(type_index, &m) != 0) return -1;
  *out = &m->header;
  return 0;
}

int ffi_map_set(TVMFFIObject* map, TVMFFIAny key, TVMFFIAny value) {
  return map_insert((MapObject*)map, key, value);
}

int ffi_map_set_views(TVMFFIObject* map, const TVMFFIAny* key, const TVMFFIAny* value) {
  TVMFFIAny owned_key, owned_value;
  if (TVMFFIAnyViewToOwnedAny(key, &owned_key) != 0) return -1;
  if (TVMFFIAnyViewToOwnedAny(value, &owned_value) != 0) {
    ffi_any_release(&owned_key);
    return -1;
  }
  return map_insert((MapObject*)map, owned_key, owned_value);
}

int64_t ffi_map_size(TVMFFIObject* map) { return (int64_t)((MapObject*)map)->size; }

bool ffi_map_next(TVMFFIObject* map, uint64_t* cursor, TVMFFIAny** key, TVMFFIAny** value) {
  MapObject* m = (MapObject*)map;
  /* cursor holds position + 1 of the last entry returned, 0 before the first. */
  uint64_t pos = *cursor == 0 ? map_first(m) : map_after(m, *cursor - 1);
  if (pos == NO_INDEX || !map_pos_valid(m, pos)) return false;
  *key = map_key_at(m, pos);
  *value = map_value_at(m, pos);
  *cursor = pos + 1;
  return true;
}

TVMFFIAny* ffi_map_lookup(TVMFFIObject* map, const TVMFFIAny* key) {
  MapObject* m = (MapObject*)map;
  uint64_t pos = map_find(m, key);
  return pos == NO_INDEX ? NULL : map_value_at(m, pos);
}

uint64_t ffi_map_find_pos(TVMFFIObject* map, const TVMFFIAny* key) {
  return map_find((MapObject*)map, key);
}
uint64_t ffi_map_first_pos(TVMFFIObject* map) { return map_first((MapObject*)map); }
uint64_t ffi_map_after_pos(TVMFFIObject* map, uint64_t pos) { return map_after((MapObject*)map, pos); }
bool ffi_map_pos_valid(TVMFFIObject* map, uint64_t pos) { return map_pos_valid((MapObject*)map, pos); }
TVMFFIAny* ffi_map_key_at(TVMFFIObject* map, uint64_t pos) { return map_key_at((MapObject*)map, pos); }
TVMFFIAny* ffi_map_value_at(TVMFFIObject* map, uint64_t pos) {
  return map_value_at((MapObject*)map, pos);
}
void ffi_map_erase_pos(TVMFFIObject* map, uint64_t pos) { map_erase_at((MapObject*)map, pos); }

int ffi_map_clear(TVMFFIObject* map) {
  MapObject* m = (MapObject*)map;
  map_destroy(m);
  return small_alloc(m, SMALL_INIT_CAPACITY);
}
