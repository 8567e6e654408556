/*
 * map_walk.c -- reading a Map/Dict's entries in order without a runtime call per entry.
 *
 * The map layout is part of the ABI (the reference's C++ headers read and write it inline), so
 * the extension walks it as it walks an Array's cell, through the runtime's own description of
 * it (map_layout.h): a small map is an array of (key, value) pairs, a dense one threads its
 * entries into an insertion-ordered list through its slots.
 *
 * Converting an entry runs no Python code, so the map cannot change while one walk runs; loops
 * iterate a list taken in one walk and check the size between steps (map_iter_next).
 */
#include "map_walk.h"

#include "../runtime/container/map_layout.h"
#include "container.h"

Py_ssize_t core_map_size(TVMFFIObjectHandle h) { return (Py_ssize_t)((const MapObject*)h)->size; }

/* One entry as `what` asks, or NULL with exception. */
static PyObject* entry_to_py(PyObject* map, const TVMFFIAny* key, const TVMFFIAny* value,
                             CoreMapWalk what) {
  if (what == kMapWalkKeys) return core_container_element_to_py(map, key);
  if (what == kMapWalkValues) return core_container_element_to_py(map, value);
  PyObject* py_key = core_container_element_to_py(map, key);
  if (py_key == NULL) return NULL;
  PyObject* py_value = core_container_element_to_py(map, value);
  if (py_value == NULL) {
    Py_DECREF(py_key);
    return NULL;
  }
  PyObject* pair = PyTuple_New(2);
  if (pair == NULL) {
    Py_DECREF(py_key);
    Py_DECREF(py_value);
    return NULL;
  }
  PyTuple_SET_ITEM(pair, 0, py_key);
  PyTuple_SET_ITEM(pair, 1, py_value);
  return pair;
}

PyObject* core_map_entry_list(PyObject* map, CoreMapWalk what) {
  const MapObject* m = (const MapObject*)((CoreObject*)map)->chandle;
  PyObject* list = PyList_New((Py_ssize_t)m->size);
  if (list == NULL) return NULL;
  Py_ssize_t n = 0;
  if (m->slots & MAP_SMALL_TAG) {
    const MapPair* pairs = (const MapPair*)m->data;
    for (; n < (Py_ssize_t)m->size; ++n) {
      PyObject* entry = entry_to_py(map, &pairs[n].key, &pairs[n].value, what);
      if (entry == NULL) goto fail;
      PyList_SET_ITEM(list, n, entry);
    }
  } else {
    const MapBlock* blocks = (const MapBlock*)m->data;
    for (uint64_t i = m->iter_head; i != UINT64_MAX && n < (Py_ssize_t)m->size; ++n) {
      const MapItem* item = &blocks[i / MAP_BLOCK_SLOTS].items[i % MAP_BLOCK_SLOTS];
      PyObject* entry = entry_to_py(map, &item->key, &item->value, what);
      if (entry == NULL) goto fail;
      PyList_SET_ITEM(list, n, entry);
      i = item->next;
    }
  }
  if (n != (Py_ssize_t)m->size) { /* a dense list shorter than size_: a corrupt map */
    PyErr_Format(PyExc_RuntimeError, "%s: its entry list holds %zd of %zd entries",
                 Py_TYPE(map)->tp_name, n, (Py_ssize_t)m->size);
    goto fail;
  }
  return list;
fail:
  /* PyList_New filled the slots not yet set with NULL, which list dealloc skips. */
  Py_DECREF(list);
  return NULL;
}

typedef struct {
  PyObject_HEAD
  PyObject* map;     /* NULL once exhausted */
  PyObject* entries; /* the list taken when the loop started */
  Py_ssize_t pos;
} MapIter;

static void map_iter_dealloc(PyObject* self) {
  MapIter* it = (MapIter*)self;
  Py_XDECREF(it->map);
  Py_XDECREF(it->entries);
  PyObject_Free(self);
}

static PyObject* map_iter_next(PyObject* self) {
  MapIter* it = (MapIter*)self;
  if (it->map == NULL) return NULL;
  /* Checked before every step after the first and once more at the end, so an entry added
   * behind the last one fails the loop as well. */
  Py_ssize_t size = PyList_GET_SIZE(it->entries);
  if (it->pos > 0 && core_map_size(((CoreObject*)it->map)->chandle) != size) {
    PyErr_Format(PyExc_RuntimeError, "%s changed size during iteration", Py_TYPE(it->map)->tp_name);
    Py_CLEAR(it->map);
    return NULL;
  }
  if (it->pos >= size) {
    Py_CLEAR(it->map);
    return NULL;
  }
  PyObject* entry = PyList_GET_ITEM(it->entries, it->pos++);
  Py_INCREF(entry);
  return entry;
}

static PyTypeObject MapIter_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core._MapIterator",
    .tp_basicsize = sizeof(MapIter),
    .tp_dealloc = map_iter_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = map_iter_next,
};

PyObject* core_map_iter(PyObject* map, CoreMapWalk what) {
  PyObject* entries = core_map_entry_list(map, what);
  if (entries == NULL) return NULL;
  MapIter* it = PyObject_New(MapIter, &MapIter_Type);
  if (it == NULL) {
    Py_DECREF(entries);
    return NULL;
  }
  Py_INCREF(map);
  it->map = map;
  it->entries = entries;
  it->pos = 0;
  return (PyObject*)it;
}

int core_map_walk_init(void) { return PyType_Ready(&MapIter_Type); }
