/*
 * container.c -- C fast paths of the container classes (python/tvm_ffi/container.py): their
 * common base CContainerBase, construction, and SeqBase (base of Array and List).
 *
 * SeqBase reads the TVMFFISeqCell at +24 directly for len(), integer indexing and iteration,
 * so those cost no global-function call. Containers construct in C (`Array(items)` converts the
 * items straight into the constructor's arguments) through the Function their Python class
 * names in `_ffi_ctor`. MapBase (base of Map and Dict) is container_map.c's.
 *
 * A container returned by a call that took framework tensors (torch) remembers that
 * framework's exchange API and hands out its tensor elements, at any depth, as framework
 * tensors.
 */
#include "container.h"

#include "call.h"
#include "container_content.h"
#include "convert_result.h"
#include "framework.h"
#include "function.h"
#include "snapshot.h"

static PyTypeObject SeqBase_Type;
static PyObject* g_str_ffi_ctor = NULL;     /* "_ffi_ctor" */
static PyObject* g_str_eq_sequence = NULL;  /* "_eq_sequence" */

/* ---- construction ---- */

/* The constructor Function named by the instance's class (`_ffi_ctor`), borrowed. */
static CoreFunction* class_ctor(PyObject* self) {
  PyObject* ctor = _PyType_Lookup(Py_TYPE(self), g_str_ffi_ctor);
  if (ctor == NULL || !PyObject_TypeCheck(ctor, &CoreFunction_Type) ||
      ((CoreObject*)ctor)->chandle == NULL) {
    PyErr_Format(PyExc_TypeError,
                 "cannot construct `%s`: its class names no constructor Function in _ffi_ctor",
                 Py_TYPE(self)->tp_name);
    return NULL;
  }
  return (CoreFunction*)ctor;
}

int core_container_parse_items(PyObject* args, PyObject* kwargs, const char* fmt, char* keyword,
                       PyObject** items) {
  *items = NULL;
  if (kwargs == NULL && PyTuple_GET_SIZE(args) <= 1) {
    if (PyTuple_GET_SIZE(args) == 1) *items = PyTuple_GET_ITEM(args, 0);
    return 0;
  }
  char* kwlist[] = {keyword, NULL};
  return PyArg_ParseTupleAndKeywords(args, kwargs, fmt, kwlist, items) ? 0 : -1;
}

int core_container_construct_from(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  CoreFunction* ctor = class_ctor(self);
  if (ctor == NULL) return -1;
  TVMFFIAny made;
  CoreFramework fw;
  if (core_call(ctor->base.chandle, args, nargs, ctor->name, &made, &fw) != 0) return -1;
  if (made.type_index < kTVMFFIStaticObjectBegin || made.v_obj == NULL) {
    PyObject* got = core_any_to_py(&made);
    PyErr_Format(PyExc_TypeError, "constructor of `%s` returned `%s`, expected an FFI object",
                 Py_TYPE(self)->tp_name, got != NULL ? Py_TYPE(got)->tp_name : "?");
    Py_XDECREF(got);
    return -1;
  }
  core_object_adopt((CoreObject*)self, made.v_obj);
  return 0;
}

/* Calls the constructor with a snapshot of `items`. */
static int construct_from_array(PyObject* self, PyObject* const* items, Py_ssize_t n) {
  CoreSnapshot snapshot;
  if (core_snapshot_of_array(&snapshot, items, n) != 0) return -1;
  int rc = core_container_construct_from(self, snapshot.items, snapshot.size);
  core_snapshot_release(&snapshot);
  return rc;
}

/* Array(items=()) / List(items=()): any iterable. */
static int seq_init(PyObject* self, PyObject* args, PyObject* kwargs) {
  PyObject* items;
  if (core_container_parse_items(args, kwargs, "|O:__init__", "input_list", &items) != 0) return -1;
  if (items == NULL) return core_container_construct_from(self, NULL, 0);
  if (PyTuple_CheckExact(items)) {
    return core_container_construct_from(self, &PyTuple_GET_ITEM(items, 0),
                                         PyTuple_GET_SIZE(items));
  }
  if (PyList_CheckExact(items)) {
    return construct_from_array(self, &PyList_GET_ITEM(items, 0), PyList_GET_SIZE(items));
  }
  PyObject* snapshot = PySequence_Tuple(items);
  if (snapshot == NULL) return -1;
  int rc = core_container_construct_from(self, &PyTuple_GET_ITEM(snapshot, 0),
                                         PyTuple_GET_SIZE(snapshot));
  Py_DECREF(snapshot);
  return rc;
}

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
static inline PyObject* seq_at(PyObject* self, TVMFFISeqCell* cell, Py_ssize_t i) {
  return core_container_element_to_py(self, (const TVMFFIAny*)cell->data + i);
}

static PyObject* seq_item(PyObject* self, Py_ssize_t i) {
  TVMFFISeqCell* cell = seq_cell(self);
  if (cell == NULL) return NULL;
  if (CORE_UNLIKELY(i < 0 || i >= (Py_ssize_t)cell->size)) {
    PyErr_Format(PyExc_IndexError, "Index out of range. size: %zd, got index %zd",
                 (Py_ssize_t)cell->size, i);
    return NULL;
  }
  return seq_at(self, cell, i);
}

static PyObject* seq_subscript(PyObject* self, PyObject* key) {
  TVMFFISeqCell* cell = seq_cell(self);
  if (cell == NULL) return NULL;
  Py_ssize_t size = (Py_ssize_t)cell->size;
  if (CORE_LIKELY(PyLong_Check(key))) {
    Py_ssize_t i = PyLong_AsSsize_t(key);
    if (i == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      PyErr_Format(PyExc_IndexError, "Index out of range. size: %zd, got index %R", size, key);
      return NULL;
    }
    Py_ssize_t pos = i < 0 ? i + size : i;
    if (CORE_UNLIKELY(pos < 0 || pos >= size)) {
      PyErr_Format(PyExc_IndexError, "Index out of range. size: %zd, got index %zd", size, i);
      return NULL;
    }
    return seq_at(self, cell, pos);
  }
  if (PySlice_Check(key)) {
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(key, &start, &stop, &step) < 0) return NULL;
    Py_ssize_t n = PySlice_AdjustIndices(size, &start, &stop, step);
    PyObject* out = PyList_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t k = 0; k < n; ++k) {
      /* Converting an element runs no Python code, so the cell cannot change meanwhile. */
      PyObject* v = seq_at(self, cell, start + k * step);
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
  PyErr_Format(PyExc_TypeError, "indices must be integers or slices, not %s", Py_TYPE(key)->tp_name);
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
  return seq_at(it->seq, cell, it->pos++);
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

/* arr == other: by content (container_content.c) when `other` is an Array, List, list or
 * tuple; any other operand goes to the class's `_eq_sequence(other)` (Python: other sequences
 * compare by their items, the rest get NotImplemented). */
static PyObject* seq_richcompare(PyObject* self, PyObject* other, int op) {
  if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
  if (PyObject_TypeCheck(other, &SeqBase_Type) || PyList_CheckExact(other) ||
      PyTuple_CheckExact(other)) {
    return core_container_content_compare(self, other, op);
  }
  PyObject* hook = _PyType_Lookup(Py_TYPE(self), g_str_eq_sequence);
  if (hook == NULL) Py_RETURN_NOTIMPLEMENTED;
  PyObject* args[2] = {self, other};
  PyObject* equal = PyObject_Vectorcall(hook, args, 2, NULL);
  if (equal == NULL || equal == Py_NotImplemented || op == Py_EQ) return equal;
  int truth = PyObject_IsTrue(equal);
  Py_DECREF(equal);
  return truth < 0 ? NULL : PyBool_FromLong(!truth);
}

static PySequenceMethods seq_as_sequence = {
    .sq_length = seq_length,
    .sq_item = seq_item,
    .sq_contains = core_seq_contains,
};

static PyMappingMethods seq_as_mapping = {
    .mp_length = seq_length,
    .mp_subscript = seq_subscript,
};

static PyTypeObject SeqBase_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core.SeqBase",
    .tp_basicsize = sizeof(CoreContainer),
    .tp_init = seq_init,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "SeqBase(input_list=())\n--\n\n"
              "Base of Array and List: len, indexing and iteration read the cell directly.",
    .tp_as_sequence = &seq_as_sequence,
    .tp_as_mapping = &seq_as_mapping,
    .tp_iter = seq_iter,
    .tp_hash = core_container_hash,
    .tp_richcompare = seq_richcompare,
};

/* The common base of the container classes under the reference's name, so
 * isinstance(x, tvm_ffi.core.CContainerBase) holds for Array, List, Map and Dict. */
PyTypeObject CoreContainerBase_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core.CContainerBase",
    .tp_basicsize = sizeof(CoreContainer),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Common base of the container classes (Array, List, Map, Dict).",
};

int core_container_init(PyObject* module) {
  g_str_ffi_ctor = PyUnicode_InternFromString("_ffi_ctor");
  if (g_str_ffi_ctor == NULL) return -1;
  g_str_eq_sequence = PyUnicode_InternFromString("_eq_sequence");
  if (g_str_eq_sequence == NULL) return -1;
  CoreContainerBase_Type.tp_base = &CoreRegisteredObject_Type; /* containers are Objects */
  SeqBase_Type.tp_base = &CoreContainerBase_Type;
  if (PyType_Ready(&CoreContainerBase_Type) < 0 || PyType_Ready(&SeqIter_Type) < 0 ||
      PyType_Ready(&SeqBase_Type) < 0) {
    return -1;
  }
  core_container_types[0] = &SeqBase_Type;
  if (PyModule_AddObjectRef(module, "CContainerBase", (PyObject*)&CoreContainerBase_Type) < 0 ||
      PyModule_AddObjectRef(module, "SeqBase", (PyObject*)&SeqBase_Type) < 0) {
    return -1;
  }
  return 0;
}
