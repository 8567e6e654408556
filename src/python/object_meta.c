/*
 * object_meta.c -- `_ObjectSlotsMeta`, the metaclass of FFI object classes (rules in
 * object_meta.h).
 *
 * Its `__new__` adds `__slots__ = ()` to a class namespace without one and hands over to
 * ABCMeta.__new__. Its `__instancecheck__`/`__subclasscheck__` return True for a real subclass
 * relation straight from the type's MRO; otherwise a class made by ABCMeta (its own `_abc_impl`)
 * asks the ABC registry through the C functions of `_abc` (what ABCMeta's Python methods call),
 * and the C types (Object, Function, Tensor, ...) answer as `type` does.
 */
#include "object_meta.h"

static PyObject* g_abc_new;            /* abc.ABCMeta.__new__ */
static PyObject* g_abc_instancecheck;  /* _abc._abc_instancecheck(cls, instance) */
static PyObject* g_abc_subclasscheck;  /* _abc._abc_subclasscheck(cls, subclass) */
static PyObject* g_type_instancecheck; /* type.__instancecheck__ */
static PyObject* g_type_subclasscheck; /* type.__subclasscheck__ */
static PyObject* g_str_slots;          /* "__slots__" */
static PyObject* g_str_abc_impl;       /* "_abc_impl" */
static PyObject* g_no_slots;           /* () */

/* `__new__(mcls, name, bases, namespace, **kwargs)`, a staticmethod as ABCMeta's is: a C tp_new
 * would fail type.__new__'s check that a metaclass's own tp_new is type's or Python code. */
static PyObject* meta_new(PyObject* unused, PyObject* args, PyObject* kwds) {
  (void)unused;
  if (PyTuple_GET_SIZE(args) == 4) { /* other shapes are ABCMeta's errors to report */
    PyObject* ns = PyTuple_GET_ITEM(args, 3);
    int has = PySequence_Contains(ns, g_str_slots);
    if (has < 0 || (has == 0 && PyObject_SetItem(ns, g_str_slots, g_no_slots) < 0)) return NULL;
  }
  return PyObject_Call(g_abc_new, args, kwds);
}

static PyMethodDef meta_new_def = {"__new__", (PyCFunction)(void (*)(void))meta_new,
                                   METH_VARARGS | METH_KEYWORDS,
                                   "__new__(mcls, name, bases, namespace, /, **kwargs)"};

/* 1 when ABCMeta.__new__ made cls (it keeps `_abc_impl` in the class's own dict), 0 if not. */
static int made_by_abcmeta(PyObject* cls) {
  PyObject* dict = ((PyTypeObject*)cls)->tp_dict;
  if (dict == NULL) return 0;
  PyObject* impl = PyDict_GetItemWithError(dict, g_str_abc_impl);
  return impl != NULL ? 1 : (PyErr_Occurred() ? -1 : 0);
}

static PyObject* ask_instead(PyObject* cls, PyObject* other, PyObject* abc_check, PyObject* type_check) {
  int abc = made_by_abcmeta(cls);
  if (abc < 0) return NULL;
  PyObject* args[2] = {cls, other};
  return PyObject_Vectorcall(abc ? abc_check : type_check, args, 2, NULL);
}

static PyObject* meta_instancecheck(PyObject* cls, PyObject* instance) {
  if (PyObject_TypeCheck(instance, (PyTypeObject*)cls)) Py_RETURN_TRUE;
  return ask_instead(cls, instance, g_abc_instancecheck, g_type_instancecheck);
}

static PyObject* meta_subclasscheck(PyObject* cls, PyObject* subclass) {
  if (PyType_Check(subclass) && PyType_IsSubtype((PyTypeObject*)subclass, (PyTypeObject*)cls)) {
    Py_RETURN_TRUE;
  }
  return ask_instead(cls, subclass, g_abc_subclasscheck, g_type_subclasscheck);
}

static PyMethodDef meta_methods[] = {
    {"__instancecheck__", meta_instancecheck, METH_O, "isinstance(instance, cls)."},
    {"__subclasscheck__", meta_subclasscheck, METH_O, "issubclass(subclass, cls)."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot meta_slots[] = {
    {Py_tp_methods, meta_methods},
    {Py_tp_doc, (void*)"Metaclass of FFI object classes: `__slots__ = ()` unless the class body "
                       "names its slots; an abc.ABCMeta, so object classes may derive from ABCs."},
    {0, NULL},
};

static PyType_Spec meta_spec = {
    .name = "tvm_ffi.core._ObjectSlotsMeta",
    .basicsize = 0, /* as ABCMeta */
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = meta_slots,
};

static PyObject* attr_of(const char* module, const char* name) {
  PyObject* mod = PyImport_ImportModule(module);
  if (mod == NULL) return NULL;
  PyObject* value = PyObject_GetAttrString(mod, name);
  Py_DECREF(mod);
  return value;
}

PyTypeObject* core_object_meta_init(PyObject* module) {
  PyObject* abc_meta = attr_of("abc", "ABCMeta");
  if (abc_meta == NULL) return NULL;
  g_abc_new = PyObject_GetAttrString(abc_meta, "__new__");
  g_abc_instancecheck = attr_of("_abc", "_abc_instancecheck");
  g_abc_subclasscheck = attr_of("_abc", "_abc_subclasscheck");
  g_type_instancecheck = PyObject_GetAttrString((PyObject*)&PyType_Type, "__instancecheck__");
  g_type_subclasscheck = PyObject_GetAttrString((PyObject*)&PyType_Type, "__subclasscheck__");
  g_str_slots = PyUnicode_InternFromString("__slots__");
  g_str_abc_impl = PyUnicode_InternFromString("_abc_impl");
  g_no_slots = PyTuple_New(0);
  PyObject* meta = NULL;
  if (g_abc_new != NULL && g_abc_instancecheck != NULL && g_abc_subclasscheck != NULL &&
      g_type_instancecheck != NULL && g_type_subclasscheck != NULL && g_str_slots != NULL &&
      g_str_abc_impl != NULL && g_no_slots != NULL) {
    PyObject* bases = PyTuple_Pack(1, abc_meta); /* 3.9 takes only a tuple */
    meta = bases != NULL ? PyType_FromSpecWithBases(&meta_spec, bases) : NULL;
    Py_XDECREF(bases);
  }
  Py_DECREF(abc_meta);
  if (meta == NULL) return NULL;
  PyObject* func = PyCFunction_New(&meta_new_def, NULL);
  PyObject* static_new = func != NULL ? PyStaticMethod_New(func) : NULL;
  Py_XDECREF(func);
  if (static_new == NULL || PyObject_SetAttrString(meta, "__new__", static_new) < 0) {
    Py_XDECREF(static_new);
    Py_DECREF(meta);
    return NULL;
  }
  Py_DECREF(static_new);
  if (PyModule_AddObjectRef(module, "_ObjectSlotsMeta", meta) < 0) {
    Py_DECREF(meta);
    return NULL;
  }
  return (PyTypeObject*)meta; /* the reference above stays: static types point at it for good */
}
