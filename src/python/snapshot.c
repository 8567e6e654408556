/*
 * snapshot.c -- values of a list or dict held for as long as a conversion runs.
 */
#include "snapshot.h"

static int snapshot_reserve(CoreSnapshot* s, Py_ssize_t n) {
  s->size = 0;
  s->items = s->stack;
  if (n <= CORE_SNAPSHOT_STACK) return 0;
  s->items = (PyObject**)PyMem_Malloc((size_t)n * sizeof(PyObject*));
  if (s->items != NULL) return 0;
  s->items = s->stack;
  PyErr_NoMemory();
  return -1;
}

int core_snapshot_of_array(CoreSnapshot* s, PyObject* const* items, Py_ssize_t n) {
  if (snapshot_reserve(s, n) != 0) return -1;
  for (Py_ssize_t i = 0; i < n; ++i) {
    Py_INCREF(items[i]);
    s->items[i] = items[i];
  }
  s->size = n;
  return 0;
}

int core_snapshot_of_dict(CoreSnapshot* s, PyObject* dict) {
  if (snapshot_reserve(s, 2 * PyDict_GET_SIZE(dict)) != 0) return -1;
  Py_ssize_t pos = 0;
  PyObject *k, *v;
  /* No Python code runs in this loop, so the dict cannot change size under it. */
  while (PyDict_Next(dict, &pos, &k, &v)) {
    Py_INCREF(k);
    Py_INCREF(v);
    s->items[s->size++] = k;
    s->items[s->size++] = v;
  }
  return 0;
}

void core_snapshot_release(CoreSnapshot* s) {
  for (Py_ssize_t i = 0; i < s->size; ++i) Py_DECREF(s->items[i]);
  if (s->items != s->stack) PyMem_Free(s->items);
  s->items = s->stack;
  s->size = 0;
}
