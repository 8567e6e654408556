/*
 * string_types.c -- String (a str subclass) and Bytes (a bytes subclass) for heap strings.
 *
 * A long string result keeps the FFI object it came from in `_tvm_ffi_cached_object`, so
 * passing it back to C hands over that object instead of copying the text again. Both pickle
 * as plain str / bytes. Both are heap types, as the reference's are, so Python's own messages
 * name them as it does ("'String' object has no attribute 'x'"): String is made from a spec with
 * a slot; Bytes cannot have slots (bytes is variable-sized), so it is a class with an instance
 * dict.
 */
#include "string_types.h"

#include <structmember.h>

#include "object.h"
#include "state.h"

PyObject* core_str_from_byte_array(const char* data, size_t size) {
  return PyUnicode_DecodeUTF8(data, (Py_ssize_t)size, NULL);
}

/* ---- String ---- */

static PyObject* string_make(PyTypeObject* type, PyObject* value) {
  PyObject* args = PyTuple_Pack(1, value);
  if (args == NULL) return NULL;
  PyObject* self = PyUnicode_Type.tp_new(type, args, NULL);
  Py_DECREF(args);
  if (self == NULL) return NULL;
  Py_INCREF(Py_None);
  ((CoreString*)self)->cached = Py_None;
  return self;
}

static PyObject* string_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
  static char* kwlist[] = {"value", NULL};
  PyObject* value;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:String", kwlist, &value)) return NULL;
  return string_make(type, value);
}

static void string_dealloc(PyObject* op) {
  PyTypeObject* type = Py_TYPE(op); /* a heap type: each instance holds a reference to it */
  Py_CLEAR(((CoreString*)op)->cached);
  PyUnicode_Type.tp_dealloc(op);
  Py_DECREF(type);
}

static PyObject* string_reduce_ex(PyObject* op, PyObject* protocol) {
  (void)protocol;
  PyObject* plain = PyUnicode_FromObject(op);
  if (plain == NULL) return NULL;
  return Py_BuildValue("(O(N))", (PyObject*)&PyUnicode_Type, plain);
}

static PyObject* string_reduce(PyObject* op, PyObject* unused) {
  return string_reduce_ex(op, unused);
}

static PyMethodDef string_methods[] = {
    {"__reduce_ex__", string_reduce_ex, METH_O, "Pickles as a plain str."},
    {"__reduce__", string_reduce, METH_NOARGS, "Pickles as a plain str."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef string_members[] = {
    {"_tvm_ffi_cached_object", T_OBJECT, offsetof(CoreString, cached), 0,
     "The FFI string object backing this value, or None."},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot string_slots[] = {
    {Py_tp_doc, "String(value)\n--\n\nstr that remembers the FFI string object it came from."},
    {Py_tp_new, string_new},
    {Py_tp_dealloc, string_dealloc},
    {Py_tp_methods, string_methods},
    {Py_tp_members, string_members},
    {0, NULL},
};

static PyType_Spec string_spec = {"tvm_ffi.core.String", sizeof(CoreString), 0,
                                  Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, string_slots};

PyTypeObject* core_string_type = NULL;

/* ---- Bytes ---- */

PyTypeObject* core_bytes_type = NULL;

static PyObject* bytes_make(PyObject* cls, PyObject* value, PyObject* cached) {
  PyObject* args = PyTuple_Pack(1, value);
  if (args == NULL) return NULL;
  PyObject* self = PyBytes_Type.tp_new((PyTypeObject*)cls, args, NULL);
  Py_DECREF(args);
  if (self == NULL) return NULL;
  if (PyObject_SetAttr(self, core_str_cached_object, cached) != 0) Py_CLEAR(self);
  return self;
}

/* Bytes.__new__(cls, value): a builtin; `value` may be named, as the reference's. */
static PyObject* bytes_new(PyObject* unused, PyObject* args, PyObject* kwargs) {
  (void)unused;
  static char* kwlist[] = {"cls", "value", NULL};
  PyObject *cls, *value;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO:Bytes.__new__", kwlist, &cls, &value)) {
    return NULL;
  }
  if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject*)cls, core_bytes_type)) {
    PyErr_SetString(PyExc_TypeError, "Bytes.__new__(cls, value): cls must be a Bytes subclass");
    return NULL;
  }
  return bytes_make(cls, value, Py_None);
}

static PyObject* bytes_reduce_ex(PyObject* op, PyObject* protocol) {
  (void)protocol;
  PyObject* plain = PyBytes_FromStringAndSize(PyBytes_AS_STRING(op), PyBytes_GET_SIZE(op));
  if (plain == NULL) return NULL;
  return Py_BuildValue("(O(N))", (PyObject*)&PyBytes_Type, plain);
}

static PyObject* bytes_reduce(PyObject* op, PyObject* unused) {
  return bytes_reduce_ex(op, unused);
}

static PyMethodDef bytes_new_def = {"__new__", (PyCFunction)(void (*)(void))bytes_new,
                                    METH_VARARGS | METH_KEYWORDS,
                                    "__new__(cls, value)\n--\n\n"
                                    "Bytes(value): bytes without a backing FFI object."};
static PyMethodDef bytes_reduce_ex_def = {"__reduce_ex__", bytes_reduce_ex, METH_O,
                                          "Pickles as plain bytes."};
static PyMethodDef bytes_reduce_def = {"__reduce__", bytes_reduce, METH_NOARGS,
                                       "Pickles as plain bytes."};

static int make_bytes_class(PyObject* module) {
  PyObject* ns = PyDict_New();
  if (ns == NULL) return -1;
  PyObject* new_fn = PyCFunction_New(&bytes_new_def, NULL);
  PyObject* reduce_ex = PyDescr_NewMethod(&PyBytes_Type, &bytes_reduce_ex_def);
  PyObject* reduce = PyDescr_NewMethod(&PyBytes_Type, &bytes_reduce_def);
  /* The signature line is what inspect.signature(Bytes) reads (type.__text_signature__ parses
   * it out of the class doc); a builtin __new__ is not consulted for a class. */
  PyObject* doc = PyUnicode_FromString(
      "Bytes(value)\n--\n\nbytes that remember the FFI bytes object they came from.");
  PyObject* mod = PyUnicode_FromString("tvm_ffi.core");
  int rc = -1;
  if (new_fn != NULL && reduce_ex != NULL && reduce != NULL && doc != NULL && mod != NULL &&
      PyDict_SetItemString(ns, "__new__", new_fn) == 0 &&
      PyDict_SetItemString(ns, "__reduce_ex__", reduce_ex) == 0 &&
      PyDict_SetItemString(ns, "__reduce__", reduce) == 0 &&
      PyDict_SetItemString(ns, "__doc__", doc) == 0 &&
      PyDict_SetItemString(ns, "__module__", mod) == 0) {
    PyObject* cls = PyObject_CallFunction((PyObject*)&PyType_Type, "s(O)O", "Bytes",
                                          (PyObject*)&PyBytes_Type, ns);
    if (cls != NULL) {
      core_bytes_type = (PyTypeObject*)cls; /* the module keeps it alive too */
      Py_INCREF(cls);
      rc = PyModule_AddObject(module, "Bytes", cls);
      if (rc != 0) Py_DECREF(cls);
    }
  }
  Py_XDECREF(new_fn);
  Py_XDECREF(reduce_ex);
  Py_XDECREF(reduce);
  Py_XDECREF(doc);
  Py_XDECREF(mod);
  Py_DECREF(ns);
  return rc;
}

/* ---- shared ---- */

PyObject* core_native_cached_object(PyObject* value) {
  PyObject* cached;
  if (PyObject_TypeCheck(value, core_string_type)) {
    cached = ((CoreString*)value)->cached;
  } else {
    /* Bytes keeps it in the instance dict; a missing entry just means "no object". */
    cached = PyObject_GetAttr(value, core_str_cached_object);
    if (cached == NULL) {
      PyErr_Clear();
      return NULL;
    }
    Py_DECREF(cached); /* still referenced by the instance dict */
  }
  return (cached != NULL && core_is_object(cached)) ? cached : NULL;
}

PyObject* core_string_from_handle(TVMFFIObjectHandle handle, int is_bytes) {
  const TVMFFIByteArray* content = TVMFFIBytesGetByteArrayPtr(handle);
  PyObject* cached = core_object_new_of_class(&CoreRegisteredObject_Type, handle);
  if (cached == NULL) return NULL;
  PyObject* out;
  if (is_bytes) {
    PyObject* value = PyBytes_FromStringAndSize(content->data, (Py_ssize_t)content->size);
    out = value != NULL ? bytes_make((PyObject*)core_bytes_type, value, cached) : NULL;
    Py_XDECREF(value);
    Py_DECREF(cached);
    return out;
  }
  PyObject* value = core_str_from_byte_array(content->data, content->size);
  out = value != NULL ? string_make(core_string_type, value) : NULL;
  Py_XDECREF(value);
  if (out == NULL) {
    Py_DECREF(cached);
    return NULL;
  }
  Py_SETREF(((CoreString*)out)->cached, cached);
  return out;
}

int core_string_init_types(PyObject* module) {
  PyObject* string = core_type_from_spec(&string_spec, (PyObject*)&PyUnicode_Type);
  if (string == NULL) return -1;
  core_string_type = (PyTypeObject*)string; /* kept for good, like the module's reference */
  if (PyModule_AddObjectRef(module, "String", string) < 0) return -1;
  return make_bytes_class(module);
}
