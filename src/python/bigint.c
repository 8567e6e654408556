/*
 * bigint.c -- Python ints beyond int64 <-> ffi.BigInt content: two's complement 64-bit words,
 * least significant word first, each word in native byte order. Python's int.to_bytes and
 * int.from_bytes speak little-endian bytes, so a big-endian host swaps each word.
 */
#include "bigint.h"

static void words_to_little_endian(char* data, size_t size) {
#if PY_BIG_ENDIAN
  for (size_t w = 0; w + 8 <= size; w += 8) {
    for (int i = 0; i < 4; ++i) {
      char c = data[w + i];
      data[w + i] = data[w + 7 - i];
      data[w + 7 - i] = c;
    }
  }
#else
  (void)data;
  (void)size;
#endif
}

static PyObject* signed_kwargs(void) {
  PyObject* kwargs = PyDict_New();
  if (kwargs != NULL && PyDict_SetItemString(kwargs, "signed", Py_True) != 0) Py_CLEAR(kwargs);
  return kwargs;
}

static PyObject* int_to_bytes(PyObject* value, size_t nbytes) {
  PyObject* method = PyObject_GetAttrString(value, "to_bytes");
  if (method == NULL) return NULL;
  PyObject* args = Py_BuildValue("(ns)", (Py_ssize_t)nbytes, "little");
  PyObject* kwargs = signed_kwargs();
  PyObject* out = (args != NULL && kwargs != NULL) ? PyObject_Call(method, args, kwargs) : NULL;
  Py_XDECREF(args);
  Py_XDECREF(kwargs);
  Py_DECREF(method);
  return out;
}

int core_bigint_from_int(PyObject* value, TVMFFIAny* owned, size_t* bits) {
  PyObject* bits_obj = PyObject_CallMethod(value, "bit_length", NULL);
  if (bits_obj == NULL) return -1;
  *bits = PyLong_AsSize_t(bits_obj);
  Py_DECREF(bits_obj);
  if (*bits == (size_t)-1 && PyErr_Occurred()) return -1;
  size_t nbytes = (*bits / 64 + 1) * 8; /* +1 bit for the sign, whole words */
  PyObject* raw = int_to_bytes(value, nbytes);
  if (raw == NULL) return -1;
  char* data = PyBytes_AS_STRING(raw);
  words_to_little_endian(data, nbytes); /* the same swap both ways */
  TVMFFIByteArray words = {data, nbytes};
  int rc = TVMFFIBigIntFromByteArray(&words, owned);
  Py_DECREF(raw);
  return rc != 0 ? 1 : 0;
}

PyObject* core_int_from_bigint_words(const char* data, size_t size) {
  PyObject* raw = PyBytes_FromStringAndSize(data, (Py_ssize_t)size);
  if (raw == NULL) return NULL;
  words_to_little_endian(PyBytes_AS_STRING(raw), size);
  PyObject* method = PyObject_GetAttrString((PyObject*)&PyLong_Type, "from_bytes");
  PyObject* args = Py_BuildValue("(Ns)", raw, "little");
  PyObject* kwargs = signed_kwargs();
  PyObject* out = (method != NULL && args != NULL && kwargs != NULL)
                      ? PyObject_Call(method, args, kwargs)
                      : NULL;
  Py_XDECREF(method);
  Py_XDECREF(args);
  Py_XDECREF(kwargs);
  return out;
}
