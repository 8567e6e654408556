/*
 * object_services.c -- what every Object does through the runtime's global functions: pickling
 * (__reduce__/__getstate__/__setstate__), copy.copy/copy.deepcopy, and tvm_ffi.convert's
 * OpaquePyObject wrapping.
 *
 * These need the call layer and result conversion, which sit above object.c; so they live here
 * and are added to CObject's or Object's dict after PyType_Ready (core_type_add_methods). Subclasses
 * find them through the MRO like any method.
 */
#include "object_services.h"

#include "call.h"
#include "convert_result.h"
#include "globals.h"
#include "object.h"
#include "type_table.h"

/* Pickling goes through the JSON object graph, as in the reference: __reduce__ gives
 * (tvm_ffi.core._new_object, (cls,), {"handle": <document or None>}) and __setstate__ loads the
 * document. Types the graph cannot hold (functions, tensors) fail with its TypeError. */
/* Calls global `name` with one argument and converts the result. */
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

/* copy.deepcopy: the runtime's ffi.DeepCopy (sharing and cycles kept). The memo is optional, as
 * in the reference; copy.deepcopy passes one, which is not read (DeepCopy keeps its own). */
static PyObject* object_deepcopy(PyObject* op, PyObject* const* args, Py_ssize_t nargs) {
  (void)args;
  if (nargs > 1) {
    return PyErr_Format(PyExc_TypeError, "__deepcopy__() takes at most 1 argument (%zd given)", nargs);
  }
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

static PyMethodDef object_service_methods[] = {
    {"__reduce__", object_reduce, METH_NOARGS, "Pickles through the JSON object graph."},
    {"__getstate__", object_getstate, METH_NOARGS, "{'handle': JSON graph document or None}."},
    {"__setstate__", object_setstate, METH_O, "Loads a state made by __getstate__."},
    {NULL, NULL, 0, NULL},
};

/* Copies are Object's (reflected types and containers), not CObject's: a function, a tensor or
 * an error copies through __reduce__, as pickling does (an error by value, the others refuse
 * with the JSON graph's TypeError), as in the reference. */
static PyMethodDef object_copy_methods[] = {
    {"__copy__", object_copy, METH_NOARGS, "Shallow copy through __ffi_shallow_copy__."},
    {"__deepcopy__", (PyCFunction)(void (*)(void))object_deepcopy, METH_FASTCALL,
     "__deepcopy__($self, memo=None, /)\n--\n\nDeep copy through the runtime's ffi.DeepCopy."},
    {NULL, NULL, 0, NULL},
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

int core_object_services_init(PyObject* module) {
  if (core_type_add_methods(&CoreObject_Type, object_service_methods) != 0 ||
      core_type_add_methods(&CoreRegisteredObject_Type, object_copy_methods) != 0) {
    return -1;
  }
  return PyModule_AddFunctions(module, opaque_module_methods);
}
