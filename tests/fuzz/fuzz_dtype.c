/*
 * fuzz_dtype.c -- dtype strings: TVMFFIDataTypeFromString on arbitrary bytes either fails with
 * an error in the slot or yields a dtype whose printed form is a fixed point (printing what it
 * parses to gives the same text) and parses back to the same dtype, except where the printed
 * form drops information by design (spec/ABI.md 5.6): handles print no bits, and lanes 65535
 * (-1 as int16) prints no lanes suffix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

#include "fuzz_harness.h"

static const char* const kSeeds[] = {
    "float32", "int8", "uint1", "bool", "float16x4", "bfloat16", "handle", "void", "",
    "float8_e4m3fn", "float8_e5m2", "float4_e2m1fnx2", "int32xvscalex4", "f32", "i64", "u8",
    "bf16", "custom[mytype]32", "float64x65535", "int", "uint", "float"};

size_t fuzz_seed_count(void) { return sizeof(kSeeds) / sizeof(kSeeds[0]); }

const uint8_t* fuzz_seed(size_t i, size_t* size) {
  *size = strlen(kSeeds[i]);
  return (const uint8_t*)kSeeds[i];
}

static void drop_error(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  FUZZ_ASSERT(err != NULL); /* a failure always says why */
  TVMFFIObjectDecRef(err);
}

static TVMFFIByteArray text_of(const TVMFFIAny* s) {
  if (s->type_index == kTVMFFISmallStr) return TVMFFISmallBytesGetContentByteArray(s);
  FUZZ_ASSERT(s->type_index == kTVMFFIStr);
  return *TVMFFIBytesGetByteArrayPtr(s->v_obj);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  TVMFFIByteArray text = {(const char*)data, size};
  DLDataType dtype;
  if (TVMFFIDataTypeFromString(&text, &dtype) != 0) {
    drop_error();
    return 0;
  }
  TVMFFIAny printed = {0};
  if (TVMFFIDataTypeToString(&dtype, &printed) != 0) {
    drop_error(); /* e.g. a custom code whose name lookup is not registered */
    return 0;
  }
  TVMFFIByteArray round = text_of(&printed);
  DLDataType again;
  FUZZ_ASSERT(TVMFFIDataTypeFromString(&round, &again) == 0);
  int lossy = dtype.code == kDLOpaqueHandle || dtype.lanes == 0xFFFF;
  if (!lossy) {
    FUZZ_ASSERT(again.code == dtype.code && again.bits == dtype.bits && again.lanes == dtype.lanes);
  }
  TVMFFIAny reprinted = {0};
  FUZZ_ASSERT(TVMFFIDataTypeToString(&again, &reprinted) == 0);
  TVMFFIByteArray second = text_of(&reprinted);
  FUZZ_ASSERT(second.size == round.size && memcmp(second.data, round.data, round.size) == 0);
  if (printed.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(printed.v_obj);
  if (reprinted.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(reprinted.v_obj);
  return 0;
}
