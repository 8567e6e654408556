/*
 * structural/json_text.h -- JSON text <-> FFI values (ffi.json.Parse / ffi.json.Stringify), and
 * the number/string formatting the JSON graph writer shares.
 */
#ifndef TVM_FFI_RUNTIME_STRUCTURAL_JSON_TEXT_H_
#define TVM_FFI_RUNTIME_STRUCTURAL_JSON_TEXT_H_

#include "graph_util.h"

/* Parses untrusted text: objects become Maps (insertion order, duplicate keys: last wins),
 * arrays Arrays, integers beyond int64 floats; NaN/Infinity/-Infinity accepted. Errors are
 * ValueError with Python json's wording and position. Never recurses. */
int ffi_json_parse(const char* text, size_t size, TVMFFIAny* out);
/* Compact text of None/bool/int/float/str/Array/List/Map values (Map keys must be str). */
int ffi_json_stringify(const TVMFFIAny* value, FfiBuf* out);

/* The indented form of compact JSON text: `indent` spaces per level (json_indent.c). */
int ffi_json_indent(const char* text, size_t size, int64_t indent, FfiBuf* out);

/* Writers of single items (spec STRUCTURAL.md section 1.5). */
int ffi_json_write_float(FfiBuf* b, double v);
int ffi_json_write_string(FfiBuf* b, const char* data, size_t size);

#endif /* TVM_FFI_RUNTIME_STRUCTURAL_JSON_TEXT_H_ */
