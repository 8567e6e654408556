/*
 * container_map.c -- C fast paths of MapBase, the base of Map and Dict
 * (python/tvm_ffi/container.py): m[k], m.get(k) and `k in m` through cached handles of the
 * ffi.Map* / ffi.Dict* globals, len() and iteration from the map's memory (map_walk.c), and
 * construction from a mapping or (key, value) pairs. The common base and the constructor call are container.c's.
 */
#include "container_map.h"

#include "call.h"
#include "container.h"
#include "container_content.h"
#include "error.h"
#include "fastcall_args.h"
#include "globals.h"
#include "map_walk.h"
#include "snapshot.h"

static PyTypeObject MapBase_Type;

/* Raised for Map(x)/Dict(x) when x is neither a mapping nor an iterable of pairs: both an
 * AttributeError (what the reference raises, from calling x.items()) and a TypeError. */
static PyObject* g_not_a_mapping = NULL;
static PyObject* g_str_none_is_empty = NULL; /* "_none_is_empty": a class attribute of Dict */

/* Appends key and value of each pair of `pairs` (an iterable) to the list `flat`. */
static int flatten_pairs(PyObject* pairs, PyObject* flat) {
  PyObject* iter = PyObject_GetIter(pairs);
  if (iter == NULL) {
    if (!PyErr_ExceptionMatches(PyExc_TypeError)) return -1;
    PyErr_Clear();
    PyErr_Format(g_not_a_mapping,
                 "expected a mapping or an iterable of (key, value) pairs, got `%s`",
                 Py_TYPE(pairs)->tp_name);
    return -1;
  }
  PyObject* pair;
  Py_ssize_t position = 0;
  while ((pair = PyIter_Next(iter)) != NULL) {
    PyObject* fast = PySequence_Fast(pair, "");
    int ok = fast != NULL && PySequence_Fast_GET_SIZE(fast) == 2;
    if (!ok) {
      PyErr_Clear();
      PyErr_Format(g_not_a_mapping,
                   "mapping items must be (key, value) pairs, item #%zd is `%s`", position,
                   Py_TYPE(pair)->tp_name);
    } else {
      ok = PyList_Append(flat, PySequence_Fast_GET_ITEM(fast, 0)) == 0 &&
           PyList_Append(flat, PySequence_Fast_GET_ITEM(fast, 1)) == 0;
    }
    Py_XDECREF(fast);
    Py_DECREF(pair);
    if (!ok) {
      Py_DECREF(iter);
      return -1;
    }
    ++position;
  }
  Py_DECREF(iter);
  return PyErr_Occurred() ? -1 : 0;
}

/* Map(items=()) / Dict(items=()): a mapping or an iterable of (key, value) pairs. */
static int map_init(PyObject* self, PyObject* args, PyObject* kwargs) {
  PyObject* items;
  if (core_container_parse_items(args, kwargs, "|O:__init__", "input_dict", &items) != 0) return -1;
  if (items == NULL) return core_container_construct_from(self, NULL, 0);
  if (items == Py_None) {
    /* Dict(None) is empty, as the reference's `input_dict=None` default; Map(None) refuses. */
    PyObject* none_is_empty = _PyType_Lookup(Py_TYPE(self), g_str_none_is_empty);
    if (none_is_empty != NULL && PyObject_IsTrue(none_is_empty) == 1) {
      return core_container_construct_from(self, NULL, 0);
    }
  }
  if (PyDict_CheckExact(items)) {
    CoreSnapshot flat;
    if (core_snapshot_of_dict(&flat, items) != 0) return -1;
    int rc = core_container_construct_from(self, flat.items, flat.size);
    core_snapshot_release(&flat);
    return rc;
  }
  PyObject* flat = PyList_New(0);
  if (flat == NULL) return -1;
  /* A mapping contributes its items(); anything else must iterate (key, value) pairs. */
  PyObject* pairs = PyObject_HasAttrString(items, "keys")
                        ? PyObject_CallMethod(items, "items", NULL)
                        : (Py_INCREF(items), items);
  int rc = pairs != NULL ? flatten_pairs(pairs, flat) : -1;
  Py_XDECREF(pairs);
  if (rc == 0) {
    rc = core_container_construct_from(self, &PyList_GET_ITEM(flat, 0), PyList_GET_SIZE(flat));
  }
  Py_DECREF(flat);
  return rc;
}

/* The runtime's functions of each kind; a Dict's are kDictFirst places after the Map's. */
enum {
  kMapGetItemOrMissing, kMapCount,
  kDictFirst, kDictGetItemOrMissing = kDictFirst, kDictCount,
  kNumMapFuncs
};
static const char* const map_func_names[kNumMapFuncs] = {
    "ffi.MapGetItemOrMissing", "ffi.MapCount", "ffi.DictGetItemOrMissing", "ffi.DictCount"};
/* Looked up on first use and kept for the life of the process. */
static TVMFFIObjectHandle map_funcs[kNumMapFuncs];

static TVMFFIObjectHandle map_func(int which) {
  if (CORE_LIKELY(map_funcs[which] != NULL)) return map_funcs[which];
  TVMFFIObjectHandle h = NULL;
  if (core_get_global_handle(map_func_names[which], &h) != 0) return NULL;
  if (h == NULL) {
    PyErr_Format(PyExc_RuntimeError, "the runtime has no global function %s",
                 map_func_names[which]);
    return NULL;
  }
  map_funcs[which] = h;
  return h;
}

/* 0 for Map, kDictFirst for Dict (offset into map_funcs), -1 with exception otherwise. */
static int map_kind(PyObject* self) {
  TVMFFIObjectHandle h = ((CoreObject*)self)->chandle;
  if (CORE_UNLIKELY(h == NULL)) {
    PyErr_Format(PyExc_ValueError, "%s object has no FFI handle", Py_TYPE(self)->tp_name);
    return -1;
  }
  int32_t index = TVMFFIObjectGetTypeIndex(h);
  if (index == kTVMFFIMap) return 0;
  if (index == kTVMFFIDict) return kDictFirst;
  PyErr_Format(PyExc_TypeError, "%s handle is not an ffi.Map or ffi.Dict (type index %d)",
               Py_TYPE(self)->tp_name, (int)index);
  return -1;
}

static Py_ssize_t map_length(PyObject* self) {
  if (map_kind(self) < 0) return -1;
  return core_map_size(((CoreObject*)self)->chandle);
}

/* The runtime's MISSING sentinel (ffi.GetInvalidObject), the answer of ffi.*GetItemOrMissing for
 * an absent key: a process-lifetime singleton, fetched once. */
static TVMFFIObjectHandle g_missing = NULL;

static int missing_handle(TVMFFIObjectHandle* out) {
  if (CORE_UNLIKELY(g_missing == NULL)) {
    TVMFFIObjectHandle f = NULL;
    if (core_get_global_handle("ffi.GetInvalidObject", &f) != 0) return -1;
    if (f == NULL) {
      PyErr_SetString(PyExc_RuntimeError,
                      "the runtime has no global function ffi.GetInvalidObject");
      return -1;
    }
    TVMFFIAny sentinel = {0};
    if (TVMFFIFunctionCall(f, NULL, 0, &sentinel) != 0) {
      core_raise_from_rc(-1);
      return -1;
    }
    g_missing = sentinel.v_obj; /* the reference is kept: the sentinel outlives us anyway */
  }
  *out = g_missing;
  return 0;
}

/* Looks `key` up by one call: 1 with the owned value in *out, 0 when absent, -1 with exception.
 * An absent key costs no runtime error (a KeyError raised through the FFI records a backtrace:
 * ~8 us for a miss of m.get or m[k]). */
static int map_lookup(PyObject* self, PyObject* key, TVMFFIAny* out) {
  int kind = map_kind(self);
  if (kind < 0) return -1;
  TVMFFIObjectHandle f = map_func(kMapGetItemOrMissing + kind);
  TVMFFIObjectHandle missing = NULL;
  if (f == NULL || missing_handle(&missing) != 0) return -1;
  PyObject* args[2] = {self, key};
  CoreFramework fw;
  memset(out, 0, sizeof(*out));
  if (core_call(f, args, 2, NULL, out, &fw) != 0) return -1;
  if (out->type_index >= kTVMFFIStaticObjectBegin && out->v_obj == missing) {
    TVMFFIObjectDecRef(out->v_obj);
    return 0;
  }
  return 1;
}

static PyObject* map_subscript(PyObject* self, PyObject* key) {
  TVMFFIAny found;
  int rc = map_lookup(self, key, &found);
  if (rc < 0) return NULL;
  if (rc == 0) {
    /* The reference's text for a missing key, for Map and Dict alike (code matches on it). */
    PyErr_SetString(PyExc_KeyError, "key is not in Map");
    return NULL;
  }
  return core_container_owned_element_to_py(self, &found);
}

/* m.get(key, default=None): one lookup, no exception on a miss (Mapping.get's try/except around
 * m[key] paid for a raised KeyError). */
static PyObject* map_get(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                         PyObject* kwnames) {
  static const char* const names[2] = {"key", "default"};
  PyObject* given[2];
  if (core_bind_fastcall("get", names, 2, 1, args, nargs, kwnames, given) != 0) return NULL;
  TVMFFIAny found;
  int rc = map_lookup(self, given[0], &found);
  if (rc < 0) return NULL;
  if (rc == 0) {
    PyObject* fallback = given[1] != NULL ? given[1] : Py_None;
    Py_INCREF(fallback);
    return fallback;
  }
  return core_container_owned_element_to_py(self, &found);
}

/* key in m: the runtime's count of `key`, converted as an argument is. */
static int map_contains(PyObject* self, PyObject* key) {
  int kind = map_kind(self);
  if (kind < 0) return -1;
  TVMFFIObjectHandle f = map_func(kMapCount + kind);
  if (f == NULL) return -1;
  PyObject* args[2] = {self, key};
  TVMFFIAny result = {0};
  CoreFramework fw;
  if (core_call(f, args, 2, NULL, &result, &fw) != 0) return -1;
  return result.v_int64 != 0;
}

/* m._entry_list(): the (key, value) pairs in insertion order, as a list. */
static PyObject* map_entry_list(PyObject* self, PyObject* unused) {
  (void)unused;
  if (map_kind(self) < 0) return NULL;
  return core_map_entry_list(self, kMapWalkItems);
}

/* m._iter_entries(what): an iterator over the keys (0), values (1) or (key, value) pairs (2)
 * that fails when the map's size changes during the loop (map_walk.c). */
static PyObject* map_iter_entries(PyObject* self, PyObject* what) {
  long w = PyLong_AsLong(what);
  if (w == -1 && PyErr_Occurred()) return NULL;
  if (w < kMapWalkKeys || w > kMapWalkItems) {
    PyErr_Format(PyExc_ValueError, "_iter_entries takes 0 (keys), 1 (values) or 2 (items), got %ld", w);
    return NULL;
  }
  if (map_kind(self) < 0) return NULL;
  return core_map_iter(self, (CoreMapWalk)w);
}

static PyObject* map_iter(PyObject* self) {
  if (map_kind(self) < 0) return NULL;
  return core_map_iter(self, kMapWalkKeys);
}

static PyMethodDef map_methods[] = {
    {"get", (PyCFunction)(void (*)(void))map_get, METH_FASTCALL | METH_KEYWORDS,
     "get($self, key, default=None)\n--\n\n"
     "The value of `key`, or `default` when the map has no such key.\n\n"
     "Parameters\n----------\nkey : Any\n    The key to look up.\n"
     "default : Any, optional\n"
     "    What to return when the map has no `key` (None if not given).\n\n"
     "Returns\n-------\nAny\n    The value, or the default."},
    {"_entry_list", map_entry_list, METH_NOARGS,
     "The (key, value) pairs in insertion order, as a list (one walk from C)."},
    {"_iter_entries", map_iter_entries, METH_O,
     "An iterator over the keys (0), values (1) or (key, value) pairs (2) in insertion order; "
     "it raises RuntimeError when the map's size changes during the loop."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods map_as_sequence = {
    .sq_contains = map_contains,
};

static PyMappingMethods map_as_mapping = {
    .mp_length = map_length,
    .mp_subscript = map_subscript,
};

/* m == other: by content when `other` is a map of a related class (a Map equals only a Map, a
 * Dict only a Dict); NotImplemented otherwise, so a plain dict never equals a Map. */
static PyObject* map_richcompare(PyObject* self, PyObject* other, int op) {
  if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
  if (!PyObject_TypeCheck(other, &MapBase_Type) ||
      !(PyObject_TypeCheck(other, Py_TYPE(self)) || PyObject_TypeCheck(self, Py_TYPE(other)))) {
    Py_RETURN_NOTIMPLEMENTED;
  }
  return core_container_content_compare(self, other, op);
}

static PyTypeObject MapBase_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core.MapBase",
    .tp_basicsize = sizeof(CoreContainer),
    .tp_init = map_init,
    .tp_methods = map_methods,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "MapBase(input_dict=())\n--\n\n"
              "Base of Map and Dict: len and lookup call the runtime from C.",
    .tp_as_sequence = &map_as_sequence,
    .tp_as_mapping = &map_as_mapping,
    .tp_hash = core_container_hash,
    .tp_richcompare = map_richcompare,
    .tp_iter = map_iter,
};

int core_container_map_init(PyObject* module) {
  g_str_none_is_empty = PyUnicode_InternFromString("_none_is_empty");
  if (g_str_none_is_empty == NULL) return -1;
  PyObject* bases = PyTuple_Pack(2, PyExc_AttributeError, PyExc_TypeError);
  if (bases == NULL) return -1;
  g_not_a_mapping = PyErr_NewExceptionWithDoc(
      "tvm_ffi.core.NotAMappingError",
      "Map()/Dict() got neither a mapping nor (key, value) pairs (an AttributeError and a "
      "TypeError).",
      bases, NULL);
  Py_DECREF(bases);
  if (g_not_a_mapping == NULL ||
      PyModule_AddObjectRef(module, "NotAMappingError", g_not_a_mapping) < 0) {
    return -1;
  }
  if (core_map_walk_init() != 0) return -1;
  MapBase_Type.tp_base = &CoreContainerBase_Type;
  if (PyType_Ready(&MapBase_Type) < 0) return -1;
  core_container_types[1] = &MapBase_Type;
  return PyModule_AddObjectRef(module, "MapBase", (PyObject*)&MapBase_Type) < 0 ? -1 : 0;
}
