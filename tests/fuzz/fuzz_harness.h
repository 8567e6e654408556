/*
 * fuzz_harness.h -- what every fuzz harness provides: the libFuzzer entry point and its seeds.
 */
#ifndef TVM_FFI_TESTS_FUZZ_HARNESS_H_
#define TVM_FFI_TESTS_FUZZ_HARNESS_H_

#include <stddef.h>
#include <stdint.h>

/* Runs one input; must return 0 and must not leak, crash or abort on any input. */
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/* Valid inputs the driver starts from (the pool is seeded with these, then mutated). */
size_t fuzz_seed_count(void);
const uint8_t* fuzz_seed(size_t i, size_t* size);

/* A broken invariant: abort() with a message, which the driver reports with the input. */
#define FUZZ_ASSERT(cond)                                                               \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n", __FILE__, __LINE__, #cond); \
      abort();                                                                          \
    }                                                                                   \
  } while (0)

#endif /* TVM_FFI_TESTS_FUZZ_HARNESS_H_ */
