/*
 * structural/json_graph_scan.c -- FromJSONGraphString's fast path: takes the text of a JSON
 * graph document apart by its known shape instead of parsing it into generic values first.
 *
 * A document is {"root_index": <int>, "nodes": [<node>, ...], ...} and every node is
 * {"type": "<type key>", "data": <value>}. Parsed generically, each node becomes a Map with two
 * string keys that the reader then looks up and throws away: most of the cost of reading a
 * graph. Here a node's type stays a slice of the text, an object's data stays a list of
 * (name slice, value) fields, and only values go through the generic parser (arrays of child
 * indices, scalars, nested values of hooked types).
 *
 * The scan reads only documents of exactly that shape. Anything else -- malformed JSON, a node
 * that is not an object or has no plain-string type, a root_index that is not an integer, a
 * key written with escapes, "nodes" given twice -- makes it give up without raising, and the
 * caller parses the text the generic way, which reports the problem with the usual messages.
 * Giving up is always correct, so the scan may be strict; it never recurses.
 */
#include <stdlib.h>

#include "json_graph.h"
#include "json_text.h"

static inline bool take(FfiJsonCursor* c, char ch) {
  ffi_json_skip_ws(c);
  if (c->pos >= c->n || c->s[c->pos] != ch) return false;
  c->pos += 1;
  return true;
}

static bool is_key(TVMFFIByteArray key, const char* literal, size_t size) {
  return key.size == size && memcmp(key.data, literal, size) == 0;
}
#define KEY_IS(key, literal) is_key((key), (literal), sizeof(literal) - 1)

/* `"key":` of an object member. */
static bool member_key(FfiJsonCursor* c, TVMFFIByteArray* key) {
  ffi_json_skip_ws(c);
  return ffi_json_plain_string(c, key) && take(c, ':');
}

/* A value this scan does not interpret (metadata, unknown keys), parsed and dropped. */
static bool skip_value(FfiJsonCursor* c) {
  TVMFFIAny v;
  if (ffi_json_parse_value(c, &v) != 0) return false;
  ffi_any_release(&v);
  return true;
}

/* The members of object data; pushed fields are owned by `fields` even when this fails. */
static bool scan_fields(FfiJsonCursor* c, FfiVec* fields, FfiGraphNode* node) {
  node->first_field = (int64_t)fields->size;
  if (!take(c, '{')) return false;
  if (!take(c, '}')) {
    do {
      TVMFFIByteArray name;
      if (!member_key(c, &name)) return false;
      FfiGraphField* field = (FfiGraphField*)ffi_vec_push(fields);
      if (field == NULL || ffi_json_parse_value(c, &field->value) != 0) return false;
      field->name = name;
    } while (take(c, ','));
    if (!take(c, '}')) return false;
  }
  node->num_fields = (int64_t)fields->size - node->first_field;
  return true;
}

/* One node object; `node` owns its data even when this fails. */
static bool scan_node(FfiJsonCursor* c, FfiGraphNode* node, FfiVec* fields) {
  node->num_fields = -1;
  bool has_type = false;
  if (!take(c, '{')) return false;
  if (take(c, '}')) return false; /* no type */
  do {
    TVMFFIByteArray key;
    if (!member_key(c, &key)) return false;
    if (KEY_IS(key, "type")) {
      ffi_json_skip_ws(c);
      if (!ffi_json_plain_string(c, &node->type)) return false;
      has_type = true;
    } else if (KEY_IS(key, "data")) {
      ffi_any_release(&node->data); /* a repeated key: the last one counts */
      node->data = ffi_any_none();
      node->num_fields = -1;
      node->has_data = true;
      ffi_json_skip_ws(c);
      if (c->pos < c->n && c->s[c->pos] == '{') {
        if (!scan_fields(c, fields, node)) return false;
      } else if (ffi_json_parse_value(c, &node->data) != 0) {
        return false;
      }
    } else if (!skip_value(c)) {
      return false;
    }
  } while (take(c, ','));
  return take(c, '}') && has_type;
}

static bool scan_nodes(FfiJsonCursor* c, FfiVec* nodes, FfiVec* fields) {
  if (!take(c, '[')) return false;
  if (take(c, ']')) return true;
  do {
    FfiGraphNode* node = (FfiGraphNode*)ffi_vec_push(nodes);
    if (node == NULL || !scan_node(c, node, fields)) return false;
  } while (take(c, ','));
  return take(c, ']');
}

static bool scan_document(FfiJsonCursor* c, FfiVec* nodes, FfiVec* fields, int64_t* root_index) {
  bool has_root = false, has_nodes = false;
  if (!take(c, '{') || take(c, '}')) return false;
  do {
    TVMFFIByteArray key;
    if (!member_key(c, &key)) return false;
    if (KEY_IS(key, "root_index")) {
      TVMFFIAny root;
      if (ffi_json_parse_value(c, &root) != 0) return false;
      if (root.type_index != kTVMFFIInt) {
        ffi_any_release(&root);
        return false;
      }
      *root_index = root.v_int64;
      has_root = true;
    } else if (KEY_IS(key, "nodes")) {
      if (has_nodes || !scan_nodes(c, nodes, fields)) return false;
      has_nodes = true;
    } else if (!skip_value(c)) {
      return false;
    }
  } while (take(c, ','));
  if (!take(c, '}')) return false;
  ffi_json_skip_ws(c);
  return c->pos == c->n && has_root && has_nodes;
}

void ffi_json_graph_scan_free(FfiGraphScan* scan) {
  for (int64_t i = 0; i < scan->num_nodes; ++i) ffi_any_release(&scan->nodes[i].data);
  for (int64_t i = 0; i < scan->num_fields; ++i) ffi_any_release(&scan->fields[i].value);
  free(scan->nodes);
  free(scan->fields);
  memset(scan, 0, sizeof(*scan));
}

int ffi_json_graph_scan(const char* text, size_t size, FfiGraphScan* out) {
  FfiJsonCursor c = {text, size, 0};
  FfiVec nodes, fields;
  ffi_vec_init(&nodes, sizeof(FfiGraphNode));
  ffi_vec_init(&fields, sizeof(FfiGraphField));
  bool scanned = scan_document(&c, &nodes, &fields, &out->root_index);
  /* The vectors' heap buffers become the scan's (or are freed with it). */
  out->num_nodes = (int64_t)nodes.size;
  out->nodes = (FfiGraphNode*)nodes.data;
  out->num_fields = (int64_t)fields.size;
  out->fields = (FfiGraphField*)fields.data;
  if (scanned) return 1;
  ffi_discard_raised(); /* the generic parse reports it */
  ffi_json_graph_scan_free(out);
  return 0;
}
