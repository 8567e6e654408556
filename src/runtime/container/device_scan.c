/*
 * container/device_scan.c -- ffi.ContainerFindFirstNonCPUDevice(value) -> Device.
 *
 * A frontend that passes a container of framework tensors to a kernel must make the kernel's
 * stream the framework's current stream on the tensors' device, as it does for a tensor
 * argument. This global finds that device in one native walk: the first tensor (or DLTensor*)
 * not on the CPU, in order, through Arrays and Lists (elements) and Maps and Dicts (values, in
 * insertion order), nested up to a thousand levels. The answer is (kDLCPU, 0) when there is none.
 *
 * Lists and Dicts are mutable, so a container may hold itself: each container is walked once
 * (a visited set), which also keeps shared sub-containers from being walked twice.
 */
#include "../internal.h"
#include "container_internal.h"

#include <stdlib.h>

/* An open-addressed set of container addresses (NULL: empty slot), kept at most half full. */
typedef struct {
  TVMFFIObject** slots;
  uint64_t capacity; /* a power of two */
  uint64_t size;
  TVMFFIObject* inline_slots[32];
} VisitedSet;

static uint64_t slot_of(const TVMFFIObject* obj, uint64_t capacity) {
  return (((uintptr_t)obj >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 17) & (capacity - 1);
}

static void insert_slot(TVMFFIObject** slots, uint64_t capacity, TVMFFIObject* obj) {
  uint64_t i = slot_of(obj, capacity);
  while (slots[i] != NULL) i = (i + 1) & (capacity - 1);
  slots[i] = obj;
}

/* 1: newly added, 0: seen before, -1: out of memory. */
static int visit(VisitedSet* seen, TVMFFIObject* obj) {
  for (uint64_t i = slot_of(obj, seen->capacity); seen->slots[i] != NULL;
       i = (i + 1) & (seen->capacity - 1)) {
    if (seen->slots[i] == obj) return 0;
  }
  if (2 * (seen->size + 1) > seen->capacity) {
    uint64_t capacity = seen->capacity * 2;
    TVMFFIObject** grown = (TVMFFIObject**)calloc(capacity, sizeof(TVMFFIObject*));
    if (grown == NULL) return -1;
    for (uint64_t i = 0; i < seen->capacity; ++i) {
      if (seen->slots[i] != NULL) insert_slot(grown, capacity, seen->slots[i]);
    }
    if (seen->slots != seen->inline_slots) free(seen->slots);
    seen->slots = grown;
    seen->capacity = capacity;
  }
  insert_slot(seen->slots, seen->capacity, obj);
  ++seen->size;
  return 1;
}

enum { kMaxDepth = 1000 }; /* nesting levels walked before RecursionError (a C stack bound) */

/* 1: found (stored in *out), 0: none here, -1: error raised. */
static int scan(const TVMFFIAny* value, VisitedSet* seen, int depth, DLDevice* out) {
  const DLTensor* tensor = NULL;
  if (value->type_index == kTVMFFIDLTensorPtr) {
    tensor = (const DLTensor*)value->v_ptr;
  } else if (value->type_index == kTVMFFITensor) {
    tensor = TVMFFITensorGetDLTensorPtr(value->v_obj);
  }
  if (tensor != NULL) {
    if (tensor->device.device_type == kDLCPU) return 0;
    *out = tensor->device;
    return 1;
  }
  int32_t index = value->type_index;
  bool sequence = index == kTVMFFIArray || index == kTVMFFIList;
  bool mapping = index == kTVMFFIMap || index == kTVMFFIDict;
  if (!sequence && !mapping) return 0;
  if (depth >= kMaxDepth) {
    return ffi_raise("RecursionError",
                     "ffi.ContainerFindFirstNonCPUDevice: containers nested deeper than %d levels",
                     (int)kMaxDepth);
  }
  int fresh = visit(seen, value->v_obj);
  if (fresh < 0) return ffi_raise("MemoryError", "ffi.ContainerFindFirstNonCPUDevice: out of memory");
  if (fresh == 0) return 0;
  if (sequence) {
    const TVMFFISeqCell* cell = ffi_seq_cell(value->v_obj);
    const TVMFFIAny* items = (const TVMFFIAny*)cell->data;
    for (int64_t i = 0; i < cell->size; ++i) {
      int rc = scan(&items[i], seen, depth + 1, out);
      if (rc != 0) return rc;
    }
    return 0;
  }
  uint64_t cursor = 0;
  TVMFFIAny* key;
  TVMFFIAny* item;
  while (ffi_map_next(value->v_obj, &cursor, &key, &item)) {
    int rc = scan(item, seen, depth + 1, out);
    if (rc != 0) return rc;
  }
  return 0;
}

static int global_find_first_non_cpu_device(void* self, const TVMFFIAny* args, int32_t num_args,
                                            TVMFFIAny* result) {
  (void)self;
  if (ffi_check_num_args("ffi.ContainerFindFirstNonCPUDevice", num_args, 1) != 0) return -1;
  VisitedSet seen = {NULL, 32, 0, {NULL}};
  seen.slots = seen.inline_slots;
  DLDevice device = {kDLCPU, 0};
  int rc = scan(&args[0], &seen, 0, &device);
  if (seen.slots != seen.inline_slots) free(seen.slots);
  if (rc < 0) return -1;
  result->type_index = kTVMFFIDevice;
  result->zero_padding = 0;
  result->v_int64 = 0;
  result->v_device = device;
  return 0;
}

void ffi_register_device_scan_globals(void) {
  ffi_register_builtin("ffi.ContainerFindFirstNonCPUDevice", global_find_first_non_cpu_device);
}
