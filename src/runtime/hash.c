/*
 * hash.c -- the byte hash of hash.h (strings, bytes, BigInt words).
 */
#include "hash.h"

#include <string.h>

uint64_t ffi_hash_bytes(const char* data, size_t size) {
  const uint64_t kMul = 1099511628211ULL;
  uint64_t result = 0, word;
  size_t i = 0;
  for (; i + 8 <= size; i += 8) { /* whole words: a fixed-size copy is one load */
    memcpy(&word, data + i, 8);
    result = ffi_mod_mersenne31(result * kMul + word);
  }
  if (i < size) { /* the zero-padded last word */
    word = 0;
    memcpy(&word, data + i, size - i);
    result = ffi_mod_mersenne31(result * kMul + word);
  }
  return result;
}
