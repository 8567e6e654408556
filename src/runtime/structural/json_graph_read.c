/*
 * structural/json_graph_read.c -- ffi.FromJSONGraph / ffi.FromJSONGraphString (spec
 * STRUCTURAL.md sections 1.9-1.10). Documents are untrusted: every node index is range-checked,
 * node kinds and data shapes are validated with the reference's messages, and decoding walks an
 * explicit stack from root_index (children first, each node decoded once so sharing survives);
 * a node that reaches itself is an error, not a crash. Nodes come from the Maps of a parsed
 * document or, for text, from json_graph_scan.c, which skips building those Maps.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../enum_internal.h"
#include "json_graph.h"
#include "json_text.h"

enum { kUnvisited = 0, kOpen = 1, kDone = 2 };

/* What decoding needs to know about a node's object type, looked up once per type and read. */
typedef struct {
  TVMFFIByteArray key;
  int32_t index;
  bool has_from_json; /* a __data_from_json__ hook (fetched when used: a hook may change attrs) */
  bool is_enum;
  bool creatable;
} TypeFacts;

enum { kTypeMemo = 8 }; /* graphs mix few types; beyond this, the oldest entry is replaced */

typedef struct {
  TVMFFIObject* nodes;         /* the Array of node Maps of a parsed document, or NULL */
  const FfiGraphNode* scanned; /* else the nodes json_graph_scan.c took from the text */
  const FfiGraphField* fields; /* and the fields of their object data */
  FfiVec made;                 /* TVMFFIAny: Maps made of scanned fields (owned) */
  int64_t num_nodes;
  uint8_t* state;
  TVMFFIAny* decoded; /* owned values of done nodes */
  FfiVec stack;       /* Frame */
  FfiVec pending;     /* int64_t child node indices of open frames */
  TypeFacts memo[kTypeMemo];
  int memo_size, memo_next;
} Reader;

typedef struct {
  int64_t node;
  FfiGraphNode info;
  size_t begin, count, next; /* children in `pending` */
} Frame;

static int bad_index(int64_t i) {
  return ffi_raise("ValueError", "Invalid JSON Object Graph: invalid node index %lld", (long long)i);
}

/* Map lookups by short literal keys ("type", "data", ...: small strings, nothing allocated);
 * NULL when absent. */
static const TVMFFIAny* get_key(TVMFFIObject* map, const char* key, size_t size) {
  TVMFFIAny k;
  if (ffi_string_make(key, size, 0, &k) != 0) return NULL;
  const TVMFFIAny* found = ffi_map_lookup(map, &k);
  ffi_any_release(&k);
  return found;
}
#define get(map, literal) get_key((map), (literal), sizeof(literal) - 1)

/* The type and data of node `index`: read from its Map in a parsed document (where a node that
 * is no Map, or has no str type, is an error when it is reached), or as scanned. */
static int node_at(Reader* r, int64_t index, FfiGraphNode* out) {
  if (r->scanned != NULL) {
    *out = r->scanned[index];
    return 0;
  }
  const TVMFFIAny* node = &ffi_seq_items(r->nodes)[index];
  if (node->type_index != kTVMFFIMap) return ffi_json_graph_convert_error(node, "Map<Any, Any>");
  const TVMFFIAny* t = get(node->v_obj, "type");
  if (t == NULL) return ffi_raise("KeyError", "key is not in Map");
  if (!ffi_is_str(t->type_index)) return ffi_json_graph_convert_error(t, "str");
  ffi_string_view(t, &out->type);
  const TVMFFIAny* data = get(node->v_obj, "data");
  out->has_data = data != NULL;
  out->data = data != NULL ? *data : ffi_any_none();
  out->num_fields = -1;
  return 0;
}

/* With `key` a literal, its length is a constant and the comparison compiles inline. */
static inline __attribute__((always_inline)) bool type_is(TVMFFIByteArray t, const char* key) {
  size_t size = strlen(key);
  return t.size == size && memcmp(t.data, key, size) == 0;
}

/* A node's data as a value (a view). Scanned object data becomes the Map the generic parse
 * would have made, for the hooks and error messages that take a value. */
static int node_data(Reader* r, const FfiGraphNode* node, TVMFFIAny* out) {
  if (!node->has_data) return ffi_raise("KeyError", "key is not in Map");
  if (node->num_fields < 0) {
    *out = node->data;
    return 0;
  }
  TVMFFIObject* map;
  if (ffi_map_new_empty(kTVMFFIMap, &map) != 0) return -1;
  TVMFFIAny* slot = (TVMFFIAny*)ffi_vec_push(&r->made);
  if (slot == NULL) {
    ffi_decref(map);
    return -1;
  }
  *slot = ffi_any_from_object(map);
  const FfiGraphField* fields = r->fields + node->first_field;
  for (int64_t i = 0; i < node->num_fields; ++i) {
    TVMFFIAny name;
    if (ffi_string_make(fields[i].name.data, fields[i].name.size, 0, &name) != 0 ||
        ffi_map_set(map, name, ffi_any_retain(&fields[i].value)) != 0) { /* steals both */
      return -1;
    }
  }
  *out = *slot;
  return 0;
}

/* An object node's data: a Map, or the fields the scan read. */
typedef struct {
  TVMFFIObject* map;
  const FfiGraphField* fields;
  int64_t num_fields;
} ObjectData;

static int object_data(Reader* r, const FfiGraphNode* node, ObjectData* out) {
  if (node->has_data && node->num_fields >= 0) {
    out->map = NULL;
    out->fields = r->fields + node->first_field;
    out->num_fields = node->num_fields;
    return 0;
  }
  TVMFFIAny data;
  if (node_data(r, node, &data) != 0) return -1;
  if (data.type_index != kTVMFFIMap) return ffi_json_graph_convert_error(&data, "Map<Any, Any>");
  out->map = data.v_obj;
  return 0;
}

/* *out: the value of field `name` in object data (the last one of that name), or NULL. */
static int object_field(const ObjectData* data, TVMFFIByteArray name, const TVMFFIAny** out) {
  *out = NULL;
  if (data->map == NULL) {
    for (int64_t i = data->num_fields - 1; i >= 0; --i) {
      TVMFFIByteArray n = data->fields[i].name;
      if (n.size == name.size && memcmp(n.data, name.data, n.size) == 0) {
        *out = &data->fields[i].value;
        break;
      }
    }
    return 0;
  }
  TVMFFIAny key;
  if (ffi_string_make(name.data, name.size, 0, &key) != 0) return -1;
  *out = ffi_map_lookup(data->map, &key);
  ffi_any_release(&key);
  return 0;
}

static int find_type(TVMFFIByteArray t, int32_t* index) {
  if (TVMFFITypeKeyToIndex(&t, index) == 0) return 0;
  ffi_discard_raised();
  return ffi_raise("RuntimeError",
                   "Check failed: (it != type_key2index_.end()) is false: Cannot find type `%.*s`",
                   (int)t.size, t.data);
}

static int type_facts(Reader* r, TVMFFIByteArray key, const TypeFacts** out) {
  for (int i = 0; i < r->memo_size; ++i) {
    TypeFacts* f = &r->memo[i];
    if (f->key.size == key.size && memcmp(f->key.data, key.data, key.size) == 0) {
      *out = f;
      return 0;
    }
  }
  int32_t index;
  if (find_type(key, &index) != 0) return -1;
  TypeFacts* f = &r->memo[r->memo_next];
  r->memo_next = (r->memo_next + 1) % kTypeMemo;
  if (r->memo_size < kTypeMemo) r->memo_size += 1;
  f->key = key;
  f->index = index;
  f->has_from_json = ffi_type_attr(index, "__data_from_json__") != NULL;
  f->is_enum = ffi_enum_is_enum_type(index);
  f->creatable = ffi_json_graph_creatable(index);
  *out = f;
  return 0;
}

static bool is_builtin_key(TVMFFIByteArray t) {
  return type_is(t, "int") || type_is(t, "float") || type_is(t, "ffi.String") ||
         type_is(t, "ffi.Array") || type_is(t, "ffi.Map") || type_is(t, "None") ||
         type_is(t, "bool") || type_is(t, "DataType") || type_is(t, "Device") ||
         type_is(t, "ffi.Bytes") || type_is(t, "ffi.Shape") || type_is(t, "ffi.BigInt") ||
         type_is(t, "ffi.List") || type_is(t, "ffi.Dict");
}

static bool inline_static_type(int32_t t) {
  return t == kTVMFFINone || t == kTVMFFIInt || t == kTVMFFIBool || t == kTVMFFIFloat ||
         t == kTVMFFIDataType;
}

/* ---- children of a node (validated) ---- */

static int push_child(Reader* r, const TVMFFIAny* ref) {
  if (ref->type_index != kTVMFFIInt) return ffi_json_graph_convert_error(ref, "int");
  if (ref->v_int64 < 0 || ref->v_int64 >= r->num_nodes) return bad_index(ref->v_int64);
  int64_t* slot = (int64_t*)ffi_vec_push(&r->pending);
  if (slot == NULL) return -1;
  *slot = ref->v_int64;
  return 0;
}

typedef struct {
  Reader* r;
  ObjectData data;
} FieldCtx;

static int field_child(const TVMFFIFieldInfo* field, void* ctx_) {
  FieldCtx* ctx = (FieldCtx*)ctx_;
  if (inline_static_type(field->field_static_type_index)) return 0;
  const TVMFFIAny* ref;
  if (object_field(&ctx->data, field->name, &ref) != 0) return -1;
  return ref != NULL ? push_child(ctx->r, ref) : 0;
}

static int collect_children(Reader* r, const FfiGraphNode* node) {
  TVMFFIByteArray type = node->type;
  bool seq = type_is(type, "ffi.Array") || type_is(type, "ffi.List");
  bool map = type_is(type, "ffi.Map") || type_is(type, "ffi.Dict");
  if (seq || map) {
    TVMFFIAny data;
    if (node_data(r, node, &data) != 0) return -1;
    if (data.type_index != kTVMFFIArray) return ffi_json_graph_convert_error(&data, "Array<Any>");
    int64_t n = ffi_seq_cell(data.v_obj)->size;
    if (map && n % 2 != 0) {
      return ffi_raise("ValueError",
                       "Invalid JSON Object Graph: Map/Dict data must contain an even number of "
                       "[key, value] entries, got %lld",
                       (long long)n);
    }
    for (int64_t i = 0; i < n; ++i) {
      if (push_child(r, &ffi_seq_items(data.v_obj)[i]) != 0) return -1;
    }
    return 0;
  }
  if (is_builtin_key(type)) return 0;
  const TypeFacts* facts;
  if (type_facts(r, type, &facts) != 0) return -1;
  if (facts->has_from_json || facts->is_enum) return 0;
  if (!facts->creatable) return 0; /* reported when decoding */
  FieldCtx ctx = {r, {NULL, NULL, 0}};
  if (object_data(r, node, &ctx.data) != 0) return -1;
  return ffi_for_each_field(facts->index, field_child, &ctx);
}

/* ---- decoding a node whose children are done ---- */

static const TVMFFIAny* decoded_ref(Reader* r, const TVMFFIAny* ref) { return &r->decoded[ref->v_int64]; }

static int decode_builtin(Reader* r, TVMFFIByteArray type, const FfiGraphNode* node, TVMFFIAny* out) {
  *out = ffi_any_none();
  if (type_is(type, "None")) return 0;
  TVMFFIAny data_value;
  if (node_data(r, node, &data_value) != 0) return -1;
  const TVMFFIAny* data = &data_value;
  TVMFFIByteArray s;
  if (type_is(type, "int")) return ffi_json_graph_number(data, kTVMFFIInt, out);
  if (type_is(type, "bool")) return ffi_json_graph_number(data, kTVMFFIBool, out);
  if (type_is(type, "float")) return ffi_json_graph_number(data, kTVMFFIFloat, out);
  if (type_is(type, "DataType")) {
    if (!ffi_is_str(data->type_index)) return ffi_json_graph_convert_error(data, "str");
    ffi_string_view(data, &s);
    out->type_index = kTVMFFIDataType;
    if (s.size == 0) {
      out->v_dtype.code = kDLOpaqueHandle;
      return 0;
    }
    return TVMFFIDataTypeFromString(&s, &out->v_dtype);
  }
  if (type_is(type, "ffi.String") || type_is(type, "ffi.BigInt") || type_is(type, "ffi.Bytes")) {
    if (!ffi_is_str(data->type_index)) return ffi_json_graph_convert_error(data, "str");
    ffi_string_view(data, &s);
    if (type_is(type, "ffi.String")) return ffi_string_make(s.data, s.size, 0, out);
    return type_is(type, "ffi.Bytes") ? ffi_json_graph_base64(s, out) : ffi_json_graph_bigint(s, out);
  }
  int64_t* ints;
  int64_t n;
  if (type_is(type, "Device")) {
    if (data->type_index == kTVMFFIArray && ffi_seq_cell(data->v_obj)->size != 2) {
      return ffi_raise("ValueError",
                       "Invalid JSON Object Graph: Device data must be an array of [device_type, "
                       "device_id], got %lld element(s)",
                       (long long)ffi_seq_cell(data->v_obj)->size);
    }
    if (ffi_json_graph_int_array(data, "Array<int>", &ints, &n) != 0) return -1;
    out->type_index = kTVMFFIDevice;
    out->v_device.device_type = (DLDeviceType)ints[0];
    out->v_device.device_id = (int32_t)ints[1];
    free(ints);
    return 0;
  }
  if (type_is(type, "ffi.Shape")) {
    if (ffi_json_graph_int_array(data, "Array<int>", &ints, &n) != 0) return -1;
    TVMFFIObject* shape;
    int rc = ffi_shape_new(ints, (size_t)n, &shape);
    free(ints);
    if (rc != 0) return -1;
    *out = ffi_any_from_object(shape);
    return 0;
  }
  /* Containers: children are decoded. */
  TVMFFIObject* obj = NULL;
  TVMFFISeqCell* cell = ffi_seq_cell(data->v_obj);
  const TVMFFIAny* refs = ffi_seq_items(data->v_obj);
  int rc = 0;
  if (type_is(type, "ffi.Array") || type_is(type, "ffi.List")) {
    TVMFFIAny* items = (TVMFFIAny*)malloc((size_t)(cell->size > 0 ? cell->size : 1) * sizeof(TVMFFIAny));
    if (items == NULL) return ffi_raise("MemoryError", "out of memory decoding a JSON graph");
    for (int64_t i = 0; i < cell->size; ++i) items[i] = *decoded_ref(r, &refs[i]);
    rc = type_is(type, "ffi.Array") ? ffi_array_new(items, cell->size, &obj)
                                    : ffi_list_new_views(items, cell->size, &obj);
    free(items);
  } else {
    rc = ffi_map_new_empty(type_is(type, "ffi.Map") ? kTVMFFIMap : kTVMFFIDict, &obj);
    for (int64_t i = 0; rc == 0 && i + 1 < cell->size; i += 2) {
      rc = ffi_map_set(obj, ffi_any_retain(decoded_ref(r, &refs[i])), ffi_any_retain(decoded_ref(r, &refs[i + 1])));
    }
    if (rc != 0 && obj != NULL) ffi_decref(obj);
  }
  if (rc != 0) return -1;
  *out = ffi_any_from_object(obj);
  return 0;
}

typedef struct {
  Reader* r;
  TVMFFIObject* obj;
  ObjectData data;
  int32_t type_index;
} SetCtx;

static int set_field(const TVMFFIFieldInfo* field, void* ctx_) {
  SetCtx* ctx = (SetCtx*)ctx_;
  const TVMFFIAny* raw;
  if (object_field(&ctx->data, field->name, &raw) != 0) return -1;
  TVMFFIAny value = ffi_any_none();
  int rc;
  if (raw != NULL) {
    if (inline_static_type(field->field_static_type_index)) {
      if (ffi_json_graph_inline_value(field, raw, &value) != 0) return -1;
    } else {
      value = ffi_any_retain(decoded_ref(ctx->r, raw));
    }
  } else if (field->flags & kTVMFFIFieldFlagBitMaskHasDefault) {
    if (field->flags & kTVMFFIFieldFlagBitMaskDefaultFromFactory) {
      if (ffi_call(&field->default_value_or_factory, NULL, 0, &value) != 0) return -1;
    } else {
      value = ffi_any_retain(&field->default_value_or_factory);
    }
  } else {
    TVMFFIByteArray key = ffi_type_key_of(ctx->type_index);
    return ffi_raise("TypeError", "Required field `%.*s` not set in type `%.*s`",
                     (int)field->name.size, field->name.data, (int)key.size, key.data);
  }
  rc = ffi_field_set(ctx->obj, field, &value);
  ffi_any_release(&value);
  return rc;
}

static int decode_object(Reader* r, TVMFFIByteArray type, const FfiGraphNode* node, TVMFFIAny* out) {
  const TypeFacts* facts;
  if (type_facts(r, type, &facts) != 0) return -1;
  int32_t t = facts->index;
  TVMFFIAny data;
  const TVMFFIAny* hook = facts->has_from_json ? ffi_type_attr(t, "__data_from_json__") : NULL;
  if (hook != NULL) {
    if (node_data(r, node, &data) != 0) return -1;
    return ffi_call(hook, &data, 1, out);
  }
  if (facts->is_enum) {
    if (node_data(r, node, &data) != 0) return -1;
    return ffi_enum_from_json_data(t, &data, out);
  }
  TVMFFIObject* obj = NULL;
  if (ffi_json_graph_create_empty(t, &obj) != 0) return -1;
  SetCtx ctx = {r, obj, {NULL, NULL, 0}, t};
  if (object_data(r, node, &ctx.data) != 0) {
    ffi_decref(obj);
    return -1;
  }
  if (ffi_for_each_field(t, set_field, &ctx) != 0) {
    ffi_decref(obj);
    return -1;
  }
  *out = ffi_any_from_object(obj);
  return 0;
}

static int decode_node(Reader* r, const FfiGraphNode* node, TVMFFIAny* out) {
  if (is_builtin_key(node->type)) return decode_builtin(r, node->type, node, out);
  return decode_object(r, node->type, node, out);
}

/* ---- walk ---- */

static int open_node(Reader* r, int64_t index) {
  if ((int64_t)r->stack.size >= FFI_GRAPH_MAX_DEPTH) {
    return ffi_raise("ValueError", "Invalid JSON Object Graph: nesting deeper than 1048576 nodes");
  }
  size_t begin = r->pending.size;
  FfiGraphNode info;
  if (node_at(r, index, &info) != 0 || collect_children(r, &info) != 0) return -1;
  Frame* f = (Frame*)ffi_vec_push(&r->stack);
  if (f == NULL) return -1;
  f->node = index;
  f->info = info;
  f->begin = begin;
  f->count = r->pending.size - begin;
  f->next = 0;
  r->state[index] = kOpen;
  return 0;
}

static int walk(Reader* r, int64_t root) {
  if (open_node(r, root) != 0) return -1;
  while (r->stack.size > 0) {
    Frame* f = (Frame*)ffi_vec_top(&r->stack);
    if (f->next < f->count) {
      int64_t child = *(int64_t*)ffi_vec_at(&r->pending, f->begin + f->next);
      f->next += 1;
      if (r->state[child] == kDone) continue;
      if (r->state[child] == kOpen) {
        return ffi_raise("ValueError", "Invalid JSON Object Graph: node %lld refers to itself (cycle)",
                         (long long)child);
      }
      if (open_node(r, child) != 0) return -1;
      continue;
    }
    int64_t node = f->node;
    FfiGraphNode info = f->info;
    r->pending.size = f->begin;
    r->stack.size -= 1;
    if (decode_node(r, &info, &r->decoded[node]) != 0) return -1;
    r->state[node] = kDone;
  }
  return 0;
}

/* Decodes the graph of `r` (its node source set) from `root`. */
static int read_graph(Reader* r, int64_t root, TVMFFIAny* out) {
  if (root < 0 || root >= r->num_nodes) return bad_index(root);
  r->state = (uint8_t*)calloc((size_t)r->num_nodes, 1);
  r->decoded = (TVMFFIAny*)calloc((size_t)r->num_nodes, sizeof(TVMFFIAny));
  Frame frames[8]; /* shallow graphs decode without growing these */
  int64_t pending[32];
  ffi_vec_init_inline(&r->stack, sizeof(Frame), frames, 8);
  ffi_vec_init_inline(&r->pending, sizeof(int64_t), pending, 32);
  ffi_vec_init(&r->made, sizeof(TVMFFIAny));
  int rc = (r->state == NULL || r->decoded == NULL)
               ? ffi_raise("MemoryError", "out of memory decoding a JSON graph")
               : walk(r, root);
  if (rc == 0) *out = ffi_any_retain(&r->decoded[root]);
  for (int64_t i = 0; r->decoded != NULL && i < r->num_nodes; ++i) ffi_any_release(&r->decoded[i]);
  free(r->state);
  free(r->decoded);
  for (size_t i = 0; i < r->made.size; ++i) ffi_any_release((TVMFFIAny*)ffi_vec_at(&r->made, i));
  ffi_vec_free(&r->stack);
  ffi_vec_free(&r->pending);
  ffi_vec_free(&r->made);
  return rc;
}

int ffi_from_json_graph(const TVMFFIAny* doc, TVMFFIAny* out) {
  if (doc->type_index != kTVMFFIMap && doc->type_index != kTVMFFIDict) {
    return ffi_raise("ValueError", "Invalid JSON Object Graph, expected an object");
  }
  const TVMFFIAny* root = get(doc->v_obj, "root_index");
  if (root == NULL || root->type_index != kTVMFFIInt) {
    return ffi_raise("ValueError", "Invalid JSON Object Graph, expected `root_index` integer field");
  }
  const TVMFFIAny* nodes = get(doc->v_obj, "nodes");
  if (nodes == NULL || nodes->type_index != kTVMFFIArray) {
    return ffi_raise("ValueError", "Invalid JSON Object Graph, expected `nodes` array field");
  }
  Reader r;
  memset(&r, 0, sizeof(r));
  r.nodes = nodes->v_obj;
  r.num_nodes = ffi_seq_cell(r.nodes)->size;
  return read_graph(&r, root->v_int64, out);
}

int ffi_from_json_graph_scan(const FfiGraphScan* scan, TVMFFIAny* out) {
  Reader r;
  memset(&r, 0, sizeof(r));
  r.scanned = scan->nodes;
  r.fields = scan->fields;
  r.num_nodes = scan->num_nodes;
  return read_graph(&r, scan->root_index, out);
}

/* ---- global functions ---- */

static int global_from_json_graph(void* self, const TVMFFIAny* args, int32_t num_args,
                                  TVMFFIAny* result) {
  (void)self;
  if (ffi_check_num_args("ffi.FromJSONGraph", num_args, 1) != 0) return -1;
  TVMFFIAny doc;
  if (TVMFFIAnyViewToOwnedAny(&args[0], &doc) != 0) return -1;
  int rc = ffi_from_json_graph(&doc, result);
  ffi_any_release(&doc);
  return rc;
}

static int global_from_json_graph_string(void* self, const TVMFFIAny* args, int32_t num_args,
                                         TVMFFIAny* result) {
  (void)self;
  const char* fname = "ffi.FromJSONGraphString";
  TVMFFIByteArray s;
  if (ffi_check_num_args(fname, num_args, 1) != 0) return -1;
  if (!ffi_is_str(args[0].type_index) && args[0].type_index != kTVMFFIRawStr &&
      args[0].type_index != kTVMFFIByteArrayPtr) {
    TVMFFIByteArray key = ffi_type_key_of(args[0].type_index);
    return ffi_raise("TypeError",
                     "Mismatched type on argument #0 when calling: `ffi.FromJSONGraphString(0: "
                     "str) -> Any`. Expected `str` but got `%.*s`",
                     (int)key.size, key.data);
  }
  if (ffi_arg_str(fname, args, 0, &s) != 0) return -1;
  FfiGraphScan scan;
  if (ffi_json_graph_scan(s.data, s.size, &scan)) {
    int rc = ffi_from_json_graph_scan(&scan, result);
    ffi_json_graph_scan_free(&scan);
    return rc;
  }
  TVMFFIAny doc;
  if (ffi_json_parse(s.data, s.size, &doc) != 0) return -1;
  int rc = ffi_from_json_graph(&doc, result);
  ffi_any_release(&doc);
  return rc;
}

void ffi_register_json_graph_read_globals(void) {
  ffi_register_builtin("ffi.FromJSONGraph", global_from_json_graph);
  ffi_register_builtin("ffi.FromJSONGraphString", global_from_json_graph_string);
}
