/*
 * bigint.h -- Python ints beyond int64 <-> ffi.BigInt (bigint.c).
 */
#ifndef TVM_FFI_PYTHON_BIGINT_H_
#define TVM_FFI_PYTHON_BIGINT_H_

#include "base.h"

/* An owned ffi.BigInt Any for the int `value`: 0; -1 with exception. *bits receives the
 * int's bit length (for messages). A runtime refusal leaves its error in the FFI slot and
 * returns 1 with no Python exception set. */
int core_bigint_from_int(PyObject* value, TVMFFIAny* owned, size_t* bits);
/* The Python int of a BigInt's two's complement words. */
PyObject* core_int_from_bigint_words(const char* data, size_t size);

#endif /* TVM_FFI_PYTHON_BIGINT_H_ */
