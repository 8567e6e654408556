/*
 * structural/json_graph.h -- the JSON object-graph format shared by its writer and reader.
 */
#ifndef TVM_FFI_RUNTIME_STRUCTURAL_JSON_GRAPH_H_
#define TVM_FFI_RUNTIME_STRUCTURAL_JSON_GRAPH_H_

#include "graph_util.h"

/* True when instances of the type can be made empty (native creator or __ffi_new__). */
bool ffi_json_graph_creatable(int32_t type_index);
/* The document text of value (metadata may be NULL or None: then no metadata key), in
 * out->data + *start .. out->size. */
int ffi_to_json_graph_string(const TVMFFIAny* value, const TVMFFIAny* metadata, FfiBuf* out,
                             size_t* start);
/* The value of a parsed document (a Map). */
int ffi_from_json_graph(const TVMFFIAny* doc, TVMFFIAny* out);

/* A member of an object node's data as the scan read it: name (a slice of the text), value. */
typedef struct {
  TVMFFIByteArray name;
  TVMFFIAny value;
} FfiGraphField;

/* One node of a document as the reader sees it: its type key and its data, a view (has_data
 * false when the node has no "data" key). Object data that the scan read stays a run of
 * num_fields fields from first_field of the scan's fields, with `data` unused; num_fields is -1
 * for every other node. */
typedef struct {
  TVMFFIByteArray type;
  TVMFFIAny data;
  bool has_data;
  int64_t first_field, num_fields;
} FfiGraphNode;

/* A document taken apart from its text by ffi_json_graph_scan: the node types and field names
 * are slices of the text, which must outlive it; the data values are owned. */
typedef struct {
  int64_t root_index;
  int64_t num_nodes;
  FfiGraphNode* nodes;
  int64_t num_fields;
  FfiGraphField* fields;
} FfiGraphScan;

/* Reads the text of a well-formed document into *out: 1. For anything else (malformed JSON,
 * a node that is not an object or whose type is not a plain string, ...): 0, nothing raised,
 * and the caller parses the text the generic way, which reports the problem (json_graph_scan.c). */
int ffi_json_graph_scan(const char* text, size_t size, FfiGraphScan* out);
void ffi_json_graph_scan_free(FfiGraphScan* scan);
/* The value of a scanned document. */
int ffi_from_json_graph_scan(const FfiGraphScan* scan, TVMFFIAny* out);

/* ---- decoders of node data (json_graph_data.c) ---- */

/* Raises "Cannot convert from type `<v's type>` to `<to>`" (TypeError); -1. */
int ffi_json_graph_convert_error(const TVMFFIAny* v, const char* to);
/* The ints of an Array of ints, malloc'ed (free them); `what` names the target in errors. */
int ffi_json_graph_int_array(const TVMFFIAny* data, const char* what, int64_t** out, int64_t* n);
/* Bytes from base64 text. */
int ffi_json_graph_base64(TVMFFIByteArray s, TVMFFIAny* out);
/* int or BigInt from decimal text. */
int ffi_json_graph_bigint(TVMFFIByteArray s, TVMFFIAny* out);
/* An empty instance of type t (native creator or __ffi_new__), to fill field by field. */
int ffi_json_graph_create_empty(int32_t t, TVMFFIObject** out);
/* A JSON number or bool as an int, bool or float value (type_index one of those three). */
int ffi_json_graph_number(const TVMFFIAny* v, int32_t type_index, TVMFFIAny* out);
/* The value of a field stored inline (None, int, bool, float, DataType) from its JSON value. */
int ffi_json_graph_inline_value(const TVMFFIFieldInfo* field, const TVMFFIAny* v, TVMFFIAny* out);

void ffi_register_json_graph_write_globals(void);
void ffi_register_json_graph_read_globals(void);

#endif /* TVM_FFI_RUNTIME_STRUCTURAL_JSON_GRAPH_H_ */
