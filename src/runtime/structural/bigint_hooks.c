/*
 * structural/bigint_hooks.c -- `__any_hash__` / `__any_equal__` of ffi.BigInt, as the reference
 * registers them: equal big integers are one Map key, one JSON graph node, and match as map
 * keys in structural equality.
 */
#include "structural.h"

static TVMFFIAny bigint_any_hash(const TVMFFIAny* v) {
  TVMFFIByteArray words = TVMFFIBigIntGetContentByteArray(v);
  TVMFFIAny out = ffi_any_none();
  out.type_index = kTVMFFIInt;
  out.v_int64 = (int64_t)ffi_hash_bytes(words.data, words.size);
  return out;
}

static TVMFFIAny bigint_any_equal(const TVMFFIAny* a, const TVMFFIAny* b) {
  TVMFFIByteArray x = TVMFFIBigIntGetContentByteArray(a), y = TVMFFIBigIntGetContentByteArray(b);
  TVMFFIAny out = ffi_any_none();
  out.type_index = kTVMFFIBool;
  out.v_int64 = a->type_index == b->type_index && x.size == y.size && memcmp(x.data, y.data, x.size) == 0;
  return out;
}

/* Another part of the runtime may have registered these already: theirs is kept. */
static void register_ptr_attr(const char* attr, void* fn) {
  if (ffi_type_attr(kTVMFFIBigInt, attr) != NULL) return;
  TVMFFIAny v = ffi_any_none();
  v.type_index = kTVMFFIOpaquePtr;
  v.v_ptr = fn;
  TVMFFIByteArray name = {attr, strlen(attr)};
  if (TVMFFITypeRegisterAttr(kTVMFFIBigInt, &name, &v) != 0) ffi_fatal("bigint_hooks", "%s", attr);
}

void ffi_register_bigint_any_hooks(void) {
  register_ptr_attr("__any_hash__", (void*)bigint_any_hash);
  register_ptr_attr("__any_equal__", (void*)bigint_any_equal);
}
