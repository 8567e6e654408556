/*
 * structural/json_graph_scan.c -- FromJSONGraphString's fast path: takes the text of a JSON
 * graph document apart by its known shape instead of parsing it into generic values first.
 *
 * A document is {"root_index": <int>, "nodes": [<node>, ...], ...} and every node is
 * {"type": "<type key>", "data": <value>}. Parsed generically, each node becomes a Map with two
 * string keys that the reader then looks up and throws away: most of the cost of reading a
 * graph. Here a node's type stays a slice of the text and only its data goes through the
 * generic parser (a field map, an array of child indices, a scalar).
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

static bool take(FfiJsonCursor* c, char ch) {
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

/* One node object; `node` is zeroed and owns its data even when this fails. */
static bool scan_node(FfiJsonCursor* c, FfiGraphNode* node) {
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
      TVMFFIAny data;
      if (ffi_json_parse_value(c, &data) != 0) return false;
      ffi_any_release(&node->data); /* a repeated key: the last one counts */
      node->data = data;
      node->has_data = true;
    } else if (!skip_value(c)) {
      return false;
    }
  } while (take(c, ','));
  return take(c, '}') && has_type;
}

static bool scan_nodes(FfiJsonCursor* c, FfiVec* nodes) {
  if (!take(c, '[')) return false;
  if (take(c, ']')) return true;
  do {
    FfiGraphNode* node = (FfiGraphNode*)ffi_vec_push(nodes);
    if (node == NULL || !scan_node(c, node)) return false;
  } while (take(c, ','));
  return take(c, ']');
}

static bool scan_document(FfiJsonCursor* c, FfiVec* nodes, int64_t* root_index) {
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
      if (has_nodes || !scan_nodes(c, nodes)) return false;
      has_nodes = true;
    } else if (!skip_value(c)) {
      return false;
    }
  } while (take(c, ','));
  if (!take(c, '}')) return false;
  ffi_json_skip_ws(c);
  return c->pos == c->n && has_root && has_nodes;
}

static void release_nodes(FfiGraphNode* nodes, size_t count) {
  for (size_t i = 0; i < count; ++i) ffi_any_release(&nodes[i].data);
}

int ffi_json_graph_scan(const char* text, size_t size, FfiGraphScan* out) {
  FfiJsonCursor c = {text, size, 0};
  FfiVec nodes;
  ffi_vec_init(&nodes, sizeof(FfiGraphNode));
  int64_t root_index = 0;
  if (!scan_document(&c, &nodes, &root_index)) {
    ffi_discard_raised(); /* the generic parse reports it */
    release_nodes((FfiGraphNode*)nodes.data, nodes.size);
    ffi_vec_free(&nodes);
    return 0;
  }
  out->root_index = root_index;
  out->num_nodes = (int64_t)nodes.size;
  out->nodes = (FfiGraphNode*)nodes.data; /* the vector's heap buffer, now the scan's */
  return 1;
}

void ffi_json_graph_scan_free(FfiGraphScan* scan) {
  release_nodes(scan->nodes, (size_t)scan->num_nodes);
  free(scan->nodes);
  scan->nodes = NULL;
  scan->num_nodes = 0;
}
