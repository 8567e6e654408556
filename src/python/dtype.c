/*
 * dtype.c -- DataType (a DLDataType value) and the hand-off to the public dtype class.
 *
 * The public `tvm_ffi.dtype` is a str subclass defined in Python that carries a DataType in
 * `_tvm_ffi_dtype`; _set_class_dtype tells this module about it. Results of kind
 * kTVMFFIDataType come back as instances of that class, cached per (code, bits, lanes) since
 * the same few dtypes come back over and over.
 */
#include "dtype.h"

#include "error.h"
#include "state.h"
#include "string_types.h"

PyObject* core_dtype_class = NULL;
static PyObject* g_dtype_results = NULL; /* dict: packed DLDataType -> dtype instance */

static DLDataType dtype_of(PyObject* op) { return ((CoreDataType*)op)->dtype; }

static uint32_t dtype_pack(DLDataType d) {
  return (uint32_t)d.code | ((uint32_t)d.bits << 8) | ((uint32_t)d.lanes << 16);
}

/* The runtime's text for a DLDataType (e.g. "float32x4"). */
static PyObject* dtype_to_str(DLDataType dtype) {
  TVMFFIAny text;
  text.type_index = kTVMFFINone;
  text.zero_padding = 0;
  text.v_uint64 = 0;
  if (TVMFFIDataTypeToString(&dtype, &text) != 0) return core_raise_from_rc(-1);
  if (text.type_index != kTVMFFISmallStr && text.type_index != kTVMFFIStr) {
    if (text.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(text.v_obj);
    PyErr_SetString(PyExc_RuntimeError, "TVMFFIDataTypeToString did not return a string");
    return NULL;
  }
  if (text.type_index == kTVMFFISmallStr) {
    return core_str_from_byte_array(text.v_bytes, text.small_str_len);
  }
  const TVMFFIByteArray* bytes = TVMFFIBytesGetByteArrayPtr(text.v_obj);
  PyObject* out = core_str_from_byte_array(bytes->data, bytes->size);
  TVMFFIObjectDecRef(text.v_obj);
  return out;
}

static int dtype_parse(PyObject* text, DLDataType* out) {
  Py_ssize_t size;
  const char* s = PyUnicode_AsUTF8AndSize(text, &size);
  if (s == NULL) return -1;
  TVMFFIByteArray bytes = {s, (size_t)size};
  if (TVMFFIDataTypeFromString(&bytes, out) != 0) {
    core_raise_from_rc(-1);
    return -1;
  }
  return 0;
}

static PyObject* datatype_make(PyTypeObject* type, DLDataType dtype) {
  CoreDataType* self = (CoreDataType*)type->tp_alloc(type, 0);
  if (self == NULL) return NULL;
  self->dtype = dtype;
  return (PyObject*)self;
}

static PyObject* datatype_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
  static char* kwlist[] = {"dtype_str", NULL};
  PyObject* text;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "U:DataType", kwlist, &text)) return NULL;
  DLDataType dtype;
  if (dtype_parse(text, &dtype) != 0) return NULL;
  return datatype_make(type, dtype);
}

static void datatype_dealloc(PyObject* op) { Py_TYPE(op)->tp_free(op); }

static PyObject* datatype_str(PyObject* op) { return dtype_to_str(dtype_of(op)); }

static PyObject* datatype_repr(PyObject* op) {
  PyObject* text = dtype_to_str(dtype_of(op));
  if (text == NULL) return NULL;
  PyObject* out = PyUnicode_FromFormat("DataType('%U')", text);
  Py_DECREF(text);
  return out;
}

static PyObject* datatype_richcompare(PyObject* a, PyObject* b, int op) {
  if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, &CoreDataType_Type)) {
    Py_RETURN_NOTIMPLEMENTED;
  }
  int same = dtype_pack(dtype_of(a)) == dtype_pack(dtype_of(b));
  return PyBool_FromLong(op == Py_EQ ? same : !same);
}

static Py_hash_t datatype_hash(PyObject* op) {
  DLDataType d = dtype_of(op);
  PyObject* key = Py_BuildValue("(iii)", (int)d.code, (int)d.bits, (int)d.lanes);
  if (key == NULL) return -1;
  Py_hash_t h = PyObject_Hash(key);
  Py_DECREF(key);
  return h;
}

static PyObject* datatype_reduce(PyObject* op, PyObject* unused) {
  (void)unused;
  PyObject* text = dtype_to_str(dtype_of(op));
  if (text == NULL) return NULL;
  return Py_BuildValue("(O(N))", (PyObject*)Py_TYPE(op), text);
}

static PyObject* datatype_get_type_code(PyObject* op, void* closure) {
  (void)closure;
  return PyLong_FromLong(dtype_of(op).code);
}

static PyObject* datatype_get_bits(PyObject* op, void* closure) {
  (void)closure;
  return PyLong_FromLong(dtype_of(op).bits);
}

/* Lanes read as int16, as the reference reads them: below -1 they are a scalable vector's
 * multiple of vscale, negated ("float32xvscalex4" has -4). */
static PyObject* datatype_get_lanes(PyObject* op, void* closure) {
  (void)closure;
  return PyLong_FromLong((int16_t)dtype_of(op).lanes);
}

static PyObject* datatype_get_itemsize(PyObject* op, void* closure) {
  (void)closure;
  DLDataType d = dtype_of(op);
  /* Lanes read as int16 below -1 mark scalable vectors, whose size is unknown statically. */
  if ((int16_t)d.lanes < -1) {
    PyErr_SetString(PyExc_ValueError, "Cannot determine itemsize for scalable vector types");
    return NULL;
  }
  long long total_bits = (long long)d.bits * (long long)d.lanes;
  return PyLong_FromLongLong((total_bits + 7) / 8);
}

static PyMethodDef datatype_methods[] = {
    {"__reduce__", datatype_reduce, METH_NOARGS, "Pickles through the dtype string."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef datatype_getset[] = {
    {"type_code", datatype_get_type_code, NULL, "DLDataTypeCode of the element type.", NULL},
    {"bits", datatype_get_bits, NULL, "Bits per lane.", NULL},
    {"lanes", datatype_get_lanes, NULL, "Number of lanes.", NULL},
    {"itemsize", datatype_get_itemsize, NULL, "Bytes per element (all lanes), rounded up.",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject CoreDataType_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core.DataType",
    .tp_basicsize = sizeof(CoreDataType),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "DataType(dtype_str)\n--\n\nA DLDataType parsed from text such as 'float32x4'.",
    .tp_new = datatype_new,
    .tp_dealloc = datatype_dealloc,
    .tp_str = datatype_str,
    .tp_repr = datatype_repr,
    .tp_richcompare = datatype_richcompare,
    .tp_hash = datatype_hash,
    .tp_methods = datatype_methods,
    .tp_getset = datatype_getset,
};

/* ---- the public dtype class ---- */

PyObject* core_dtype_result(DLDataType dtype) {
  if (core_dtype_class == NULL) return datatype_make(&CoreDataType_Type, dtype);
  PyObject* key = PyLong_FromUnsignedLong(dtype_pack(dtype));
  if (key == NULL) return NULL;
  PyObject* hit = PyDict_GetItemWithError(g_dtype_results, key);
  if (hit != NULL) {
    Py_DECREF(key);
    Py_INCREF(hit);
    return hit;
  }
  PyObject* out = NULL;
  PyObject* text = PyErr_Occurred() ? NULL : dtype_to_str(dtype);
  if (text != NULL) {
    out = PyObject_CallOneArg(core_dtype_class, text);
    Py_DECREF(text);
  }
  if (out != NULL && PyDict_SetItem(g_dtype_results, key, out) != 0) Py_CLEAR(out);
  Py_DECREF(key);
  return out;
}

int core_dtype_instance_value(PyObject* value, DLDataType* out) {
  PyObject* inner = PyObject_GetAttr(value, core_str_dtype_attr);
  if (inner != NULL && PyObject_TypeCheck(inner, &CoreDataType_Type)) {
    *out = dtype_of(inner);
    Py_DECREF(inner);
    return 0;
  }
  Py_XDECREF(inner);
  PyErr_Clear();
  /* No usable DataType attached: parse the text itself. */
  return dtype_parse(value, out);
}

int core_dtype_set_class(PyObject* cls) {
  if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject*)cls, &PyUnicode_Type)) {
    PyErr_SetString(PyExc_TypeError, "_set_class_dtype() expects a str subclass");
    return -1;
  }
  Py_INCREF(cls);
  Py_XSETREF(core_dtype_class, cls);
  PyDict_Clear(g_dtype_results);
  return 0;
}

int core_dtype_init_types(PyObject* module) {
  g_dtype_results = PyDict_New();
  if (g_dtype_results == NULL) return -1;
  if (PyType_Ready(&CoreDataType_Type) < 0) return -1;
  Py_INCREF(&CoreDataType_Type);
  if (PyModule_AddObject(module, "DataType", (PyObject*)&CoreDataType_Type) < 0) {
    Py_DECREF(&CoreDataType_Type);
    return -1;
  }
  return 0;
}
