/*
 * convert_public.c -- tvm_ffi.convert: the FFI value a call would pass for a Python value.
 *
 * The rules live in Python (tvm_ffi/_convert.py, handed over with _set_convert_rules); this
 * function answers the common values whose answer those rules fix, without running them: FFI
 * objects, None and plain numbers as they are, str as a String, exact lists, tuples and dicts
 * as the Array or Map a call would make of them, and plain Python functions,
 * builtins and bound methods wrapped as Functions (one FFI function object and its Python
 * wrapper). A function the rules would treat otherwise (one with a __tvm_ffi_object__ or
 * __dlpack__ attribute of its own) and every other value go through the rules.
 */
#include "convert_public.h"

#include "callback.h"
#include "convert_args.h"
#include "convert_result.h"
#include "function.h"
#include "object.h"
#include "string_types.h"

static PyObject* g_rules = NULL;          /* the Python rules: rules(value) -> converted */
static PyObject* g_str_object_protocol;   /* "__tvm_ffi_object__" */
static PyObject* g_str_dlpack;            /* "__dlpack__" */

/* Whether `func_dict` (a function's __dict__, or NULL) gives the function an attribute that
 * the rules test before they test callable(): -1 with exception on a failed lookup. */
static int has_protocol_attr(PyObject* func_dict) {
  if (func_dict == NULL || PyDict_GET_SIZE(func_dict) == 0) return 0;
  PyObject* names[2] = {g_str_object_protocol, g_str_dlpack};
  for (int i = 0; i < 2; ++i) {
    if (PyDict_GetItemWithError(func_dict, names[i]) != NULL) return 1;
    if (PyErr_Occurred()) return -1;
  }
  return 0;
}

/* 1: a plain function/builtin/bound method that the rules would wrap; 0: ask the rules. */
static int is_plain_callable(PyObject* value) {
  PyTypeObject* t = Py_TYPE(value);
  if (t == &PyMethod_Type) { /* attributes of a bound method are those of its function */
    value = PyMethod_GET_FUNCTION(value);
    t = Py_TYPE(value);
  }
  if (t == &PyCFunction_Type) return 1; /* builtins carry no attributes of their own */
  if (t != &PyFunction_Type) return 0;
  return has_protocol_attr(((PyFunctionObject*)value)->func_dict) == 0 ? 1 : 0;
}

/* _convert(value): the Python view of `value` converted the way an argument is. */
static PyObject* mod_convert_as_argument(PyObject* self, PyObject* value) {
  (void)self;
  CoreArgSite site = {NULL, kCoreSiteConvert};
  TVMFFIAny owned;
  if (core_py_to_owned_any(value, &owned, &site) != 0) return NULL;
  return core_any_to_py(&owned);
}

static PyObject* convert_value(PyObject* value) {
  PyTypeObject* t = Py_TYPE(value);
  if (value == Py_None || t == &PyLong_Type || t == &PyFloat_Type || t == &PyBool_Type ||
      PyObject_TypeCheck(value, &CoreObject_Type)) {
    Py_INCREF(value);
    return value;
  }
  if (t == &PyUnicode_Type) return PyObject_CallOneArg((PyObject*)core_string_type, value);
  if (t == &PyBytes_Type && core_bytes_type != NULL) {
    return PyObject_CallOneArg((PyObject*)core_bytes_type, value);
  }
  if (t == &PyList_Type || t == &PyTuple_Type || t == &PyDict_Type) {
    return mod_convert_as_argument(NULL, value); /* the Array or Map a call would make */
  }
  if (is_plain_callable(value)) {
    TVMFFIObjectHandle handle;
    if (core_make_py_function(value, &handle) != 0) return NULL;
    return core_function_from_handle(handle, NULL);
  }
  if (PyErr_Occurred()) return NULL;
  if (g_rules == NULL) {
    PyErr_SetString(PyExc_RuntimeError, "convert: the conversion rules are not set up "
                                        "(tvm_ffi._convert was not imported)");
    return NULL;
  }
  return PyObject_CallOneArg(g_rules, value);
}

/* convert(value): positional or keyword, as the reference's Python function takes it. */
static PyObject* mod_convert(PyObject* self, PyObject* const* args, Py_ssize_t nargsf,
                             PyObject* kwnames) {
  (void)self;
  Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
  if (CORE_LIKELY(nargs == 1 && nkw == 0)) return convert_value(args[0]);
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, k);
    if (PyUnicode_CompareWithASCIIString(key, "value") != 0) {
      PyErr_Format(PyExc_TypeError, "convert() got an unexpected keyword argument '%U'", key);
      return NULL;
    }
  }
  if (nargs > 1) {
    PyErr_Format(PyExc_TypeError, "convert() takes 1 positional argument but %zd were given",
                 nargs);
  } else if (nargs + nkw == 0) {
    PyErr_SetString(PyExc_TypeError, "convert() missing 1 required argument: 'value'");
  } else if (nargs + nkw > 1) {
    PyErr_SetString(PyExc_TypeError, "convert() got multiple values for argument 'value'");
  } else {
    return convert_value(args[0]); /* convert(value=...) */
  }
  return NULL;
}

static PyObject* mod_set_convert_rules(PyObject* self, PyObject* rules) {
  (void)self;
  if (!PyCallable_Check(rules)) {
    PyErr_Format(PyExc_TypeError, "_set_convert_rules() expects a callable, got `%s`",
                 Py_TYPE(rules)->tp_name);
    return NULL;
  }
  Py_INCREF(rules);
  Py_XSETREF(g_rules, rules);
  Py_RETURN_NONE;
}

static PyMethodDef convert_methods[] = {
    {"convert", (PyCFunction)(void (*)(void))mod_convert, METH_FASTCALL | METH_KEYWORDS,
     "convert($module, /, value)\n"
     "--\n"
     "\n"
     "The FFI value a call would pass for ``value``.\n"
     "\n"
     "``str``/``bytes`` -> ``core.String``/``core.Bytes``; ``list``/``tuple`` -> ``Array``;\n"
     "``dict`` -> ``Map``; callables -> ``Function``; exceptions -> ``core.Error``; NumPy/PyTorch\n"
     "dtypes -> :class:`tvm_ffi.dtype`; FFI objects, numbers, ``None`` and devices as they are.\n"
     "\n"
     "Parameters\n"
     "----------\n"
     "value : Any\n"
     "    A Python value.\n"
     "\n"
     "Returns\n"
     "-------\n"
     "Any\n"
     "    The FFI value (an ``Object``, ``String``, ``Bytes``, number, device, dtype or ``None``);\n"
     "    other Python objects become an ``OpaquePyObject`` holding them.\n"
     "\n"
     "Examples\n"
     "--------\n"
     ">>> type(tvm_ffi.convert(\"hello\")).__name__, type(tvm_ffi.convert(lambda x: x)).__name__\n"
     "('String', 'Function')"},
    {"_convert", mod_convert_as_argument, METH_O, "Converts a value as an FFI argument and back."},
    {"_set_convert_rules", mod_set_convert_rules, METH_O,
     "Sets the Python function that converts the values convert() does not decide itself."},
    {NULL, NULL, 0, NULL},
};

int core_convert_public_init(PyObject* module) {
  g_str_object_protocol = PyUnicode_InternFromString("__tvm_ffi_object__");
  g_str_dlpack = PyUnicode_InternFromString("__dlpack__");
  if (g_str_object_protocol == NULL || g_str_dlpack == NULL) return -1;
  return PyModule_AddFunctions(module, convert_methods);
}
