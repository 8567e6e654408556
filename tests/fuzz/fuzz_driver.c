/*
 * fuzz_driver.c -- a deterministic mutation driver for libFuzzer-style harnesses, for machines
 * without clang's libFuzzer. A harness defines LLVMFuzzerTestOneInput (the libFuzzer entry, so
 * the same file also builds with -fsanitize=fuzzer) and fuzz_seeds(); this driver feeds it the
 * seeds, then `runs` mutants of a small evolving pool, all from a fixed PRNG seed, so a failure
 * reproduces exactly with the same arguments.
 *
 *   usage: fuzz_<name> RUNS [SEED]   prints "seeds=K mutants=RUNS seconds=S execs_per_second=E"
 *
 * A crash, sanitizer report or abort() in the harness ends the process with a non-zero status;
 * rerunning with the same arguments and FUZZ_VERBOSE=1 prints every input (hex) before it runs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz_harness.h"

enum { kPoolSize = 256, kMaxInput = 4096 };

typedef struct {
  uint8_t* data;
  size_t size;
} Input;

static uint64_t g_rng;

static uint64_t next_random(void) { /* xorshift64* */
  g_rng ^= g_rng >> 12;
  g_rng ^= g_rng << 25;
  g_rng ^= g_rng >> 27;
  return g_rng * 0x2545F4914F6CDD1DULL;
}

static size_t below(size_t n) { return n == 0 ? 0 : (size_t)(next_random() % n); }

static const uint64_t kInteresting[] = {0, 1, 2, 7, 8, 16, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0xFFFF,
                                        0x7FFFFFFF, 0x80000000u, 0xFFFFFFFFu, UINT64_MAX / 8,
                                        INT64_MAX, (uint64_t)INT64_MIN, UINT64_MAX};

static void mutate_once(uint8_t* buf, size_t* size, const Input* pool, size_t pool_size) {
  size_t n = *size;
  switch (below(8)) {
    case 0: /* flip a bit */
      if (n) buf[below(n)] ^= (uint8_t)(1u << below(8));
      break;
    case 1: /* a random byte */
      if (n) buf[below(n)] = (uint8_t)next_random();
      break;
    case 2: { /* an interesting little-endian word of 1, 2, 4 or 8 bytes */
      size_t width = (size_t)1 << below(4);
      if (n < width) break;
      uint64_t v = kInteresting[below(sizeof(kInteresting) / sizeof(kInteresting[0]))];
      if (below(2)) v += (uint64_t)below(3) - 1;
      size_t at = below(n - width + 1);
      for (size_t i = 0; i < width; ++i) buf[at + i] = (uint8_t)(v >> (8 * i));
      break;
    }
    case 3: { /* insert random bytes */
      size_t k = 1 + below(8);
      if (n + k > kMaxInput) break;
      size_t at = below(n + 1);
      memmove(buf + at + k, buf + at, n - at);
      for (size_t i = 0; i < k; ++i) buf[at + i] = (uint8_t)next_random();
      *size = n + k;
      break;
    }
    case 4: { /* delete a range */
      if (!n) break;
      size_t at = below(n), k = 1 + below(n - at < 16 ? n - at : 16);
      memmove(buf + at, buf + at + k, n - at - k);
      *size = n - k;
      break;
    }
    case 5: { /* duplicate a chunk elsewhere */
      if (!n) break;
      size_t from = below(n), k = 1 + below(n - from), to = below(n);
      if (to + k > n) k = n - to;
      memmove(buf + to, buf + from, k);
      break;
    }
    case 6: { /* splice the tail of another pool entry */
      const Input* other = &pool[below(pool_size)];
      size_t at = below(n + 1), from = below(other->size + 1), k = other->size - from;
      if (at + k > kMaxInput) k = kMaxInput - at;
      memcpy(buf + at, other->data + from, k);
      *size = at + k;
      break;
    }
    default: /* truncate */
      *size = below(n + 1);
      break;
  }
}

static void dump_input(long long run, const uint8_t* data, size_t size) {
  fprintf(stderr, "fuzz_driver: run %lld input (%zu bytes):", run, size);
  for (size_t i = 0; i < size; ++i) fprintf(stderr, "%s%02x", i % 32 ? "" : "\n  ", data[i]);
  fprintf(stderr, "\n");
}

static void pool_put(Input* pool, size_t slot, const uint8_t* data, size_t size) {
  free(pool[slot].data);
  pool[slot].data = (uint8_t*)malloc(size ? size : 1);
  if (pool[slot].data == NULL) abort();
  memcpy(pool[slot].data, data, size);
  pool[slot].size = size;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s RUNS [SEED]\n", argv[0]);
    return 2;
  }
  long long runs = atoll(argv[1]);
  g_rng = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x9E3779B97F4A7C15ULL;
  if (g_rng == 0) g_rng = 1;
  int verbose = getenv("FUZZ_VERBOSE") != NULL;
  Input pool[kPoolSize];
  memset(pool, 0, sizeof(pool));
  size_t pool_size = 0;
  for (size_t i = 0; i < fuzz_seed_count() && pool_size < kPoolSize; ++i) {
    size_t size = 0;
    const uint8_t* seed = fuzz_seed(i, &size);
    if (size > kMaxInput) size = kMaxInput;
    pool_put(pool, pool_size++, seed, size);
  }
  if (pool_size == 0) pool_put(pool, pool_size++, (const uint8_t*)"", 0);
  static uint8_t buf[kMaxInput];
  clock_t start = clock();
  for (size_t i = 0; i < pool_size; ++i) {
    memcpy(buf, pool[i].data, pool[i].size);
    if (verbose) dump_input(-1, buf, pool[i].size);
    LLVMFuzzerTestOneInput(buf, pool[i].size);
  }
  for (long long run = 0; run < runs; ++run) {
    const Input* parent = &pool[below(pool_size)];
    size_t size = parent->size;
    memcpy(buf, parent->data, size);
    for (size_t k = 1 + below(4); k > 0; --k) mutate_once(buf, &size, pool, pool_size);
    if (verbose) dump_input(run, buf, size);
    /* A private copy of exactly `size` bytes, so ASan sees any read past the input. */
    uint8_t* input = (uint8_t*)malloc(size ? size : 1);
    if (input == NULL) abort();
    memcpy(input, buf, size);
    LLVMFuzzerTestOneInput(input, size);
    free(input);
    /* No coverage feedback: keep some mutants so that depth accumulates across runs. */
    if (below(16) == 0) {
      if (pool_size < kPoolSize) {
        pool_put(pool, pool_size++, buf, size);
      } else {
        pool_put(pool, fuzz_seed_count() + below(kPoolSize - fuzz_seed_count()), buf, size);
      }
    }
  }
  double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
  printf("seeds=%zu mutants=%lld seconds=%.2f execs_per_second=%.0f\n", fuzz_seed_count(), runs,
         seconds, seconds > 0 ? (double)runs / seconds : 0.0);
  for (size_t i = 0; i < pool_size; ++i) free(pool[i].data);
  return 0;
}
