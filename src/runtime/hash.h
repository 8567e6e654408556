/*
 * hash.h -- the hash arithmetic the reference's headers compute inline: Map/Dict key hashes
 * (container/map_hash.c) and structural hashes (structural/) must equal it bit for bit, or a
 * kernel built against those headers misses keys inserted here and hashes differ across
 * runtimes.
 *
 * Bytes hash as 8-byte little-endian words (the last one zero-padded) folded FNV-style modulo
 * the Mersenne prime 2^31 - 1; values are combined with the boost-style combiner.
 */
#ifndef TVM_FFI_RUNTIME_HASH_H_
#define TVM_FFI_RUNTIME_HASH_H_

#include <stddef.h>
#include <stdint.h>

static inline uint64_t ffi_hash_combine(uint64_t key, uint64_t value) {
  return key ^ (value + 0x9e3779b9ULL + (key << 6) + (key >> 2));
}

/* x % (2^31 - 1) without the multiply-high a division by a constant becomes: 2^31 is 1 modulo
 * that prime, so adding the bits above bit 31 to those below keeps the residue. Two folds leave
 * less than 2^31 + 8, and one subtraction makes it canonical. */
static inline uint64_t ffi_mod_mersenne31(uint64_t x) {
  const uint64_t kMod = 2147483647ULL;
  x = (x & kMod) + (x >> 31);
  x = (x & kMod) + (x >> 31);
  return x >= kMod ? x - kMod : x;
}

uint64_t ffi_hash_bytes(const char* data, size_t size);

#endif /* TVM_FFI_RUNTIME_HASH_H_ */
