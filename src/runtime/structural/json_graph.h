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

void ffi_register_json_graph_write_globals(void);
void ffi_register_json_graph_read_globals(void);

#endif /* TVM_FFI_RUNTIME_STRUCTURAL_JSON_GRAPH_H_ */
