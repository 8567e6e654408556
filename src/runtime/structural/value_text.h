/*
 * structural/value_text.h -- printed forms of leaf values (ReprPrint rules of spec
 * STRUCTURAL.md section 2.2), appended to a buffer. Each returns 0, or -1 after raising.
 */
#ifndef TVM_FFI_RUNTIME_STRUCTURAL_VALUE_TEXT_H_
#define TVM_FFI_RUNTIME_STRUCTURAL_VALUE_TEXT_H_

#include "graph_util.h"

int ffi_text_device(FfiBuf* b, DLDevice dev);
int ffi_text_dtype(FfiBuf* b, DLDataType dtype);
/* Python-like double-quoted string. */
int ffi_text_str(FfiBuf* b, const char* data, size_t size);
/* b"..." with every byte outside printable ASCII (and `"`, `\`) as \xNN. */
int ffi_text_bytes(FfiBuf* b, const char* data, size_t size);
/* Decimal text of an int or BigInt value. */
int ffi_text_bigint(FfiBuf* b, const TVMFFIAny* value);
int ffi_text_shape_dims(FfiBuf* b, const int64_t* dims, size_t n);
int ffi_text_tensor(FfiBuf* b, TVMFFIObject* tensor);
/* True for values printed without looking at other values (POD, strings, shapes, tensors). */
bool ffi_text_is_leaf(const TVMFFIAny* v);
/* The text of a leaf value (any kind: an unknown one prints as its type key). */
int ffi_text_leaf(FfiBuf* b, const TVMFFIAny* v);

#endif /* TVM_FFI_RUNTIME_STRUCTURAL_VALUE_TEXT_H_ */
