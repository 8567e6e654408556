/*
 * structural/json_text_globals.c -- the global functions ffi.json.Parse(text) and
 * ffi.json.Stringify(value, indent=None) over json_parse.c, json_write.c and json_indent.c.
 */
#include <inttypes.h>

#include "json_text.h"

static int global_parse(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  TVMFFIByteArray s;
  if (ffi_check_num_args("ffi.json.Parse", num_args, 1) != 0 ||
      ffi_arg_str("ffi.json.Parse", args, 0, &s) != 0) {
    return -1;
  }
  return ffi_json_parse(s.data, s.size, result);
}

static int global_stringify(void* self, const TVMFFIAny* args, int32_t num_args,
                            TVMFFIAny* result) {
  (void)self;
  const char* fname = "ffi.json.Stringify";
  if (num_args < 1 || num_args > 2) return ffi_check_num_args(fname, num_args, 1);
  int64_t indent = 0; /* None or 0: compact */
  if (num_args == 2 && args[1].type_index != kTVMFFINone &&
      ffi_arg_int(fname, args, 1, &indent) != 0) {
    return -1;
  }
  if (indent > 65536) { /* keeps indent * depth far from overflow */
    return ffi_raise("ValueError", "%s: indent %" PRId64 " is too large", fname, indent);
  }
  FfiBuf b = {NULL, 0, 0};
  if (ffi_json_stringify(&args[0], &b) != 0) {
    ffi_buf_free(&b);
    return -1;
  }
  if (indent <= 0) return ffi_buf_to_str(&b, result);
  FfiBuf pretty = {NULL, 0, 0};
  int rc = ffi_json_indent(b.data, b.size, indent, &pretty);
  ffi_buf_free(&b);
  if (rc != 0) {
    ffi_buf_free(&pretty);
    return -1;
  }
  return ffi_buf_to_str(&pretty, result);
}

void ffi_register_json_text_globals(void) {
  ffi_register_builtin("ffi.json.Parse", global_parse);
  ffi_register_builtin("ffi.json.Stringify", global_stringify);
}
