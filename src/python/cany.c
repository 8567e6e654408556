/*
 * cany.c -- CAny: one owned TVMFFIAny held by a Python object (tvm_ffi.core.CAny).
 *
 * TypeSchema.convert returns one, so a converted value keeps its FFI type (a small string
 * stays a SmallStr, a list[int] a List) until `_to_py_class_value` turns it into Python.
 */
#include "cany.h"

#include "convert_args.h"
#include "convert_result.h"
#include "error.h"
#include "string_types.h"

typedef struct {
  PyObject_HEAD
  TVMFFIAny value; /* owned */
} CAny;

static PyTypeObject CAny_Type;

static PyObject* cany_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  PyObject* value = Py_None;
  static char* kwlist[] = {"value", NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:CAny", kwlist, &value)) return NULL;
  CAny* self = (CAny*)type->tp_alloc(type, 0);
  if (self == NULL) return NULL;
  CoreArgSite site = {NULL, kCoreSiteConvert};
  if (core_py_to_owned_any(value, &self->value, &site) != 0) {
    Py_DECREF(self);
    return NULL;
  }
  return (PyObject*)self;
}

static void cany_dealloc(PyObject* op) {
  CAny* self = (CAny*)op;
  if (self->value.type_index >= kTVMFFIStaticObjectBegin && self->value.v_obj != NULL) {
    TVMFFIObjectDecRef(self->value.v_obj);
  }
  Py_TYPE(op)->tp_free(op);
}

static PyObject* cany_type_index(PyObject* op, void* closure) {
  (void)closure;
  return PyLong_FromLong(((CAny*)op)->value.type_index);
}

static PyObject* cany_repr(PyObject* op) {
  const TVMFFIAny* v = &((CAny*)op)->value;
  switch (v->type_index) {
    case kTVMFFINone: return PyUnicode_FromString("CAny(None)");
    case kTVMFFIInt: return PyUnicode_FromFormat("CAny(int=%lld)", (long long)v->v_int64);
    case kTVMFFIBool: return PyUnicode_FromString(v->v_int64 ? "CAny(bool=True)" : "CAny(bool=False)");
    case kTVMFFIFloat: {
      PyObject* f = PyFloat_FromDouble(v->v_float64);
      if (f == NULL) return NULL;
      PyObject* text = PyUnicode_FromFormat("CAny(float=%R)", f);
      Py_DECREF(f);
      return text;
    }
    default: break;
  }
  if (v->type_index >= kTVMFFIStaticObjectBegin) {
    return PyUnicode_FromFormat("CAny(object, type_index=%d)", (int)v->type_index);
  }
  return PyUnicode_FromFormat("CAny(type_index=%d)", (int)v->type_index);
}

static PyGetSetDef cany_getset[] = {
    {"type_index", cany_type_index, NULL, "FFI type index of the held value.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CAny_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core.CAny",
    .tp_basicsize = sizeof(CAny),
    .tp_dealloc = cany_dealloc,
    .tp_repr = cany_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "CAny(value=None)\n--\n\nAn owned FFI value: `value` converted as a call argument is.",
    .tp_new = cany_new,
    .tp_getset = cany_getset,
};

/* _to_py_class_value(cany): the Python value; small strings/bytes come back as String/Bytes,
 * as heap ones do. */
static PyObject* mod_to_py_class_value(PyObject* self, PyObject* arg) {
  (void)self;
  if (!PyObject_TypeCheck(arg, &CAny_Type)) {
    PyErr_Format(PyExc_TypeError, "_to_py_class_value expects a CAny, got `%s`", Py_TYPE(arg)->tp_name);
    return NULL;
  }
  TVMFFIAny copy = ((CAny*)arg)->value;
  if (copy.type_index >= kTVMFFIStaticObjectBegin && copy.v_obj != NULL) TVMFFIObjectIncRef(copy.v_obj);
  int32_t index = copy.type_index;
  PyObject* out = core_any_to_py(&copy);
  if (out == NULL || (index != kTVMFFISmallStr && index != kTVMFFISmallBytes)) return out;
  PyObject* cls = index == kTVMFFISmallStr ? (PyObject*)core_string_type : (PyObject*)core_bytes_type;
  PyObject* promoted = PyObject_CallOneArg(cls, out);
  Py_DECREF(out);
  return promoted;
}

static PyMethodDef cany_functions[] = {
    {"_to_py_class_value", mod_to_py_class_value, METH_O,
     "_to_py_class_value($module, value, /)\n--\n\n"
     "The Python value a CAny holds (strings and bytes as String/Bytes)."},
    {NULL, NULL, 0, NULL},
};

int core_cany_init(PyObject* module) {
  if (PyType_Ready(&CAny_Type) != 0) return -1;
  Py_INCREF(&CAny_Type);
  if (PyModule_AddObject(module, "CAny", (PyObject*)&CAny_Type) != 0) {
    Py_DECREF(&CAny_Type);
    return -1;
  }
  return PyModule_AddFunctions(module, cany_functions);
}
