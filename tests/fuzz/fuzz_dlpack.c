/*
 * fuzz_dlpack.c -- DLPack import: a DLManagedTensor(Versioned) built from arbitrary bytes (ndim,
 * shape, strides, dtype, device, byte offset, flags, alignment and contiguity requests) given to
 * TVMFFITensorFromDLPack(Versioned), as a capsule's content reaches it. Either the import fails,
 * leaving the producer's tensor with the producer (deleter not called), or the tensor describes
 * exactly what was given and the producer's deleter runs exactly once when it dies, also after a
 * re-export through TVMFFITensorToDLPackVersioned.
 *
 * Shape and strides are malloc'ed with exactly ndim elements, so any read past them is an
 * AddressSanitizer report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

#include "fuzz_harness.h"

typedef struct {
  const uint8_t* data;
  size_t size;
  size_t pos;
} Cursor;

/* The next n bytes as a little-endian integer; missing bytes read as zero. */
static uint64_t take(Cursor* c, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) {
    uint64_t b = c->pos < c->size ? c->data[c->pos] : 0;
    c->pos++;
    v |= b << (8 * i);
  }
  return v;
}

static int g_deleted = 0;
static void legacy_deleter(DLManagedTensor* self) { (void)self; g_deleted++; }
static void versioned_deleter(DLManagedTensorVersioned* self) { (void)self; g_deleted++; }

static _Alignas(64) uint8_t g_buffer[256];

/* Seeds: option bits, ndim, dtype (code, bits, lanes x2), device (type, id), byte_offset x8,
 * then shape and strides words. */
static const uint8_t kSeed2d[] = {0x05, 2, 2, 32, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                  3, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0,
                                  4, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
static const uint8_t kSeedScalar[] = {0x01, 0, 0, 8, 1, 0, 1, 0, 4, 0, 0, 0, 0, 0, 0, 0};
static const uint8_t kSeedStrided[] = {0x08, 1, 0, 16, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                       5, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0};
static const struct {
  const uint8_t* data;
  size_t size;
} kSeeds[] = {{kSeed2d, sizeof(kSeed2d)}, {kSeedScalar, sizeof(kSeedScalar)},
              {kSeedStrided, sizeof(kSeedStrided)}};

size_t fuzz_seed_count(void) { return sizeof(kSeeds) / sizeof(kSeeds[0]); }

const uint8_t* fuzz_seed(size_t i, size_t* size) {
  *size = kSeeds[i].size;
  return kSeeds[i].data;
}

static void drop_error(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  FUZZ_ASSERT(err != NULL);
  TVMFFIObjectDecRef(err);
}

/* The imported tensor describes what the producer gave, with strides always present. */
static void check_tensor(TVMFFIObjectHandle tensor, const DLTensor* given) {
  const DLTensor* t = TVMFFITensorGetDLTensorPtr(tensor);
  FUZZ_ASSERT(t->ndim == given->ndim && t->data == given->data);
  FUZZ_ASSERT(t->byte_offset == given->byte_offset);
  FUZZ_ASSERT(t->dtype.code == given->dtype.code && t->dtype.bits == given->dtype.bits &&
              t->dtype.lanes == given->dtype.lanes && t->dtype.lanes != 0);
  FUZZ_ASSERT(t->ndim == 0 || t->strides != NULL);
  for (int32_t i = 0; i < t->ndim; ++i) {
    FUZZ_ASSERT(t->shape[i] == given->shape[i] && t->shape[i] >= 0);
    if (given->strides != NULL) FUZZ_ASSERT(t->strides[i] == given->strides[i]);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Cursor c = {data, size, 0};
  uint8_t options = (uint8_t)take(&c, 1);
  int versioned = options & 1, null_shape = options & 2, with_strides = options & 4;
  int contiguous = (options >> 3) & 1;
  static const int32_t kAlignments[] = {0, 1, 16, 64};
  int32_t alignment = kAlignments[(options >> 4) & 3];
  uint64_t flags = (options & 0x40 ? DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED : 0) |
                   (options & 0x80 ? DLPACK_FLAG_BITMASK_READ_ONLY : 0);
  int32_t ndim = (int8_t)take(&c, 1);
  int32_t extents = ndim < 0 ? 0 : ndim > 16 ? 16 : ndim;
  if (ndim > 16) ndim = 16; /* a producer's ndim always matches its arrays */
  DLTensor given;
  memset(&given, 0, sizeof(given));
  given.ndim = ndim;
  given.dtype.code = (uint8_t)take(&c, 1);
  given.dtype.bits = (uint8_t)take(&c, 1);
  given.dtype.lanes = (uint16_t)take(&c, 2);
  given.device.device_type = (DLDeviceType)(take(&c, 1) % 20);
  given.device.device_id = (int32_t)(int8_t)take(&c, 1);
  given.byte_offset = take(&c, 8);
  given.data = g_buffer;
  int64_t* shape = (int64_t*)malloc(extents ? (size_t)extents * sizeof(int64_t) : 1);
  int64_t* strides = (int64_t*)malloc(extents ? (size_t)extents * sizeof(int64_t) : 1);
  FUZZ_ASSERT(shape != NULL && strides != NULL);
  for (int32_t i = 0; i < extents; ++i) shape[i] = (int64_t)take(&c, 8);
  for (int32_t i = 0; i < extents; ++i) strides[i] = (int64_t)take(&c, 8);
  given.shape = null_shape ? NULL : shape;
  given.strides = with_strides ? strides : NULL;

  DLManagedTensor legacy;
  DLManagedTensorVersioned mtv;
  memset(&legacy, 0, sizeof(legacy));
  memset(&mtv, 0, sizeof(mtv));
  legacy.dl_tensor = given;
  legacy.deleter = legacy_deleter;
  mtv.version.major = 1;
  mtv.dl_tensor = given;
  mtv.flags = flags;
  mtv.deleter = versioned_deleter;
  g_deleted = 0;
  TVMFFIObjectHandle tensor = NULL;
  int rc = versioned ? TVMFFITensorFromDLPackVersioned(&mtv, alignment, contiguous, &tensor)
                     : TVMFFITensorFromDLPack(&legacy, alignment, contiguous, &tensor);
  if (rc != 0) {
    drop_error();
    FUZZ_ASSERT(g_deleted == 0 && tensor == NULL);
  } else {
    check_tensor(tensor, &given);
    DLManagedTensorVersioned* exported = NULL;
    FUZZ_ASSERT(TVMFFITensorToDLPackVersioned(tensor, &exported) == 0 && exported != NULL);
    TVMFFIObjectDecRef(tensor);
    FUZZ_ASSERT(g_deleted == 0); /* the export still holds the tensor */
    exported->deleter(exported);
    FUZZ_ASSERT(g_deleted == 1);
  }
  free(shape);
  free(strides);
  return 0;
}
