/*
 * fuzz_library_bin.c -- the `__tvm_ffi__library_bin` parser (src/runtime/module_library_bin.c)
 * on arbitrary bytes. It is an internal function, so this harness is linked with the runtime's
 * sources rather than with libtvm_ffi.so. Either parsing fails with an error in the slot, or the
 * description is valid: the import tree's ranges and child indices are in bounds, at most one
 * node is the host library, and every kind and blob views bytes inside the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_harness.h"
#include "module_library_bin.h"

/* A description of two modules: node 0 is the host library ("_lib") importing node 1, a
 * "test" module with a 3-byte blob. Integers are little-endian u64. */
#define U64(v) (v), 0, 0, 0, 0, 0, 0, 0
static const uint8_t kSeedTwoModules[] = {
    U64(97),                               /* payload bytes */
    U64(3), U64(0), U64(1), U64(1),        /* indptr [0, 1, 1] */
    U64(1), U64(1),                        /* children [1] */
    U64(4), '_', 'l', 'i', 'b',            /* node 0: kind "_lib" */
    U64(4), 't', 'e', 's', 't',            /* node 1: kind "test" */
    U64(3), 'a', 'b', 'c'};                /* node 1: blob "abc" */
static const uint8_t kSeedOneModule[] = {
    U64(44), U64(2), U64(0), U64(0), U64(0), U64(4), '_', 'l', 'i', 'b'};

static const struct {
  const uint8_t* data;
  size_t size;
} kSeeds[] = {{kSeedTwoModules, sizeof(kSeedTwoModules)}, {kSeedOneModule, sizeof(kSeedOneModule)}};

size_t fuzz_seed_count(void) { return sizeof(kSeeds) / sizeof(kSeeds[0]); }

const uint8_t* fuzz_seed(size_t i, size_t* size) {
  *size = kSeeds[i].size;
  return kSeeds[i].data;
}

static int inside(const TVMFFIByteArray* view, const uint8_t* data, size_t size) {
  if (view->size == 0) return 1;
  const uint8_t* p = (const uint8_t*)view->data;
  return p >= data && p <= data + size && view->size <= (size_t)(data + size - p);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FfiLibraryBin bin;
  if (ffi_library_bin_parse(data, size, "fuzz input", &bin) != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    FUZZ_ASSERT(err != NULL);
    TVMFFIObjectDecRef(err);
    FUZZ_ASSERT(bin.indptr == NULL && bin.children == NULL && bin.nodes == NULL);
    return 0;
  }
  FUZZ_ASSERT(bin.num_modules >= 1);
  uint64_t num_children = bin.indptr[bin.num_modules];
  int libs = 0;
  for (uint64_t i = 0; i < bin.num_modules; ++i) {
    FUZZ_ASSERT(bin.indptr[i] <= bin.indptr[i + 1] && bin.indptr[i + 1] <= num_children);
    for (uint64_t j = bin.indptr[i]; j < bin.indptr[i + 1]; ++j) {
      FUZZ_ASSERT(bin.children[j] < bin.num_modules);
    }
    const FfiLibraryBinNode* node = &bin.nodes[i];
    FUZZ_ASSERT(inside(&node->kind, data, size) && inside(&node->blob, data, size));
    libs += node->is_lib != 0;
    if (node->is_lib) FUZZ_ASSERT(node->blob.size == 0);
  }
  FUZZ_ASSERT(libs <= 1);
  ffi_library_bin_free(&bin);
  return 0;
}
