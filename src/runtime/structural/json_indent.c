/*
 * structural/json_indent.c -- the indented form of compact JSON text (ffi.json.Stringify's
 * `indent` argument): one item per line, `": "` after keys, empty containers as "[\n]" at the
 * container's own indentation, the layout the reference prints.
 */
#include "json_text.h"

static int put_newline(FfiBuf* out, int64_t indent, int64_t level) {
  if (ffi_buf_reserve(out, (size_t)(1 + indent * level)) != 0) return -1;
  out->data[out->size++] = '\n';
  for (int64_t i = 0; i < indent * level; ++i) out->data[out->size++] = ' ';
  return 0;
}

int ffi_json_indent(const char* text, size_t size, int64_t indent, FfiBuf* out) {
  int64_t level = 0;
  bool in_string = false;
  for (size_t i = 0; i < size; ++i) {
    char c = text[i];
    int rc = 0;
    if (in_string) {
      rc = ffi_buf_append(out, &c, 1);
      if (c == '\\' && i + 1 < size) {
        rc = rc != 0 ? rc : ffi_buf_append(out, &text[++i], 1);  // the escaped character
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
      rc = ffi_buf_append(out, &c, 1);
    } else if (c == '{' || c == '[') {
      bool empty = i + 1 < size && (text[i + 1] == '}' || text[i + 1] == ']');
      rc = ffi_buf_append(out, &c, 1);
      if (!empty) ++level;
      if (rc == 0) rc = put_newline(out, indent, level);
    } else if (c == '}' || c == ']') {
      bool closes_empty = i > 0 && (text[i - 1] == '{' || text[i - 1] == '[');
      if (!closes_empty) {
        --level;
        rc = put_newline(out, indent, level);
      }
      if (rc == 0) rc = ffi_buf_append(out, &c, 1);
    } else if (c == ',') {
      rc = ffi_buf_append(out, ",", 1);
      if (rc == 0) rc = put_newline(out, indent, level);
    } else if (c == ':') {
      rc = ffi_buf_append(out, ": ", 2);
    } else {
      rc = ffi_buf_append(out, &c, 1);
    }
    if (rc != 0) return -1;
  }
  return 0;
}
