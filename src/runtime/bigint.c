/*
 * bigint.c -- integers wider than int64 (the wheel's ffi.BigInt, type index 78).
 *
 * Layout: header, then a size_t word count at +24, then that many
 * native-endian int64 words from +32, least significant first, two's complement. The word
 * count is minimal and always >= 2: anything that fits one word travels as kTVMFFIInt
 * instead, so every integer has exactly one representation.
 */
#include <stdlib.h>

#include "internal.h"

typedef struct {
  TVMFFIObject header;
  size_t num_words;
  int64_t words[];
} BigIntObject;

_Static_assert(offsetof(BigIntObject, num_words) == 24, "BigInt word count lives at +24");
_Static_assert(offsetof(BigIntObject, words) == 32, "BigInt words start at +32");

static void bigint_destroy(void* self) { (void)self; /* words live in the same block */ }
FFI_DEFINE_DELETER(bigint_deleter, bigint_destroy)

/* Drops top words that only repeat the sign of the word below them. */
static size_t minimal_word_count(const char* data, size_t n) {
  while (n > 1) {
    int64_t top = ffi_bigint_word(data, n - 1);
    int64_t sign = ffi_bigint_word(data, n - 2) < 0 ? -1 : 0;
    if (top != sign) break;
    --n;
  }
  return n;
}

int TVMFFIBigIntFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  if (input == NULL || out == NULL) {
    return ffi_raise("ValueError", "TVMFFIBigIntFromByteArray: input and out must not be NULL");
  }
  *out = ffi_any_none();
  if (input->size % sizeof(int64_t) != 0) {
    return ffi_raise("ValueError",
                     "TVMFFIBigIntFromByteArray: input has %zu bytes, expected whole 64-bit "
                     "words (a multiple of 8)",
                     input->size);
  }
  if (input->data == NULL && input->size != 0) {
    return ffi_raise("ValueError", "TVMFFIBigIntFromByteArray: input has %zu bytes but NULL data",
                     input->size);
  }
  size_t n = minimal_word_count(input->data, input->size / sizeof(int64_t));
  if (n <= 1) {
    out->type_index = kTVMFFIInt;
    out->v_int64 = n == 0 ? 0 : ffi_bigint_word(input->data, 0);
    return 0;
  }
  if (n > (SIZE_MAX - sizeof(BigIntObject)) / sizeof(int64_t)) {
    return ffi_raise("MemoryError", "TVMFFIBigIntFromByteArray: %zu words is too large", n);
  }
  BigIntObject* obj = (BigIntObject*)ffi_object_alloc(
      sizeof(BigIntObject) + n * sizeof(int64_t), kTVMFFIBigInt, bigint_deleter);
  if (obj == NULL) return -1;
  obj->num_words = n;
  memcpy(obj->words, input->data, n * sizeof(int64_t));
  *out = ffi_any_from_object(&obj->header);
  return 0;
}

TVMFFIByteArray TVMFFIBigIntGetContentByteArray(const TVMFFIAny* value) {
  TVMFFIByteArray view = {NULL, 0};
  if (value == NULL) return view;
  if (value->type_index == kTVMFFIInt) {
    /* An int is its own single word: view the payload inside the caller's Any. */
    view.data = (const char*)&value->v_int64;
    view.size = sizeof(int64_t);
  } else if (value->type_index == kTVMFFIBigInt && value->v_obj != NULL) {
    const BigIntObject* obj = (const BigIntObject*)value->v_obj;
    view.data = (const char*)obj->words;
    view.size = obj->num_words * sizeof(int64_t);
  }
  return view;
}
