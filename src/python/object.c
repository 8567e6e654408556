/*
 * object.c -- Object (owner of one FFI handle), ObjectRValueRef and OpaquePyObject.
 *
 * A wrapper holds exactly one strong reference to its handle and drops it in tp_dealloc (no
 * __del__, so wrappers never resurrect). Equality and hashing follow handle identity, so two
 * wrappers of the same FFI object compare equal.
 */
#include "object.h"

#include "call.h"
#include "convert_result.h"
#include "globals.h"

#include <structmember.h>

#include "pending_error.h"
#include "state.h"
#include "type_table.h"

/* ---- Python objects kept alive by FFI objects ---- */

void core_pyobject_deleter(void* handle) {
  /* Past finalization the object is gone with the interpreter; touching it would crash. */
  if (handle == NULL || !core_python_alive()) return;
  PyGILState_STATE gil = PyGILState_Ensure();
  Py_DECREF((PyObject*)handle);
  PyGILState_Release(gil);
}

int core_make_opaque(PyObject* obj, TVMFFIObjectHandle* out) {
  Py_INCREF(obj);
  if (TVMFFIObjectCreateOpaque(obj, kTVMFFIOpaquePyObject, core_pyobject_deleter, out) != 0) {
    /* With a fixed, valid type index the runtime fails only to allocate. */
    Py_DECREF(obj);
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    if (err != NULL) TVMFFIObjectDecRef(err);
    PyErr_NoMemory();
    return -1;
  }
  return 0;
}

/* ---- Object ---- */

static PyObject* object_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
  (void)args;
  (void)kwds;
  CoreObject* self = (CoreObject*)type->tp_alloc(type, 0);
  if (self == NULL) return NULL;
  self->chandle = NULL;
  self->weakreflist = NULL;
  return (PyObject*)self;
}

static void object_dealloc(PyObject* op) {
  CoreObject* self = (CoreObject*)op;
  if (self->weakreflist != NULL) PyObject_ClearWeakRefs(op);
  TVMFFIObjectHandle handle = self->chandle;
  self->chandle = NULL;
  /* Deallocation can happen while an exception unwinds the frame that held the object. */
  if (handle != NULL) core_decref_keeping_error(handle);
  Py_TYPE(op)->tp_free(op);
}

static const char* object_type_key(TVMFFIObjectHandle handle, Py_ssize_t* size) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(TVMFFIObjectGetTypeIndex(handle));
  *size = (Py_ssize_t)info->type_key.size;
  return info->type_key.data;
}

/* repr(obj) is the runtime's ffi.ReprPrint text; when that fails (e.g. a raising __ffi_repr__
 * hook) `<Class>(<handle address>)`, and `<Class>(chandle=None)` for an empty wrapper. */
static PyObject* object_repr(PyObject* op) {
  CoreObject* self = (CoreObject*)op;
  const char* cls = _PyType_Name(Py_TYPE(op));
  if (self->chandle == NULL) return PyUnicode_FromFormat("%s(chandle=None)", cls);
  static TVMFFIObjectHandle repr_fn = NULL;
  if (repr_fn == NULL && core_get_global_handle("ffi.ReprPrint", &repr_fn) != 0) PyErr_Clear();
  if (repr_fn != NULL) {
    TVMFFIAny arg = {0};
    TVMFFIAny result = {0};
    arg.type_index = TVMFFIObjectGetTypeIndex(self->chandle);
    arg.v_obj = (TVMFFIObject*)self->chandle;
    if (TVMFFIFunctionCall(repr_fn, &arg, 1, &result) == 0) {
      PyObject* text = NULL;
      if (result.type_index == kTVMFFISmallStr) {
        text = PyUnicode_DecodeUTF8(result.v_bytes, result.small_str_len, "replace");
      } else if (result.type_index == kTVMFFIStr) {
        const TVMFFIByteArray* cell = (const TVMFFIByteArray*)(result.v_obj + 1);
        text = PyUnicode_DecodeUTF8(cell->data, (Py_ssize_t)cell->size, "replace");
      }
      if (result.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(result.v_obj);
      if (text != NULL) return text;
    }
    TVMFFIObjectHandle error = NULL;
    TVMFFIErrorMoveFromRaised(&error);
    if (error != NULL) TVMFFIObjectDecRef(error);
    PyErr_Clear();
  }
  return PyUnicode_FromFormat("%s(%zu)", cls, (size_t)self->chandle);
}

static PyObject* object_richcompare(PyObject* a, PyObject* b, int op) {
  if ((op != Py_EQ && op != Py_NE) || !core_is_object(b)) Py_RETURN_NOTIMPLEMENTED;
  TVMFFIObjectHandle ha = ((CoreObject*)a)->chandle;
  TVMFFIObjectHandle hb = ((CoreObject*)b)->chandle;
  /* Two empty wrappers are only equal to themselves. */
  int same = (ha == NULL || hb == NULL) ? a == b : ha == hb;
  if (op == Py_NE) same = !same;
  return PyBool_FromLong(same);
}

static Py_hash_t object_hash(PyObject* op) {
  void* key = ((CoreObject*)op)->chandle;
  if (key == NULL) key = op;
  /* Pointers are 16-byte aligned: drop the always-zero bits, rotate them to the top. */
  size_t bits = (size_t)key;
  Py_hash_t h = (Py_hash_t)((bits >> 4) | (bits << (8 * sizeof(size_t) - 4)));
  return h == -1 ? -2 : h;
}

static PyObject* object_chandle(PyObject* op, PyObject* unused) {
  (void)unused;
  return PyLong_FromVoidPtr(((CoreObject*)op)->chandle);
}

static PyObject* object_same_as(PyObject* op, PyObject* other) {
  if (!core_is_object(other)) Py_RETURN_FALSE;
  return PyBool_FromLong(((CoreObject*)op)->chandle == ((CoreObject*)other)->chandle);
}

void core_object_adopt(CoreObject* self, TVMFFIObjectHandle handle) {
  TVMFFIObjectHandle old = self->chandle;
  self->chandle = handle;
  if (old != NULL) TVMFFIObjectDecRef(old);
}

PyObject* core_object_new_of_class(PyTypeObject* cls, TVMFFIObjectHandle handle) {
  PyObject* obj = cls->tp_new(cls, core_empty_tuple, NULL);
  if (CORE_UNLIKELY(obj == NULL)) {
    core_decref_keeping_error(handle);
    return NULL;
  }
  if (CORE_UNLIKELY(!core_is_object(obj))) {
    PyErr_Format(PyExc_TypeError, "%s.__new__ returned `%s`, not an FFI Object", cls->tp_name,
                 Py_TYPE(obj)->tp_name);
    Py_DECREF(obj);
    core_decref_keeping_error(handle);
    return NULL;
  }
  core_object_adopt((CoreObject*)obj, handle);
  return obj;
}

static PyObject* object_move_handle_from(PyObject* op, PyObject* other) {
  if (!core_is_object(other)) {
    PyErr_Format(PyExc_TypeError, "__move_handle_from__() expects an FFI Object, got `%s`",
                 Py_TYPE(other)->tp_name);
    return NULL;
  }
  if (other == op) Py_RETURN_NONE;
  TVMFFIObjectHandle handle = ((CoreObject*)other)->chandle;
  ((CoreObject*)other)->chandle = NULL;
  core_object_adopt((CoreObject*)op, handle);
  Py_RETURN_NONE;
}

static PyObject* object_move(PyObject* op, PyObject* unused) {
  (void)unused;
  return PyObject_CallOneArg((PyObject*)&CoreRValueRef_Type, op);
}

/* Calls global `name` with one argument and converts the result. */
static PyObject* object_call_json(const char* name, PyObject* arg);

/* Pickling goes through the JSON object graph, as in the reference: __reduce__ gives
 * (tvm_ffi.core._new_object, (cls,), {"handle": <document or None>}) and __setstate__ loads the
 * document. Types the graph cannot hold (functions, tensors) fail with its TypeError. */
static PyObject* object_call_json(const char* name, PyObject* arg) {
  TVMFFIObjectHandle fn = NULL;
  if (core_get_global_handle(name, &fn) != 0) return NULL;
  if (fn == NULL) return PyErr_Format(PyExc_RuntimeError, "the runtime has no `%s`", name);
  TVMFFIAny result;
  CoreFramework fw;
  int rc = core_call(fn, &arg, 1, NULL, &result, &fw);
  TVMFFIObjectDecRef(fn);
  return rc == 0 ? core_any_to_py(&result) : NULL;
}

static PyObject* object_getstate(PyObject* op, PyObject* unused) {
  (void)unused;
  if (((CoreObject*)op)->chandle == NULL) return Py_BuildValue("{s:O}", "handle", Py_None);
  PyObject* doc = object_call_json("ffi.ToJSONGraphString", op);
  if (doc == NULL) return NULL;
  PyObject* text = PyObject_Str(doc); /* a plain str, not the String subclass */
  Py_DECREF(doc);
  if (text == NULL) return NULL;
  PyObject* state = Py_BuildValue("{s:N}", "handle", text);
  return state;
}

static PyObject* object_setstate(PyObject* op, PyObject* state) {
  PyObject* handle = PyDict_Check(state) ? PyDict_GetItemString(state, "handle") : NULL;
  if (handle == NULL) {
    PyErr_SetString(PyExc_TypeError, "__setstate__ expects a dict with a `handle` entry");
    return NULL;
  }
  if (handle == Py_None) {
    core_object_adopt((CoreObject*)op, NULL);
    Py_RETURN_NONE;
  }
  TVMFFIObjectHandle fn = NULL;
  if (core_get_global_handle("ffi.FromJSONGraphString", &fn) != 0) return NULL;
  TVMFFIAny result;
  CoreFramework fw;
  int rc = core_call(fn, &handle, 1, NULL, &result, &fw);
  TVMFFIObjectDecRef(fn);
  if (rc != 0) return NULL;
  if (result.type_index < kTVMFFIStaticObjectBegin || result.v_obj == NULL) {
    PyObject* got = core_any_to_py(&result);
    Py_XDECREF(got);
    return PyErr_Format(PyExc_TypeError, "the pickled document of `%s` holds no object",
                        Py_TYPE(op)->tp_name);
  }
  core_object_adopt((CoreObject*)op, result.v_obj);
  Py_RETURN_NONE;
}

static PyObject* object_reduce(PyObject* op, PyObject* unused) {
  PyObject* state = object_getstate(op, unused);
  if (state == NULL) return NULL;
  PyObject* core = PyImport_ImportModule("tvm_ffi.core");
  PyObject* new_object = core != NULL ? PyObject_GetAttrString(core, "_new_object") : NULL;
  Py_XDECREF(core);
  if (new_object == NULL) {
    Py_DECREF(state);
    return NULL;
  }
  return Py_BuildValue("(N(O)N)", new_object, (PyObject*)Py_TYPE(op), state);
}

/* copy.deepcopy: the runtime's ffi.DeepCopy (sharing and cycles kept; the memo is not used). */
static PyObject* object_deepcopy(PyObject* op, PyObject* memo) {
  (void)memo;
  if (((CoreObject*)op)->chandle == NULL) return Py_NewRef(op);
  return object_call_json("ffi.DeepCopy", op);
}

/* copy.copy: a new object from the type's __ffi_shallow_copy__ (fields shared). */
static PyObject* object_copy(PyObject* op, PyObject* unused) {
  (void)unused;
  CoreObject* self = (CoreObject*)op;
  if (self->chandle == NULL) return Py_NewRef(op);
  TVMFFIByteArray attr = {"__ffi_shallow_copy__", 20};
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&attr);
  int32_t index = TVMFFIObjectGetTypeIndex(self->chandle);
  const TVMFFIAny* fn = NULL;
  if (column != NULL && index >= column->begin_index && index - column->begin_index < column->size) {
    fn = &column->data[index - column->begin_index];
  }
  if (fn == NULL || fn->type_index != kTVMFFIFunction) {
    return PyErr_Format(PyExc_TypeError,
                        "Type `%s` does not support copy. The underlying C++ type is not "
                        "copy-constructible.",
                        _PyType_Name(Py_TYPE(op)));
  }
  TVMFFIAny result;
  CoreFramework fw;
  if (core_call(fn->v_obj, &op, 1, NULL, &result, &fw) != 0) return NULL;
  return core_any_to_py(&result);
}

static int object_require_handle(CoreObject* self) {
  if (CORE_LIKELY(self->chandle != NULL)) return 0;
  PyErr_Format(PyExc_ValueError, "this `%s` has no FFI handle (NULL)", Py_TYPE(self)->tp_name);
  return -1;
}

static PyObject* object_get_type_index(PyObject* op, void* closure) {
  (void)closure;
  CoreObject* self = (CoreObject*)op;
  if (object_require_handle(self) != 0) return NULL;
  return PyLong_FromLong(TVMFFIObjectGetTypeIndex(self->chandle));
}

static PyObject* object_get_type_key(PyObject* op, void* closure) {
  (void)closure;
  CoreObject* self = (CoreObject*)op;
  if (object_require_handle(self) != 0) return NULL;
  Py_ssize_t size;
  const char* key = object_type_key(self->chandle, &size);
  return PyUnicode_DecodeUTF8(key, size, "replace");
}

static PyMethodDef object_methods[] = {
    {"__chandle__", object_chandle, METH_NOARGS, "Address of the FFI handle (0 when empty)."},
    {"same_as", object_same_as, METH_O,
     "same_as($self, other, /)\n"
     "--\n"
     "\n"
     "Tell whether two Python objects wrap the same FFI object (identity, not equality).\n"
     "\n"
     "Parameters\n"
     "----------\n"
     "other : Any\n"
     "    The value to compare with.\n"
     "\n"
     "Returns\n"
     "-------\n"
     "bool\n"
     "    True when ``other`` is an Object with the same handle.\n"
     "\n"
     "Examples\n"
     "--------\n"
     ">>> a = tvm_ffi.convert([1, 2])\n"
     ">>> a.same_as(a), a.same_as(tvm_ffi.convert([1, 2]))\n"
     "(True, False)"},
    {"__move_handle_from__", object_move_handle_from, METH_O,
     "Takes the handle of another Object, leaving it empty."},
    {"_move", object_move, METH_NOARGS,
     "An ObjectRValueRef: passing it lets the callee take this object's reference."},
    {"__reduce__", object_reduce, METH_NOARGS, "Pickles through the JSON object graph."},
    {"__getstate__", object_getstate, METH_NOARGS, "{'handle': JSON graph document or None}."},
    {"__setstate__", object_setstate, METH_O, "Loads a state made by __getstate__."},
    {"__copy__", object_copy, METH_NOARGS, "Shallow copy through __ffi_shallow_copy__."},
    {"__deepcopy__", object_deepcopy, METH_O, "Deep copy through the runtime's ffi.DeepCopy."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef object_getset[] = {
    {"type_index", object_get_type_index, NULL, "Runtime type index of the wrapped object.",
     NULL},
    {"type_key", object_get_type_key, NULL, "Runtime type key of the wrapped object.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject CoreObject_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi._core.Object",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Object()\n--\n\nBase class of every FFI object: owns one reference to a runtime object.",
    .tp_new = object_new,
    .tp_dealloc = object_dealloc,
    .tp_repr = object_repr,
    .tp_richcompare = object_richcompare,
    .tp_hash = object_hash,
    .tp_weaklistoffset = offsetof(CoreObject, weakreflist),
    .tp_methods = object_methods,
    .tp_getset = object_getset,
};

/* ---- ObjectRValueRef ---- */

static PyObject* rvalue_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
  static char* kwlist[] = {"obj", NULL};
  PyObject* obj;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:ObjectRValueRef", kwlist, &obj)) return NULL;
  if (!core_is_object(obj)) {
    PyErr_Format(PyExc_TypeError, "ObjectRValueRef() expects an FFI Object, got `%s`",
                 Py_TYPE(obj)->tp_name);
    return NULL;
  }
  CoreRValueRef* self = (CoreRValueRef*)type->tp_alloc(type, 0);
  if (self == NULL) return NULL;
  Py_INCREF(obj);
  self->obj = obj;
  return (PyObject*)self;
}

static void rvalue_dealloc(PyObject* op) {
  Py_CLEAR(((CoreRValueRef*)op)->obj);
  Py_TYPE(op)->tp_free(op);
}

static PyMemberDef rvalue_members[] = {
    {"obj", T_OBJECT, offsetof(CoreRValueRef, obj), READONLY, "The object to be moved."},
    {NULL, 0, 0, 0, NULL},
};

PyTypeObject CoreRValueRef_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi._core.ObjectRValueRef",
    .tp_basicsize = sizeof(CoreRValueRef),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "ObjectRValueRef(obj)\n--\n\nMarks an Object as movable: the callee may take over its reference.",
    .tp_new = rvalue_new,
    .tp_dealloc = rvalue_dealloc,
    .tp_members = rvalue_members,
};

/* ---- OpaquePyObject ---- */

static PyObject* opaque_pyobject(PyObject* op, PyObject* unused) {
  (void)unused;
  CoreObject* self = (CoreObject*)op;
  if (object_require_handle(self) != 0) return NULL;
  PyObject* held = (PyObject*)TVMFFIOpaqueObjectGetCellPtr(self->chandle)->handle;
  if (held == NULL) Py_RETURN_NONE;
  Py_INCREF(held);
  return held;
}

static PyMethodDef opaque_methods[] = {
    {"pyobject", opaque_pyobject, METH_NOARGS,
     "pyobject($self, /)\n"
     "--\n"
     "\n"
     "Return the Python object this FFI object holds.\n"
     "\n"
     "Returns\n"
     "-------\n"
     "Any\n"
     "    The wrapped Python object (a new reference to the very same object)."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject CoreOpaque_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi._core.OpaquePyObject",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "FFI object holding an arbitrary Python object.",
    .tp_methods = opaque_methods,
};

/* tvm_ffi.convert(x) of a value with no FFI form: an OpaquePyObject holding x. */
static PyObject* mod_convert_to_opaque_object(PyObject* self, PyObject* value) {
  (void)self;
  TVMFFIObjectHandle handle;
  if (core_make_opaque(value, &handle) != 0) return NULL;
  return core_object_from_handle(handle);
}

static PyMethodDef opaque_module_methods[] = {
    {"_convert_to_opaque_object", mod_convert_to_opaque_object, METH_O,
     "An OpaquePyObject holding the given Python object."},
    {NULL, NULL, 0, NULL},
};

int core_object_init_types(PyObject* module) {
  CoreOpaque_Type.tp_base = &CoreObject_Type;
  PyTypeObject* types[] = {&CoreObject_Type, &CoreRValueRef_Type, &CoreOpaque_Type};
  const char* names[] = {"Object", "ObjectRValueRef", "OpaquePyObject"};
  for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); ++i) {
    if (PyType_Ready(types[i]) < 0) return -1;
    Py_INCREF(types[i]);
    if (PyModule_AddObject(module, names[i], (PyObject*)types[i]) < 0) {
      Py_DECREF(types[i]);
      return -1;
    }
  }
  return PyModule_AddFunctions(module, opaque_module_methods);
}
