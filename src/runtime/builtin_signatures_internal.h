/*
 * builtin_signatures_internal.h -- signatures and type schemas of the built-in global
 * functions (builtin_signatures.c).
 */
#ifndef TVM_FFI_RUNTIME_BUILTIN_SIGNATURES_INTERNAL_H_
#define TVM_FFI_RUNTIME_BUILTIN_SIGNATURES_INTERNAL_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  const char* name;
  const char* signature; /* "name(0: T0, ...) -> R"; NULL for packed functions */
  const char* metadata;  /* `{"type_schema":"<schema JSON as a string>"}` */
} FfiBuiltinSignature;

/* The entry of the built-in `name`, or NULL for functions without one. */
const FfiBuiltinSignature* ffi_builtin_signature(const char* name);

/* How argument errors name the function `name`: its signature, else the name itself. */
const char* ffi_builtin_display_name(const char* name);

/* The type text of parameter `i` in `signature` into buf (NUL-terminated, truncated to size);
 * false when it has no such parameter. */
bool ffi_builtin_param_text(const char* signature, int32_t i, char* buf, size_t size);

#endif /* TVM_FFI_RUNTIME_BUILTIN_SIGNATURES_INTERNAL_H_ */
