/* ffi.Map and ffi.Dict: both layouts of spec/ABI.md section 4.4 as a reference kernel reads them
 * (this file carries its own reader: the hashing and probing a C++ kernel runs inline), the
 * small -> dense switch at the 5th key, insertion order, erase, the AnyHash/AnyEqual rules,
 * 100,000 random Dict operations against a simple model, every global function with its error
 * paths, and reference counts. */
#include <stdint.h>

#include "check.h"

#define SMALL_TAG ((uint64_t)1 << 63)
#define NO_INDEX UINT64_MAX

typedef struct {
  TVMFFIObject header;
  void* data;
  uint64_t size;
  uint64_t slots;
  void (*data_deleter)(void*);
  uint32_t fib_shift;
  uint64_t iter_head;
  uint64_t iter_tail;
} MapView;

typedef struct {
  TVMFFIAny key, value;
  uint64_t prev, next;
} Item;

static const uint64_t kProbe[126] = {
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

/* ---- the hashing a kernel runs (spec 4.4), written from the spec text ---- */

static uint64_t combine(uint64_t k, uint64_t x) { return k ^ (x + 0x9e3779b9ULL + (k << 6) + (k >> 2)); }

static uint64_t hash_bytes(const char* d, size_t n) {
  uint64_t r = 0;
  for (size_t i = 0; i < n; i += 8) {
    uint64_t w = 0;
    memcpy(&w, d + i, n - i < 8 ? n - i : 8);
    r = (r * 1099511628211ULL + w) % 2147483647ULL;
  }
  return r;
}

static TVMFFIByteArray str_of(const TVMFFIAny* v) {
  if (v->type_index == kTVMFFISmallStr || v->type_index == kTVMFFISmallBytes) {
    TVMFFIByteArray b = {v->v_bytes, v->small_str_len};
    return b;
  }
  return *TVMFFIBytesGetByteArrayPtr(v->v_obj);
}

static uint64_t spec_hash(const TVMFFIAny* v) {
  if (v->type_index == kTVMFFISmallStr) return combine(kTVMFFIStr, v->v_uint64 % 2147483647ULL);
  if (v->type_index == kTVMFFISmallBytes) return combine(kTVMFFIBytes, v->v_uint64 % 2147483647ULL);
  if (v->type_index == kTVMFFIStr || v->type_index == kTVMFFIBytes) {
    TVMFFIByteArray b = str_of(v);
    return combine((uint64_t)v->type_index, hash_bytes(b.data, b.size));
  }
  return combine((uint64_t)(int64_t)v->type_index, v->v_uint64);
}

static int spec_equal(const TVMFFIAny* a, const TVMFFIAny* b) {
  if (memcmp(a, b, 16) == 0) return 1;
  int sa = a->type_index == kTVMFFIStr || a->type_index == kTVMFFISmallStr;
  int sb = b->type_index == kTVMFFIStr || b->type_index == kTVMFFISmallStr;
  if (!(sa && sb)) return 0;
  TVMFFIByteArray x = str_of(a), y = str_of(b);
  return x.size == y.size && memcmp(x.data, y.data, x.size) == 0;
}

/* ---- a kernel-style reader of both layouts ---- */

static uint8_t meta_at(const MapView* m, uint64_t i) {
  return ((const uint8_t*)m->data)[(i / 16) * 784 + i % 16];
}
static const Item* item_at(const MapView* m, uint64_t i) {
  return (const Item*)((const char*)m->data + (i / 16) * 784 + 16 + (i % 16) * 48);
}

/* The value stored under key, or NULL; probes exactly as the inline C++ does. */
static const TVMFFIAny* reader_find(const void* obj, const TVMFFIAny* key) {
  const MapView* m = (const MapView*)obj;
  if (m->slots & SMALL_TAG) {
    const TVMFFIAny* pairs = (const TVMFFIAny*)m->data;
    for (uint64_t i = 0; i < m->size; ++i) {
      if (spec_equal(key, &pairs[2 * i])) return &pairs[2 * i + 1];
    }
    return NULL;
  }
  uint64_t i = (11400714819323198485ULL * spec_hash(key)) >> m->fib_shift;
  if (meta_at(m, i) & 0x80) return NULL;
  for (;;) {
    if (spec_equal(key, &item_at(m, i)->key)) return &item_at(m, i)->value;
    uint8_t jump = meta_at(m, i) & 0x7F;
    if (jump == 0) return NULL;
    i = (i + kProbe[jump]) & (m->slots - 1);
  }
}

/* The k-th key in iteration order. */
static const TVMFFIAny* reader_key_at(const void* obj, uint64_t k) {
  const MapView* m = (const MapView*)obj;
  if (m->slots & SMALL_TAG) return k < m->size ? &((const TVMFFIAny*)m->data)[2 * k] : NULL;
  uint64_t i = m->iter_head;
  for (uint64_t s = 0; s < k && i != NO_INDEX; ++s) i = item_at(m, i)->next;
  return i == NO_INDEX ? NULL : &item_at(m, i)->key;
}

/* ---- helpers ---- */

static void* new_dict(void) {
  TVMFFIAny r;
  if (call_global("ffi.Dict", NULL, 0, &r) != 0) return NULL;
  return r.v_obj;
}

static int dict_set(void* d, TVMFFIAny k, TVMFFIAny v) {
  TVMFFIAny args[3] = {any_obj(d), k, v}, r;
  return call_global("ffi.DictSetItem", args, 3, &r);
}

static int call2(const char* name, void* m, TVMFFIAny k, TVMFFIAny* r) {
  TVMFFIAny args[2] = {any_obj(m), k};
  return call_global(name, args, 2, r);
}

/* Owned form of a key (what the map stores), for the reader. */
static TVMFFIAny owned(TVMFFIAny view) {
  TVMFFIAny out;
  if (TVMFFIAnyViewToOwnedAny(&view, &out) != 0) memset(&out, 0, sizeof(out));
  return out;
}

static void drop_error(void) {
  void* err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err != NULL) TVMFFIObjectDecRef(err);
}

/* ---- tests ---- */

static void test_hash_constants(void) {
  TVMFFIAny small = owned(any_str("abc"));
  CHECK_EQ_INT(small.type_index, kTVMFFISmallStr);
  CHECK(spec_hash(&small) == 2660953131ULL);
  TVMFFIAny five = any_int(5);
  CHECK(spec_hash(&five) == 2654435839ULL);
  /* A heap string object holding "abc" (kernels may make one) hashes and compares the same. */
  struct {
    TVMFFIObject header;
    TVMFFIByteArray bytes;
  } heap = {{((uint64_t)1 << 32) | 1000, kTVMFFIStr, 0, {NULL}}, {"abc", 3}};
  TVMFFIAny heap_any = any_obj(&heap);
  CHECK(spec_hash(&heap_any) == 2660953131ULL);
  TVMFFIAny args[2] = {any_str("abc"), any_int(7)}, r;
  CHECK(call_global("ffi.Map", args, 2, &r) == 0);
  void* m = r.v_obj;
  TVMFFIAny got;
  CHECK(call2("ffi.MapGetItem", m, heap_any, &got) == 0);
  CHECK_EQ_INT(got.v_int64, 7);
  TVMFFIObjectDecRef(m);
  /* The same through a dense Dict: the runtime's hash must place "abc" where kernels probe. */
  void* d = new_dict();
  char name[32];
  for (int i = 0; i < 20; ++i) {
    snprintf(name, sizeof(name), "key%d", i);
    CHECK(dict_set(d, any_str(name), any_int(i)) == 0);
  }
  CHECK(dict_set(d, heap_any, any_int(99)) == 0);
  CHECK(reader_find(d, &small) != NULL && reader_find(d, &small)->v_int64 == 99);
  CHECK(reader_find(d, &heap_any) != NULL);
  CHECK(dict_set(d, any_str("abc"), any_int(100)) == 0); /* same key: overwrite */
  TVMFFIAny one[1] = {any_obj(d)};
  CHECK(call_global("ffi.DictSize", one, 1, &r) == 0);
  CHECK_EQ_INT(r.v_int64, 21);
  TVMFFIObjectDecRef(d);
  CHECK_EQ_INT(check_strong_count(&heap), 1000);
}

static void test_small_layout(void) {
  TVMFFIAny args[8] = {any_str("a"), any_int(1), any_str("b"), any_int(2),
                       any_str("c"), any_int(3), any_str("a"), any_int(4)};
  TVMFFIAny r;
  CHECK(call_global("ffi.Map", args, 8, &r) == 0);
  CHECK_EQ_INT(r.type_index, kTVMFFIMap);
  MapView* m = (MapView*)r.v_obj;
  CHECK(m->slots & SMALL_TAG);
  CHECK_EQ_INT(m->size, 3);
  CHECK((m->slots & ~SMALL_TAG) >= 3 && (m->slots & ~SMALL_TAG) <= 4);
  TVMFFIAny a = owned(any_str("a")), c = owned(any_str("c"));
  CHECK(reader_find(m, &a)->v_int64 == 4); /* later duplicate overwrites in place */
  CHECK(reader_find(m, &c)->v_int64 == 3);
  CHECK(spec_equal(reader_key_at(m, 0), &a));
  CHECK(spec_equal(reader_key_at(m, 2), &c));
  TVMFFIObjectDecRef(m);
}

static void test_small_to_dense_at_fifth_key(void) {
  void* d = new_dict();
  MapView* m = (MapView*)d;
  CHECK(m->slots & SMALL_TAG);
  CHECK_EQ_INT(m->slots & ~SMALL_TAG, 2); /* reference initial capacity */
  for (int i = 0; i < 4; ++i) CHECK(dict_set(d, any_int(i * 10), any_int(i)) == 0);
  CHECK(m->slots & SMALL_TAG);
  CHECK_EQ_INT(m->slots & ~SMALL_TAG, 4);
  CHECK(dict_set(d, any_int(40), any_int(4)) == 0);
  CHECK((m->slots & SMALL_TAG) == 0);
  CHECK_EQ_INT(m->size, 5);
  CHECK_EQ_INT(m->slots, 8); /* sized for the 4 entries it had, as the reference's (measured) */
  CHECK_EQ_INT(m->fib_shift, 61);
  for (int i = 0; i < 5; ++i) {
    TVMFFIAny k = any_int(i * 10);
    CHECK(reader_find(d, &k) != NULL && reader_find(d, &k)->v_int64 == i);
    CHECK(reader_key_at(d, (uint64_t)i)->v_int64 == i * 10); /* insertion order */
  }
  CHECK(reader_key_at(d, 5) == NULL);
  /* Growing on: slots double while the load stays under 0.99, fib_shift follows. */
  for (int i = 5; i < 1000; ++i) CHECK(dict_set(d, any_int(i * 10), any_int(i)) == 0);
  CHECK_EQ_INT(m->size, 1000);
  CHECK((double)m->size <= 0.99 * (double)m->slots);
  CHECK_EQ_INT((uint64_t)1 << (64 - m->fib_shift), m->slots);
  for (int i = 0; i < 1000; ++i) {
    TVMFFIAny k = any_int(i * 10);
    CHECK(reader_find(d, &k) != NULL && reader_find(d, &k)->v_int64 == i);
  }
  TVMFFIObjectDecRef(d);
}

static void test_equality_rules(void) {
  TVMFFIAny t = {0}, f = {0};
  t.type_index = kTVMFFIBool;
  t.v_int64 = 1;
  f.type_index = kTVMFFIFloat;
  f.v_float64 = 1.0;
  TVMFFIAny args[6] = {any_int(1), any_str("int"), t, any_str("bool"), f, any_str("float")};
  TVMFFIAny r;
  CHECK(call_global("ffi.Map", args, 6, &r) == 0);
  void* m = r.v_obj;
  TVMFFIAny one[1] = {any_obj(m)};
  CHECK(call_global("ffi.MapSize", one, 1, &r) == 0);
  CHECK_EQ_INT(r.v_int64, 3); /* 1, True and 1.0 are different keys */
  CHECK(call2("ffi.MapGetItem", m, t, &r) == 0);
  TVMFFIByteArray s = str_of(&r);
  CHECK_BYTES_EQ(s, "bool");
  release(&r);
  TVMFFIObjectDecRef(m);
  /* Long (heap) string keys compare by content; bytes and str with the same content differ. */
  const char* long_key = "a key longer than seven bytes";
  TVMFFIByteArray ba = check_ba(long_key);
  TVMFFIAny bytes_view = {0};
  bytes_view.type_index = kTVMFFIByteArrayPtr;
  bytes_view.v_ptr = &ba;
  TVMFFIAny args2[4] = {any_str(long_key), any_int(1), bytes_view, any_int(2)};
  CHECK(call_global("ffi.Map", args2, 4, &r) == 0);
  m = r.v_obj;
  CHECK(call2("ffi.MapGetItem", m, any_str(long_key), &r) == 0);
  CHECK_EQ_INT(r.v_int64, 1);
  CHECK(call2("ffi.MapGetItem", m, bytes_view, &r) == 0);
  CHECK_EQ_INT(r.v_int64, 2);
  TVMFFIObjectDecRef(m);
}

static void test_map_globals(void) {
  TVMFFIAny args[4] = {any_str("x"), any_int(1), any_str("y"), any_int(2)}, r;
  CHECK(call_global("ffi.Map", args, 4, &r) == 0);
  void* m = r.v_obj;
  CHECK(call2("ffi.MapCount", m, any_str("x"), &r) == 0);
  CHECK_EQ_INT(r.v_int64, 1);
  CHECK(call2("ffi.MapCount", m, any_str("z"), &r) == 0);
  CHECK_EQ_INT(r.v_int64, 0);
  CHECK(call2("ffi.MapGetItem", m, any_str("zzz"), &r) == -1);
  CHECK_RAISED("KeyError", "'zzz'");
  CHECK(call2("ffi.MapGetItem", m, any_int(12345), &r) == -1);
  CHECK_RAISED("KeyError", "12345");
  CHECK(call2("ffi.MapGetItemOrMissing", m, any_str("y"), &r) == 0);
  CHECK_EQ_INT(r.v_int64, 2);
  TVMFFIAny missing, none_args[1];
  CHECK(call_global("ffi.GetInvalidObject", none_args, 0, &missing) == 0);
  CHECK(call2("ffi.MapGetItemOrMissing", m, any_str("q"), &r) == 0);
  CHECK(r.type_index >= kTVMFFIStaticObjectBegin && r.v_obj == missing.v_obj);
  release(&r);
  release(&missing);
  /* The iterator functor: it(0) key, it(1) value, it(2) advance. */
  TVMFFIAny one[1] = {any_obj(m)};
  CHECK(call_global("ffi.MapForwardIterFunctor", one, 1, &r) == 0);
  void* it = r.v_obj;
  TVMFFIAny op[1] = {any_int(0)};
  CHECK(TVMFFIFunctionCall(it, op, 1, &r) == 0);
  CHECK_BYTES_EQ(str_of(&r), "x");
  op[0] = any_int(1);
  CHECK(TVMFFIFunctionCall(it, op, 1, &r) == 0);
  CHECK_EQ_INT(r.v_int64, 1);
  op[0] = any_int(2);
  CHECK(TVMFFIFunctionCall(it, op, 1, &r) == 0);
  CHECK_EQ_INT(r.v_int64, 1);
  op[0] = any_int(0);
  CHECK(TVMFFIFunctionCall(it, op, 1, &r) == 0);
  CHECK_BYTES_EQ(str_of(&r), "y");
  op[0] = any_int(2);
  CHECK(TVMFFIFunctionCall(it, op, 1, &r) == 0);
  CHECK_EQ_INT(r.v_int64, 0);
  op[0] = any_int(0);
  CHECK(TVMFFIFunctionCall(it, op, 1, &r) == -1);
  CHECK_RAISED("IndexError", "past the end");
  op[0] = any_int(7);
  CHECK(TVMFFIFunctionCall(it, op, 1, &r) == -1);
  CHECK_RAISED("ValueError", "op");
  TVMFFIObjectDecRef(it);
  /* Errors: odd argument count, wrong container kinds, mutating a Map. */
  CHECK(call_global("ffi.Map", args, 3, &r) == -1);
  CHECK_RAISED("ValueError", "odd");
  CHECK(call_global("ffi.Dict", args, 1, &r) == -1);
  CHECK_RAISED("ValueError", "ffi.Dict");
  CHECK(call_global("ffi.DictSetItem", (TVMFFIAny[3]){any_obj(m), any_int(1), any_int(1)}, 3, &r) == -1);
  CHECK_RAISED("TypeError", "ffi.DictSetItem");
  CHECK(call_global("ffi.MapSize", (TVMFFIAny[1]){any_int(3)}, 1, &r) == -1);
  CHECK_RAISED("TypeError", "ffi.MapSize");
  CHECK(call_global("ffi.MapSize", one, 0, &r) == -1);
  CHECK_RAISED("TypeError", "ffi.MapSize");
  TVMFFIObjectDecRef(m);
}

static void test_dict_globals(void) {
  void* d = new_dict();
  TVMFFIAny r, one[1] = {any_obj(d)};
  for (int i = 0; i < 8; ++i) CHECK(dict_set(d, any_int(i), any_int(i * i)) == 0);
  CHECK(call_global("ffi.DictSize", one, 1, &r) == 0);
  CHECK_EQ_INT(r.v_int64, 8);
  CHECK(call2("ffi.DictGetItem", d, any_int(3), &r) == 0);
  CHECK_EQ_INT(r.v_int64, 9);
  CHECK(call2("ffi.DictCount", d, any_int(9), &r) == 0);
  CHECK_EQ_INT(r.v_int64, 0);
  CHECK(call2("ffi.DictGetItemOrMissing", d, any_int(9), &r) == 0);
  CHECK(r.type_index >= kTVMFFIStaticObjectBegin);
  release(&r);
  CHECK(call2("ffi.DictErase", d, any_int(3), &r) == 0);
  CHECK(call2("ffi.DictErase", d, any_int(3), &r) == 0); /* absent: no-op */
  CHECK(call2("ffi.DictGetItem", d, any_int(3), &r) == -1);
  CHECK_RAISED("KeyError", "3");
  CHECK(call_global("ffi.DictForwardIterFunctor", one, 1, &r) == 0);
  void* it = r.v_obj;
  int64_t order[7] = {0, 1, 2, 4, 5, 6, 7};
  for (int i = 0; i < 7; ++i) {
    TVMFFIAny op[1] = {any_int(0)};
    CHECK(TVMFFIFunctionCall(it, op, 1, &r) == 0);
    CHECK_EQ_INT(r.v_int64, order[i]);
    op[0] = any_int(2);
    CHECK(TVMFFIFunctionCall(it, op, 1, &r) == 0);
    CHECK_EQ_INT(r.v_int64, i < 6);
  }
  TVMFFIObjectDecRef(it);
  CHECK(call_global("ffi.DictClear", one, 1, &r) == 0);
  CHECK_EQ_INT(((MapView*)d)->size, 0);
  CHECK(((MapView*)d)->slots & SMALL_TAG);
  CHECK(dict_set(d, any_str("again"), any_int(1)) == 0);
  CHECK(call2("ffi.DictGetItem", d, any_str("again"), &r) == 0);
  CHECK_EQ_INT(r.v_int64, 1);
  TVMFFIObjectDecRef(d);
}

/* 100,000 random set/erase/lookup operations on a Dict, checked against a plain array model
 * that also records insertion order by the reference's rules: an overwrite keeps its position
 * while the map is small, and moves the key to the end once the map is dense. */
#define KEY_SPACE 3000
static void test_random_operations(void) {
  static int64_t model_val[KEY_SPACE];
  static int model_has[KEY_SPACE];
  static int64_t order[KEY_SPACE * 40];
  static size_t last_pos[KEY_SPACE];
  size_t order_len = 0;
  memset(model_has, 0, sizeof(model_has));
  void* d = new_dict();
  uint64_t state = 12345;
  int64_t size = 0;
  int dense = 0; /* a full small map (4 entries) turns dense on any insert and stays dense */
  int failures = 0;
  for (int op = 0; op < 100000 && failures < 5; ++op) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    uint64_t rnd = state >> 33;
    /* Key ranges vary over time so the table grows, shrinks to few keys, and grows again. */
    int64_t range = (op / 20000) % 2 == 0 ? KEY_SPACE : 6;
    int64_t k = (int64_t)(rnd % (uint64_t)range);
    int kind = (int)((rnd >> 20) % 10);
    TVMFFIAny r;
    if (kind < 5) {
      int64_t v = (int64_t)(rnd >> 8);
      if (dict_set(d, any_int(k), any_int(v)) != 0) failures++;
      if (size == 4) dense = 1;
      if (!model_has[k] || dense) { /* a dense map moves an overwritten key to the end */
        if (!model_has[k]) size++;
        model_has[k] = 1;
        last_pos[k] = order_len;
        order[order_len++] = k;
      }
      model_val[k] = v;
    } else if (kind < 8) {
      if (call2("ffi.DictErase", d, any_int(k), &r) != 0) failures++;
      if (model_has[k]) {
        model_has[k] = 0;
        size--;
      }
    } else {
      int rc = call2("ffi.DictGetItem", d, any_int(k), &r);
      if (model_has[k] ? (rc != 0 || r.v_int64 != model_val[k]) : rc != -1) failures++;
      if (rc != 0) drop_error(); /* the expected KeyError */
    }
    TVMFFIAny key = any_int(k);
    const TVMFFIAny* found = reader_find(d, &key);
    if (model_has[k] ? (found == NULL || found->v_int64 != model_val[k]) : found != NULL) failures++;
    if ((int64_t)((MapView*)d)->size != size) failures++;
    if (op % 5000 == 4999 || op == 99999) {
      /* Full check: iteration order equals the model's live insertion order. */
      uint64_t pos = 0;
      size_t kept = 0;
      for (size_t i = 0; i < order_len; ++i) {
        int64_t key_i = order[i];
        if (!model_has[key_i]) continue;
        if (last_pos[key_i] != i) continue; /* only the latest insertion of a key counts */
        const TVMFFIAny* ki = reader_key_at(d, pos++);
        if (ki == NULL || ki->v_int64 != key_i) failures++;
        last_pos[key_i] = kept;
        order[kept++] = key_i;
        TVMFFIAny kk = any_int(key_i);
        const TVMFFIAny* fv = reader_find(d, &kk);
        if (fv == NULL || fv->v_int64 != model_val[key_i]) failures++;
      }
      order_len = kept;
      if (reader_key_at(d, pos) != NULL) failures++;
    }
  }
  CHECK_EQ_INT(failures, 0);
  TVMFFIObjectDecRef(d);
}

static void test_refcounts(void) {
  int64_t live_before = live_objects();
  void* value = new_dict(); /* any object will do as a value */
  void* d = new_dict();
  for (int i = 0; i < 20; ++i) CHECK(dict_set(d, any_int(i), any_obj(value)) == 0);
  CHECK_EQ_INT(check_strong_count(value), 21);
  CHECK(dict_set(d, any_int(0), any_int(0)) == 0); /* overwrite releases the old value */
  TVMFFIAny r;
  CHECK(call2("ffi.DictErase", d, any_int(1), &r) == 0);
  CHECK_EQ_INT(check_strong_count(value), 19);
  CHECK(call2("ffi.DictGetItem", d, any_int(2), &r) == 0);
  CHECK_EQ_INT(check_strong_count(value), 20);
  release(&r);
  /* A dict stored in itself, then cleared: the cycle breaks without freeing it early. */
  CHECK(dict_set(d, any_str("self"), any_obj(d)) == 0);
  TVMFFIAny one[1] = {any_obj(d)};
  CHECK(call_global("ffi.DictClear", one, 1, &r) == 0);
  CHECK_EQ_INT(check_strong_count(d), 1);
  CHECK_EQ_INT(check_strong_count(value), 1);
  /* Keys that are objects are held too, and a Map built from them releases them with itself. */
  TVMFFIAny args[4] = {any_obj(value), any_int(1), any_str("a long string key!"), any_obj(value)};
  CHECK(call_global("ffi.Map", args, 4, &r) == 0);
  CHECK_EQ_INT(check_strong_count(value), 3);
  release(&r);
  CHECK_EQ_INT(check_strong_count(value), 1);
  TVMFFIObjectDecRef(d);
  TVMFFIObjectDecRef(value);
  CHECK_EQ_INT(live_objects(), live_before);
}

/* Objects whose type defines __any_hash__ / __any_equal__ (as OpaquePtr callbacks, the C view
 * of the C++ `TVMFFIAny (*)(const Any&...)` convention) are keyed by those. */
typedef struct {
  TVMFFIObject header;
  int64_t v;
} Box;

static TVMFFIAny box_hash(const TVMFFIAny* a) { return any_int(((const Box*)a->v_obj)->v); }

static TVMFFIAny box_equal(const TVMFFIAny* a, const TVMFFIAny* b) {
  TVMFFIAny r = {0};
  r.type_index = kTVMFFIBool;
  r.v_int64 = ((const Box*)a->v_obj)->v == ((const Box*)b->v_obj)->v;
  return r;
}

static void test_custom_hash_and_equal(void) {
  TVMFFIByteArray key = check_ba("test.map.Box");
  int32_t tindex = TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 1, kTVMFFIObject);
  CHECK(tindex >= 128);
  TVMFFIAny hash_fn = {0}, equal_fn = {0};
  hash_fn.type_index = equal_fn.type_index = kTVMFFIOpaquePtr;
  hash_fn.v_ptr = (void*)box_hash;
  equal_fn.v_ptr = (void*)box_equal;
  TVMFFIByteArray hn = check_ba("__any_hash__"), en = check_ba("__any_equal__");
  CHECK(TVMFFITypeRegisterAttr(tindex, &hn, &hash_fn) == 0);
  CHECK(TVMFFITypeRegisterAttr(tindex, &en, &equal_fn) == 0);
  /* Static boxes: a huge count and no deleter, so the map's references never free them. */
  static Box boxes[40], probes[40];
  for (int i = 0; i < 40; ++i) {
    boxes[i].header.combined_ref_count = probes[i].header.combined_ref_count = ((uint64_t)1 << 32) | 1000;
    boxes[i].header.type_index = probes[i].header.type_index = tindex;
    boxes[i].v = probes[i].v = i * 7;
  }
  void* d = new_dict();
  for (int i = 0; i < 40; ++i) CHECK(dict_set(d, any_obj(&boxes[i]), any_int(i)) == 0);
  TVMFFIAny r;
  for (int i = 0; i < 40; ++i) {
    /* A different object with an equal payload finds the entry. */
    CHECK(call2("ffi.DictGetItem", d, any_obj(&probes[i]), &r) == 0);
    CHECK_EQ_INT(r.v_int64, i);
    /* Home slot as a kernel computes it: Combine(type_index, custom hash). */
    const MapView* m = (const MapView*)d;
    uint64_t home = (11400714819323198485ULL * combine((uint64_t)tindex, (uint64_t)(i * 7))) >> m->fib_shift;
    CHECK((meta_at(m, home) & 0x80) == 0);
  }
  CHECK(dict_set(d, any_obj(&probes[3]), any_int(-3)) == 0); /* equal key: overwrite */
  CHECK_EQ_INT(((MapView*)d)->size, 40);
  TVMFFIObjectDecRef(d);
  CHECK_EQ_INT(check_strong_count(&boxes[0]), 1000);
  CHECK_EQ_INT(check_strong_count(&probes[0]), 1000);
}

int main(void) {
  RUN(test_hash_constants);
  RUN(test_small_layout);
  RUN(test_small_to_dense_at_fifth_key);
  RUN(test_equality_rules);
  RUN(test_map_globals);
  RUN(test_dict_globals);
  RUN(test_random_operations);
  RUN(test_refcounts);
  RUN(test_custom_hash_and_equal);
  return CHECK_MAIN_RESULT();
}
