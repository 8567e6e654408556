/*
 * fastcall_args.c -- keyword arguments of the C entry points that take them (from_dlpack,
 * structural_hash / structural_equal, Map.get), bound without building a tuple and a dict:
 * those functions are called per tensor or per lookup, where PyArg_ParseTupleAndKeywords
 * would cost more than the work. Keyword names are matched by content, so callers' strings
 * need not be interned.
 */
#include "fastcall_args.h"

int core_bind_fastcall(const char* fname, const char* const* params, int num_params,
                       int num_required, PyObject* const* args, Py_ssize_t nargs,
                       PyObject* kwnames, PyObject** out) {
  if (nargs > num_params) {
    PyErr_Format(PyExc_TypeError, "%s() takes at most %d positional arguments (%zd given)", fname,
                 num_params, nargs);
    return -1;
  }
  for (int i = 0; i < num_params; ++i) out[i] = i < nargs ? args[i] : NULL;
  Py_ssize_t num_kw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < num_kw; ++k) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, k);
    int index = 0;
    while (index < num_params && PyUnicode_CompareWithASCIIString(key, params[index]) != 0) {
      ++index;
    }
    if (index == num_params) {
      PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname, key);
      return -1;
    }
    if (out[index] != NULL) {
      PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname,
                   params[index]);
      return -1;
    }
    out[index] = args[nargs + k];
  }
  for (int i = 0; i < num_required; ++i) {
    if (out[i] == NULL) {
      PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s' (pos %d)", fname,
                   params[i], i + 1);
      return -1;
    }
  }
  return 0;
}

int core_bind_one_fastcall(const char* fname, const char* param, PyObject* const* args,
                           Py_ssize_t nargs, PyObject* kwnames, PyObject** out) {
  if (CORE_LIKELY(nargs == 1 && kwnames == NULL)) {
    *out = args[0];
    return 0;
  }
  const char* const params[] = {param};
  return core_bind_fastcall(fname, params, 1, 1, args, nargs, kwnames, out);
}
