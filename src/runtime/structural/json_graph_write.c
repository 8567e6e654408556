/*
 * structural/json_graph_write.c -- ffi.ToJSONGraphString / ffi.ToJSONGraph (spec STRUCTURAL.md
 * sections 1.2-1.8): the document text is written directly, nodes in post-order (children
 * before parents, root last), one node per distinct value under AnyEqual (objects by identity
 * unless their type defines __any_equal__). Explicit stack; cycles raise ValueError.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "../container/container_internal.h"
#include "../enum_internal.h"
#include "json_graph.h"
#include "json_text.h"
#include "value_text.h"

/* ---- node deduplication: value -> node index, AnyHash/AnyEqual semantics ---- */

typedef struct {
  TVMFFIAny value; /* retained */
  uint64_t hash;
  int64_t index; /* -1 = empty slot */
} DedupSlot;

#define DEDUP_INLINE 16

typedef struct {
  DedupSlot* slots;
  size_t capacity, count;
  DedupSlot inline_slots[DEDUP_INLINE]; /* small documents allocate nothing */
} Dedup;

static void dedup_init(Dedup* d) {
  for (size_t i = 0; i < DEDUP_INLINE; ++i) d->inline_slots[i].index = -1;
  d->slots = d->inline_slots;
  d->capacity = DEDUP_INLINE;
  d->count = 0;
}

/* AnyHash/AnyEqual, with objects by identity unless their type defines __any_hash__ (checked
 * through the cached attribute lookup, not the registry lock on every value). */
static bool custom_any_eq(int32_t t) {
  return ffi_is_object_index(t) && t != kTVMFFIStr && t != kTVMFFIBytes &&
         ffi_type_attr(t, "__any_equal__") != NULL;
}

static uint64_t dedup_hash(const TVMFFIAny* v) {
  int32_t t = v->type_index;
  if (ffi_is_object_index(t) && t != kTVMFFIStr && t != kTVMFFIBytes &&
      ffi_type_attr(t, "__any_hash__") == NULL) {
    return ffi_hash_combine((uint64_t)(int64_t)t, v->v_uint64);
  }
  return ffi_any_hash(v);
}

static bool dedup_equal(const TVMFFIAny* a, const TVMFFIAny* b) {
  if (a->type_index == b->type_index && a->v_uint64 == b->v_uint64) return true;
  if (ffi_is_object_index(a->type_index) && a->type_index == b->type_index &&
      a->type_index != kTVMFFIStr && a->type_index != kTVMFFIBytes && !custom_any_eq(a->type_index)) {
    return false;
  }
  return ffi_any_equal(a, b);
}

static int64_t* dedup_find(Dedup* d, const TVMFFIAny* v, uint64_t hash) {
  for (size_t i = hash & (d->capacity - 1);; i = (i + 1) & (d->capacity - 1)) {
    DedupSlot* s = &d->slots[i];
    if (s->index < 0) return NULL;
    if (s->hash == hash && dedup_equal(&s->value, v)) return &s->index;
  }
}

static int dedup_put(Dedup* d, const TVMFFIAny* v, uint64_t hash, int64_t index) {
  if ((d->count + 1) * 2 > d->capacity) {
    size_t cap = d->capacity * 2;
    DedupSlot* slots = (DedupSlot*)malloc(cap * sizeof(DedupSlot));
    if (slots == NULL) return ffi_raise("MemoryError", "out of memory in ToJSONGraph");
    for (size_t i = 0; i < cap; ++i) slots[i].index = -1;
    for (size_t i = 0; i < d->capacity; ++i) {
      if (d->slots[i].index < 0) continue;
      size_t j = d->slots[i].hash & (cap - 1);
      while (slots[j].index >= 0) j = (j + 1) & (cap - 1);
      slots[j] = d->slots[i];
    }
    if (d->slots != d->inline_slots) free(d->slots);
    d->slots = slots;
    d->capacity = cap;
  }
  size_t i = hash & (d->capacity - 1);
  while (d->slots[i].index >= 0) i = (i + 1) & (d->capacity - 1);
  d->slots[i].value = ffi_any_retain(v);
  d->slots[i].hash = hash;
  d->slots[i].index = index;
  d->count += 1;
  return 0;
}

static void dedup_free(Dedup* d) {
  for (size_t i = 0; i < d->capacity; ++i) {
    if (d->slots[i].index >= 0) ffi_any_release(&d->slots[i].value);
  }
  if (d->slots != d->inline_slots) free(d->slots);
}

/* ---- writer state ---- */

enum { kEncSeq, kEncMap, kEncObject };

/* The children stack: FfiChild, `mark`ed when the field is written in place (no node). */
typedef FfiChild Child;

typedef struct {
  TVMFFIObject* obj;
  int enc;
  size_t begin, count, next;
  size_t results_base; /* node indices of the non-inline children */
} Frame;

typedef struct {
  FfiBuf* nodes; /* the output buffer: nodes are written in place after the header room */
  int64_t num_nodes;
  Dedup dedup;
  FfiPtrMap open; /* objects on the stack */
  FfiVec frames;
  FfiVec children;
  FfiVec results; /* int64_t */
} Writer;

static const char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Standard padded base64, then written as a JSON string (so '/' comes out as "\/"). */
static int write_base64(FfiBuf* b, const unsigned char* p, size_t n) {
  FfiBuf tmp = {NULL, 0, 0};
  if (ffi_buf_reserve(&tmp, (n + 2) / 3 * 4 + 1) != 0) return -1;
  char* o = tmp.data;
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    uint32_t v = ((uint32_t)p[i] << 16) | ((uint32_t)p[i + 1] << 8) | p[i + 2];
    *o++ = kBase64[v >> 18];
    *o++ = kBase64[(v >> 12) & 63];
    *o++ = kBase64[(v >> 6) & 63];
    *o++ = kBase64[v & 63];
  }
  if (i < n) {
    uint32_t v = (uint32_t)p[i] << 16;
    if (i + 1 < n) v |= (uint32_t)p[i + 1] << 8;
    *o++ = kBase64[v >> 18];
    *o++ = kBase64[(v >> 12) & 63];
    *o++ = i + 1 < n ? kBase64[(v >> 6) & 63] : '=';
    *o++ = '=';
  }
  int rc = ffi_json_write_string(b, tmp.data, (size_t)(o - tmp.data));
  ffi_buf_free(&tmp);
  return rc;
}

static int write_dtype_string(FfiBuf* b, DLDataType dt) {
  if (dt.code == kDLOpaqueHandle && dt.bits == 0 && dt.lanes == 0) return ffi_buf_puts(b, "\"\"");
  FfiBuf tmp = {NULL, 0, 0};
  int rc = ffi_text_dtype(&tmp, dt);
  if (rc == 0) rc = ffi_json_write_string(b, tmp.data != NULL ? tmp.data : "", tmp.size);
  ffi_buf_free(&tmp);
  return rc;
}

/* Starts a node: `{"type":"<key>"` plus `,"data":` unless it has none. */
static int node_open(Writer* w, const char* key, size_t key_size, bool with_data) {
  if (w->num_nodes > 0 && ffi_buf_puts(w->nodes, ",") != 0) return -1;
  if (ffi_buf_puts(w->nodes, "{\"type\":") != 0 || ffi_json_write_string(w->nodes, key, key_size) != 0) {
    return -1;
  }
  return with_data ? ffi_buf_puts(w->nodes, ",\"data\":") : 0;
}

static int node_close(Writer* w, const TVMFFIAny* value, int64_t* index) {
  if (ffi_buf_puts(w->nodes, "}") != 0) return -1;
  *index = w->num_nodes++;
  return dedup_put(&w->dedup, value, dedup_hash(value), *index);
}

static int type_key_node(Writer* w, int32_t t, bool with_data) {
  TVMFFIByteArray key = ffi_type_key_of(t);
  return node_open(w, key.data, key.size, with_data);
}

/* Writes the node of a value that needs no frame. */
static int write_leaf_node(Writer* w, const TVMFFIAny* v, int64_t* index) {
  FfiBuf* b = w->nodes;
  TVMFFIByteArray s;
  int32_t t = v->type_index;
  int rc;
  switch (t) {
    case kTVMFFINone:
      rc = node_open(w, "None", 4, false);
      break;
    case kTVMFFIBool:
      rc = node_open(w, "bool", 4, true) || ffi_buf_puts(b, v->v_int64 ? "true" : "false");
      break;
    case kTVMFFIInt:
      rc = node_open(w, "int", 3, true) || ffi_buf_put_i64(b, v->v_int64);
      break;
    case kTVMFFIFloat:
      rc = node_open(w, "float", 5, true) || ffi_json_write_float(b, v->v_float64);
      break;
    case kTVMFFIDataType:
      rc = node_open(w, "DataType", 8, true) || write_dtype_string(b, v->v_dtype);
      break;
    case kTVMFFIDevice:
      rc = node_open(w, "Device", 6, true) ||
           ffi_buf_printf(b, "[%d,%d]", (int)v->v_device.device_type, (int)v->v_device.device_id);
      break;
    case kTVMFFISmallStr:
    case kTVMFFIStr:
      ffi_string_view(v, &s);
      rc = node_open(w, "ffi.String", 10, true) || ffi_json_write_string(b, s.data, s.size);
      break;
    case kTVMFFISmallBytes:
    case kTVMFFIBytes:
      ffi_string_view(v, &s);
      rc = node_open(w, "ffi.Bytes", 9, true) || write_base64(b, (const unsigned char*)s.data, s.size);
      break;
    case kTVMFFIBigInt:
      rc = node_open(w, "ffi.BigInt", 10, true) || ffi_buf_puts(b, "\"") || ffi_text_bigint(b, v) ||
           ffi_buf_puts(b, "\"");
      break;
    case kTVMFFIShape: {
      const TVMFFIShapeCell* cell = (const TVMFFIShapeCell*)((char*)v->v_obj + sizeof(TVMFFIObject));
      rc = node_open(w, "ffi.Shape", 9, true) || ffi_buf_puts(b, "[");
      for (size_t i = 0; rc == 0 && i < cell->size; ++i) {
        rc = (i > 0 && ffi_buf_puts(b, ",")) || ffi_buf_put_i64(b, cell->data[i]) ? -1 : 0;
      }
      if (rc == 0) rc = ffi_buf_puts(b, "]");
      break;
    }
    default: {
      TVMFFIByteArray key = ffi_type_key_of(t);
      return ffi_raise("RuntimeError", "Cannot serialize type `%.*s`", (int)key.size, key.data);
    }
  }
  if (rc != 0) return -1;
  return node_close(w, v, index);
}

static bool is_leaf(const TVMFFIAny* v) {
  int32_t t = v->type_index;
  return !ffi_is_object_index(t) || v->v_obj == NULL || t == kTVMFFIStr || t == kTVMFFIBytes ||
         t == kTVMFFIBigInt || t == kTVMFFIShape;
}

/* Fields of these static types are written in place (spec section 1.4). */
static bool inline_static_type(int32_t t) {
  return t == kTVMFFINone || t == kTVMFFIInt || t == kTVMFFIBool || t == kTVMFFIFloat ||
         t == kTVMFFIDataType;
}

bool ffi_json_graph_creatable(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info != NULL && info->metadata != NULL && info->metadata->creator != NULL) return true;
  return ffi_type_attr(type_index, "__ffi_new__") != NULL;
}

static int cycle_error(int32_t t) {
  if (t == kTVMFFIList) return ffi_raise("ValueError", "Cycle detected during serialization: a List contains itself");
  if (t == kTVMFFIDict) return ffi_raise("ValueError", "Cycle detected during serialization: a Dict contains itself");
  TVMFFIByteArray key = ffi_type_key_of(t);
  return ffi_raise("ValueError", "Cycle detected during serialization: a `%.*s` contains itself",
                   (int)key.size, key.data);
}

/* Writes a node for a __data_to_json__ type: the hook's result, verbatim. */
static int write_hook_node(Writer* w, const TVMFFIAny* hook, TVMFFIObject* obj, int64_t* index) {
  TVMFFIAny arg = ffi_any_from_object(obj), data;
  if (ffi_call(hook, &arg, 1, &data) != 0) return -1;
  int rc = type_key_node(w, obj->type_index, true);
  if (rc == 0) rc = ffi_json_stringify(&data, w->nodes);
  ffi_any_release(&data);
  if (rc != 0) return -1;
  return node_close(w, &arg, index);
}

/* Writes a node for an enum member: its canonical index names the singleton. */
static int write_enum_node(Writer* w, TVMFFIObject* obj, int64_t* index) {
  TVMFFIAny arg = ffi_any_from_object(obj), data;
  if (ffi_enum_json_data(obj, &data) != 0) return -1;
  int rc = type_key_node(w, obj->type_index, true);
  if (rc == 0) rc = ffi_json_stringify(&data, w->nodes);
  ffi_any_release(&data);
  if (rc != 0) return -1;
  return node_close(w, &arg, index);
}

/* Starts an object: a frame, or its node at once (hooks). */
static int push_object(Writer* w, TVMFFIObject* obj, int64_t* index, bool* pushed) {
  int32_t t = obj->type_index;
  *pushed = false;
  if ((int64_t)w->frames.size >= FFI_GRAPH_MAX_DEPTH) {
    return ffi_raise("ValueError", "ToJSONGraph: maximum stack depth (1048576) exceeded");
  }
  int enc;
  if (t == kTVMFFIArray || t == kTVMFFIList) {
    enc = kEncSeq;
  } else if (t == kTVMFFIMap || t == kTVMFFIDict) {
    enc = kEncMap;
  } else {
    const TVMFFIAny* hook = ffi_type_attr(t, "__data_to_json__");
    if (hook != NULL) return write_hook_node(w, hook, obj, index);
    if (ffi_enum_is_enum_type(t)) return write_enum_node(w, obj, index);
    if (!ffi_json_graph_creatable(t)) {
      TVMFFIByteArray key = ffi_type_key_of(t);
      return ffi_raise("TypeError",
                       "Type `%.*s` does not support ToJSONGraph (no native creator or __ffi_new__ "
                       "type attr)",
                       (int)key.size, key.data);
    }
    enc = kEncObject;
  }
  size_t begin = w->children.size;
  int rc = ffi_children_push_all(&w->children, obj);
  for (size_t i = begin; rc == 0 && enc == kEncObject && i < w->children.size; ++i) {
    Child* c = (Child*)ffi_vec_at(&w->children, i);
    c->mark = inline_static_type(c->field->field_static_type_index);
  }
  if (rc == 0) rc = ffi_ptr_map_put(&w->open, (uint64_t)(uintptr_t)obj, 1);
  Frame* f = rc == 0 ? (Frame*)ffi_vec_push(&w->frames) : NULL;
  if (f == NULL) {
    ffi_children_drop(&w->children, begin);
    return -1;
  }
  f->obj = obj;
  f->enc = enc;
  f->begin = begin;
  f->count = w->children.size - begin;
  f->next = 0;
  f->results_base = w->results.size;
  *pushed = true;
  return 0;
}

/* Node index of a value that needs no frame: existing, leaf, or hook; *pushed for a frame. */
static int visit(Writer* w, const TVMFFIAny* v, int64_t* index, bool* pushed) {
  *pushed = false;
  uint64_t hash = dedup_hash(v);
  int64_t* found = dedup_find(&w->dedup, v, hash);
  if (found != NULL) {
    *index = *found;
    return 0;
  }
  if (is_leaf(v)) return write_leaf_node(w, v, index);
  if (ffi_ptr_map_find(&w->open, (uint64_t)(uintptr_t)v->v_obj) != NULL) return cycle_error(v->type_index);
  return push_object(w, v->v_obj, index, pushed);
}

static int push_result(Writer* w, int64_t index) {
  int64_t* r = (int64_t*)ffi_vec_push(&w->results);
  if (r == NULL) return -1;
  *r = index;
  return 0;
}

static int write_inline_field(FfiBuf* b, const TVMFFIAny* v) {
  switch (v->type_index) {
    case kTVMFFINone: return ffi_buf_puts(b, "null");
    case kTVMFFIBool: return ffi_buf_puts(b, v->v_int64 ? "true" : "false");
    case kTVMFFIInt: return ffi_buf_put_i64(b, v->v_int64);
    case kTVMFFIFloat: return ffi_json_write_float(b, v->v_float64);
    case kTVMFFIDataType: return write_dtype_string(b, v->v_dtype);
    default: {
      TVMFFIByteArray key = ffi_type_key_of(v->type_index);
      return ffi_raise("TypeError", "Cannot serialize a `%.*s` value in an inline field",
                       (int)key.size, key.data);
    }
  }
}

static int finish_frame(Writer* w, const Frame* f, int64_t* index) {
  const Child* c = (const Child*)ffi_vec_at(&w->children, f->begin);
  const int64_t* r = (const int64_t*)ffi_vec_at(&w->results, f->results_base);
  FfiBuf* b = w->nodes;
  int rc = type_key_node(w, f->obj->type_index, true);
  if (rc != 0) return -1;
  if (f->enc != kEncObject) {
    rc = ffi_buf_puts(b, "[");
    for (size_t i = 0; rc == 0 && i < f->count; ++i) {
      rc = (i > 0 && ffi_buf_puts(b, ",")) || ffi_buf_put_i64(b, r[i]) ? -1 : 0;
    }
    if (rc == 0) rc = ffi_buf_puts(b, "]");
  } else {
    rc = ffi_buf_puts(b, "{");
    size_t k = 0;
    for (size_t i = 0; rc == 0 && i < f->count; ++i) {
      rc = (i > 0 ? ffi_buf_puts(b, ",") : 0) ||
           ffi_json_write_string(b, c[i].field->name.data, c[i].field->name.size) || ffi_buf_puts(b, ":");
      if (rc != 0) break;
      rc = c[i].mark ? write_inline_field(b, &c[i].value) : ffi_buf_put_i64(b, r[k++]);
    }
    if (rc == 0) rc = ffi_buf_puts(b, "}");
  }
  if (rc != 0) return -1;
  TVMFFIAny self = ffi_any_from_object(f->obj);
  return node_close(w, &self, index);
}

static int run(Writer* w) {
  while (w->frames.size > 0) {
    Frame* f = (Frame*)ffi_vec_top(&w->frames);
    int64_t index;
    bool pushed;
    if (f->next < f->count) {
      const Child* c = (const Child*)ffi_vec_at(&w->children, f->begin + f->next);
      f->next += 1;
      if (c->mark) continue;
      TVMFFIAny v = c->value;
      if (visit(w, &v, &index, &pushed) != 0) return -1;
      if (!pushed && push_result(w, index) != 0) return -1;
      continue;
    }
    if (finish_frame(w, f, &index) != 0) return -1;
    ffi_ptr_map_erase(&w->open, (uint64_t)(uintptr_t)f->obj);
    w->results.size = f->results_base;
    ffi_children_drop(&w->children, f->begin);
    w->frames.size -= 1;
    if (push_result(w, index) != 0) return -1;
  }
  return 0;
}

/* Room left before the nodes for `{"root_index":<int64>,"nodes":[`, filled in at the end. */
#define HEADER_ROOM 48

int ffi_to_json_graph_string(const TVMFFIAny* value, const TVMFFIAny* metadata, FfiBuf* out,
                             size_t* start) {
  Writer w;
  Frame frames[8];
  Child children[16];
  int64_t results[16];
  w.num_nodes = 0; /* every field is set here: no memset of the inline tables */
  dedup_init(&w.dedup);
  ffi_ptr_map_init(&w.open);
  ffi_vec_init_inline(&w.frames, sizeof(Frame), frames, 8);
  ffi_vec_init_inline(&w.children, sizeof(Child), children, 16);
  ffi_vec_init_inline(&w.results, sizeof(int64_t), results, 16);
  w.nodes = out;
  int rc = ffi_buf_reserve(out, HEADER_ROOM + 128);
  out->size = HEADER_ROOM;
  int64_t root = -1;
  bool pushed = false;
  if (rc == 0) rc = visit(&w, value, &root, &pushed);
  if (rc == 0 && pushed) {
    rc = run(&w);
    if (rc == 0) root = *(int64_t*)ffi_vec_top(&w.results);
  }
  if (rc == 0) {
    rc = ffi_buf_puts(out, "]");
    if (rc == 0 && metadata != NULL && metadata->type_index != kTVMFFINone) {
      rc = ffi_buf_puts(out, ",\"metadata\":") || ffi_json_stringify(metadata, out) ? -1 : 0;
    }
    if (rc == 0) rc = ffi_buf_puts(out, "}");
  }
  if (rc == 0) { /* the header, right-aligned in its room */
    FfiBuf header = {NULL, 0, 0};
    rc = ffi_buf_puts(&header, "{\"root_index\":") || ffi_buf_put_i64(&header, root) ||
         ffi_buf_puts(&header, ",\"nodes\":[") ? -1 : 0;
    if (rc == 0) {
      *start = HEADER_ROOM - header.size;
      memcpy(out->data + *start, header.data, header.size);
    }
    ffi_buf_free(&header);
  }
  while (w.frames.size > 0) {
    ffi_children_drop(&w.children, ((Frame*)ffi_vec_top(&w.frames))->begin);
    w.frames.size -= 1;
  }
  ffi_children_drop(&w.children, 0);
  dedup_free(&w.dedup);
  ffi_ptr_map_free(&w.open);
  ffi_vec_free(&w.frames);
  ffi_vec_free(&w.children);
  ffi_vec_free(&w.results);
  return rc;
}

/* ---- global functions ---- */

static int to_string(const char* fname, const TVMFFIAny* args, int32_t num_args, FfiBuf* b,
                     size_t* start) {
  if (num_args < 1 || num_args > 2) return ffi_check_num_args(fname, num_args, 2);
  TVMFFIAny value, metadata = ffi_any_none();
  if (TVMFFIAnyViewToOwnedAny(&args[0], &value) != 0) return -1;
  if (num_args > 1 && TVMFFIAnyViewToOwnedAny(&args[1], &metadata) != 0) {
    ffi_any_release(&value);
    return -1;
  }
  int rc = ffi_to_json_graph_string(&value, &metadata, b, start);
  ffi_any_release(&value);
  ffi_any_release(&metadata);
  return rc;
}

static int global_to_json_graph_string(void* self, const TVMFFIAny* args, int32_t num_args,
                                       TVMFFIAny* result) {
  (void)self;
  FfiBuf b = {NULL, 0, 0};
  size_t start = 0;
  int rc = to_string("ffi.ToJSONGraphString", args, num_args, &b, &start);
  if (rc == 0) rc = ffi_string_make(b.data + start, b.size - start, 0, result);
  ffi_buf_free(&b);
  return rc;
}

static int global_to_json_graph(void* self, const TVMFFIAny* args, int32_t num_args,
                                TVMFFIAny* result) {
  (void)self;
  FfiBuf b = {NULL, 0, 0};
  size_t start = 0;
  int rc = to_string("ffi.ToJSONGraph", args, num_args, &b, &start);
  if (rc == 0) rc = ffi_json_parse(b.data + start, b.size - start, result);
  ffi_buf_free(&b);
  return rc;
}

void ffi_register_json_graph_write_globals(void) {
  ffi_register_builtin("ffi.ToJSONGraphString", global_to_json_graph_string);
  ffi_register_builtin("ffi.ToJSONGraph", global_to_json_graph);
}
