/*
 * structural/json_text.h -- JSON text <-> FFI values: the parser (json_parse.c), the compact
 * writer and the number/string formatting the JSON graph writer shares (json_write.c), the
 * indenter (json_indent.c); ffi.json.Parse / ffi.json.Stringify are in json_text_globals.c.
 */
#ifndef TVM_FFI_RUNTIME_STRUCTURAL_JSON_TEXT_H_
#define TVM_FFI_RUNTIME_STRUCTURAL_JSON_TEXT_H_

#include "graph_util.h"

/* Parses untrusted text: objects become Maps (insertion order, duplicate keys: last wins),
 * arrays Arrays, integers beyond int64 floats; NaN/Infinity/-Infinity accepted. Errors are
 * ValueError with Python json's wording and position. Never recurses. */
int ffi_json_parse(const char* text, size_t size, TVMFFIAny* out);

/* A reading position in JSON text, for readers that take a document of known shape apart
 * themselves (json_graph_scan.c) and hand the parts they do not interpret to the parser. */
typedef struct {
  const char* s;
  size_t n;
  size_t pos;
} FfiJsonCursor;

/* Parses the one value at c->pos (whitespace before and after it skipped) and leaves c after
 * it; on error raises as ffi_json_parse does and leaves c unchanged. */
int ffi_json_parse_value(FfiJsonCursor* c, TVMFFIAny* out);
/* Takes a string without escapes or control characters as a slice of the text; false, and c
 * unchanged, for anything else. */
bool ffi_json_plain_string(FfiJsonCursor* c, TVMFFIByteArray* out);

/* The scanners copy the cursor's fields to locals first: the text is `char`, which may alias
 * anything, so loops over c->s[c->pos] would reload and store the fields on every byte. */
static inline void ffi_json_skip_ws(FfiJsonCursor* c) {
  const char* s = c->s;
  size_t n = c->n, pos = c->pos;
  while (pos < n && (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\n' || s[pos] == '\r')) ++pos;
  c->pos = pos;
}
/* Compact text of None/bool/int/float/str/Array/List/Map values (Map keys must be str). */
int ffi_json_stringify(const TVMFFIAny* value, FfiBuf* out);

/* The indented form of compact JSON text: `indent` spaces per level (json_indent.c). */
int ffi_json_indent(const char* text, size_t size, int64_t indent, FfiBuf* out);

/* Writers of single items (spec STRUCTURAL.md section 1.5). */
int ffi_json_write_float(FfiBuf* b, double v);
int ffi_json_write_string(FfiBuf* b, const char* data, size_t size);

#endif /* TVM_FFI_RUNTIME_STRUCTURAL_JSON_TEXT_H_ */
