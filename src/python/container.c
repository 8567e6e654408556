/*
 * container.c -- C fast paths of the container classes (python/tvm_ffi/container.py).
 *
 * SeqBase (base of Array and List) reads the TVMFFISeqCell at +24 directly for len(), integer
 * indexing and iteration, so those cost no global-function call. MapBase (base of Map and Dict)
 * answers len() and m[k] through cached handles of the ffi.Map* / ffi.Dict* globals.
 * Shape results become instances of the Python Shape class (a tuple subclass).
 */
#include "core.h"

/* ---- sequences ---- */

/* The cell of an Array/List instance, or NULL with TypeError/ValueError set. */
static TVMFFISeqCell* seq_cell(PyObject* self) {
  TVMFFIObjectHandle h = ((CoreObject*)self)->chandle;
  if (CORE_UNLIKELY(h == NULL)) {
    PyErr_Format(PyExc_ValueError, "%s object has no FFI handle", Py_TYPE(self)->tp_name);
    return NULL;
  }
  int32_t index = TVMFFIObjectGetTypeIndex(h);
  if (CORE_UNLIKELY(index != kTVMFFIArray && index != kTVMFFIList)) {
    PyErr_Format(PyExc_TypeError, "%s handle is not an ffi.Array or ffi.List (type index %d)",
                 Py_TYPE(self)->tp_name, (int)index);
    return NULL;
  }
  return (TVMFFISeqCell*)((char*)h + sizeof(TVMFFIObject));
}

static Py_ssize_t seq_length(PyObject* self) {
  TVMFFISeqCell* cell = seq_cell(self);
  return cell == NULL ? -1 : (Py_ssize_t)cell->size;
}

/* Element i (already in range) as a new Python reference. */
static inline PyObject* seq_at(TVMFFISeqCell* cell, Py_ssize_t i) {
  return core_view_to_py((const TVMFFIAny*)cell->data + i);
}

static PyObject* seq_item(PyObject* self, Py_ssize_t i) {
  TVMFFISeqCell* cell = seq_cell(self);
  if (cell == NULL) return NULL;
  if (CORE_UNLIKELY(i < 0 || i >= (Py_ssize_t)cell->size)) {
    PyErr_Format(PyExc_IndexError, "%s index %zd out of range for size %zd",
                 Py_TYPE(self)->tp_name, i, (Py_ssize_t)cell->size);
    return NULL;
  }
  return seq_at(cell, i);
}

static PyObject* seq_subscript(PyObject* self, PyObject* key) {
  TVMFFISeqCell* cell = seq_cell(self);
  if (cell == NULL) return NULL;
  Py_ssize_t size = (Py_ssize_t)cell->size;
  if (CORE_LIKELY(PyLong_Check(key))) {
    Py_ssize_t i = PyLong_AsSsize_t(key);
    if (i == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      PyErr_Format(PyExc_IndexError, "%s index %R out of range for size %zd",
                   Py_TYPE(self)->tp_name, key, size);
      return NULL;
    }
    Py_ssize_t pos = i < 0 ? i + size : i;
    if (CORE_UNLIKELY(pos < 0 || pos >= size)) {
      PyErr_Format(PyExc_IndexError, "%s index %zd out of range for size %zd",
                   Py_TYPE(self)->tp_name, i, size);
      return NULL;
    }
    return seq_at(cell, pos);
  }
  if (PySlice_Check(key)) {
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(key, &start, &stop, &step) < 0) return NULL;
    Py_ssize_t n = PySlice_AdjustIndices(size, &start, &stop, step);
    PyObject* out = PyList_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t k = 0; k < n; ++k) {
      /* Converting an element runs no Python code, so the cell cannot change meanwhile. */
      PyObject* v = seq_at(cell, start + k * step);
      if (v == NULL) {
        Py_DECREF(out);
        return NULL;
      }
      PyList_SET_ITEM(out, k, v);
    }
    return out;
  }
  if (PyIndex_Check(key)) {
    PyObject* as_int = PyNumber_Index(key);
    if (as_int == NULL) return NULL;
    PyObject* out = seq_subscript(self, as_int);
    Py_DECREF(as_int);
    return out;
  }
  PyErr_Format(PyExc_TypeError, "%s indices must be integers or slices, not %s",
               Py_TYPE(self)->tp_name, Py_TYPE(key)->tp_name);
  return NULL;
}

/* Iterator over a sequence: re-reads the size each step, so a List mutated meanwhile is safe. */
typedef struct {
  PyObject_HEAD
  PyObject* seq; /* NULL once exhausted */
  Py_ssize_t pos;
} SeqIter;

static void seqiter_dealloc(PyObject* self) {
  Py_XDECREF(((SeqIter*)self)->seq);
  PyObject_Free(self);
}

static PyObject* seqiter_next(PyObject* self) {
  SeqIter* it = (SeqIter*)self;
  if (it->seq == NULL) return NULL;
  TVMFFISeqCell* cell = seq_cell(it->seq);
  if (cell == NULL) return NULL;
  if (it->pos >= (Py_ssize_t)cell->size) {
    Py_CLEAR(it->seq);
    return NULL;
  }
  return seq_at(cell, it->pos++);
}

static PyTypeObject SeqIter_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core._SeqIterator",
    .tp_basicsize = sizeof(SeqIter),
    .tp_dealloc = seqiter_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = seqiter_next,
};

static PyObject* seq_iter(PyObject* self) {
  if (seq_cell(self) == NULL) return NULL;
  SeqIter* it = PyObject_New(SeqIter, &SeqIter_Type);
  if (it == NULL) return NULL;
  Py_INCREF(self);
  it->seq = self;
  it->pos = 0;
  return (PyObject*)it;
}

static PySequenceMethods seq_as_sequence = {
    .sq_length = seq_length,
    .sq_item = seq_item,
};

static PyMappingMethods seq_as_mapping = {
    .mp_length = seq_length,
    .mp_subscript = seq_subscript,
};

static PyTypeObject SeqBase_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core.SeqBase",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Base of Array and List: len, indexing and iteration read the cell directly.",
    .tp_as_sequence = &seq_as_sequence,
    .tp_as_mapping = &seq_as_mapping,
    .tp_iter = seq_iter,
};

/* ---- maps ---- */

enum { kMapSize, kMapGetItem, kDictSize, kDictGetItem, kNumMapFuncs };
static const char* const map_func_names[kNumMapFuncs] = {"ffi.MapSize", "ffi.MapGetItem",
                                                         "ffi.DictSize", "ffi.DictGetItem"};
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

/* 0 for Map, 2 for Dict (offset into map_funcs), -1 with exception otherwise. */
static int map_kind(PyObject* self) {
  TVMFFIObjectHandle h = ((CoreObject*)self)->chandle;
  if (CORE_UNLIKELY(h == NULL)) {
    PyErr_Format(PyExc_ValueError, "%s object has no FFI handle", Py_TYPE(self)->tp_name);
    return -1;
  }
  int32_t index = TVMFFIObjectGetTypeIndex(h);
  if (index == kTVMFFIMap) return 0;
  if (index == kTVMFFIDict) return 2;
  PyErr_Format(PyExc_TypeError, "%s handle is not an ffi.Map or ffi.Dict (type index %d)",
               Py_TYPE(self)->tp_name, (int)index);
  return -1;
}

static Py_ssize_t map_length(PyObject* self) {
  int kind = map_kind(self);
  if (kind < 0) return -1;
  TVMFFIObjectHandle f = map_func(kMapSize + kind);
  if (f == NULL) return -1;
  TVMFFIAny arg = {0}, result = {0};
  arg.type_index = TVMFFIObjectGetTypeIndex(((CoreObject*)self)->chandle);
  arg.v_obj = (TVMFFIObject*)((CoreObject*)self)->chandle;
  int rc = TVMFFIFunctionCall(f, &arg, 1, &result);
  if (rc != 0) {
    core_raise_from_rc(rc);
    return -1;
  }
  return (Py_ssize_t)result.v_int64;
}

static PyObject* map_subscript(PyObject* self, PyObject* key) {
  int kind = map_kind(self);
  if (kind < 0) return NULL;
  TVMFFIObjectHandle f = map_func(kMapGetItem + kind);
  if (f == NULL) return NULL;
  PyObject* args[2] = {self, key};
  TVMFFIAny result = {0};
  if (core_call_py_args_owned(f, args, 2, NULL, &result) != 0) return NULL;
  return core_any_to_py(&result);
}

static PyMappingMethods map_as_mapping = {
    .mp_length = map_length,
    .mp_subscript = map_subscript,
};

static PyTypeObject MapBase_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core.MapBase",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Base of Map and Dict: len and lookup call the runtime from C.",
    .tp_as_mapping = &map_as_mapping,
};

/* ---- shapes ---- */

static PyObject* shape_class = NULL; /* the Python Shape class, or NULL before registration */

PyObject* core_shape_from_handle(TVMFFIObjectHandle handle) {
  if (shape_class == NULL) return core_object_from_handle(handle);
  TVMFFIShapeCell* cell = TVMFFIShapeGetCellPtr(handle);
  PyObject* dims = PyTuple_New((Py_ssize_t)cell->size);
  if (dims == NULL) {
    TVMFFIObjectDecRef(handle);
    return NULL;
  }
  for (size_t i = 0; i < cell->size; ++i) {
    PyObject* v = PyLong_FromLongLong(cell->data[i]);
    if (v == NULL) {
      Py_DECREF(dims);
      TVMFFIObjectDecRef(handle);
      return NULL;
    }
    PyTuple_SET_ITEM(dims, (Py_ssize_t)i, v);
  }
  PyObject* holder = core_object_new_of_class(&CoreObject_Type, handle);
  if (holder == NULL) {
    Py_DECREF(dims);
    return NULL;
  }
  /* Shape._from_object(dims, holder) builds the tuple without another runtime call. */
  PyObject* out = PyObject_CallMethod(shape_class, "_from_object", "OO", dims, holder);
  Py_DECREF(dims);
  Py_DECREF(holder);
  return out;
}

static PyObject* mod_set_class_shape(PyObject* self, PyObject* cls) {
  (void)self;
  if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject*)cls, &PyTuple_Type)) {
    PyErr_Format(PyExc_TypeError, "_set_class_shape() expects a tuple subclass, got %R", cls);
    return NULL;
  }
  Py_INCREF(cls);
  Py_XSETREF(shape_class, cls);
  Py_RETURN_NONE;
}

static PyMethodDef container_methods[] = {
    {"_set_class_shape", mod_set_class_shape, METH_O,
     "Sets the tuple subclass that ffi.Shape results come back as."},
    {NULL, NULL, 0, NULL},
};

int core_container_init(PyObject* module) {
  SeqBase_Type.tp_base = &CoreObject_Type;
  MapBase_Type.tp_base = &CoreObject_Type;
  if (PyType_Ready(&SeqIter_Type) < 0 || PyType_Ready(&SeqBase_Type) < 0 ||
      PyType_Ready(&MapBase_Type) < 0)
    return -1;
  if (PyModule_AddObjectRef(module, "SeqBase", (PyObject*)&SeqBase_Type) < 0 ||
      PyModule_AddObjectRef(module, "MapBase", (PyObject*)&MapBase_Type) < 0)
    return -1;
  return PyModule_AddFunctions(module, container_methods);
}
