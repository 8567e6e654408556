/*
 * reflection_methods.c -- callables register_object puts on reflected classes.
 *
 *  - InstanceMethod: a reflected instance method. Flagged as a method descriptor, so
 *    `obj.method(x)` calls the FFI function with (obj, x) without making a bound method.
 *  - ConstructorInit: `__init__`/`__ffi_init__` calling the type's FFI constructor and adopting
 *    the object it returns as the instance's handle.
 */
#include "reflection_methods.h"

#include <structmember.h>

#include "call.h"
#include "convert_result.h"
#include "function.h"
#include "object.h"
#include "state.h"

/* ---- InstanceMethod ---- */

typedef struct {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject* func; /* a Function */
  PyObject* name;
  PyObject* doc;
  PyObject* qualname;
} InstanceMethod;

static PyObject* method_vectorcall(PyObject* op, PyObject* const* args, size_t nargsf,
                                   PyObject* kwnames) {
  return PyObject_Vectorcall(((InstanceMethod*)op)->func, args, nargsf, kwnames);
}

static PyObject* method_get(PyObject* op, PyObject* obj, PyObject* type) {
  (void)type;
  if (obj == NULL || obj == Py_None) {
    Py_INCREF(op);
    return op;
  }
  return PyMethod_New(op, obj);
}

/* InstanceMethod(func, name, doc, qualname) */
static PyObject* method_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  PyObject *func, *name, *doc, *qualname;
  static char* kwlist[] = {"func", "name", "doc", "qualname", NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OUOU:InstanceMethod", kwlist, &func, &name, &doc,
                                   &qualname)) {
    return NULL;
  }
  if (!PyCallable_Check(func)) {
    PyErr_Format(PyExc_TypeError, "InstanceMethod expects a callable, got `%s`",
                 Py_TYPE(func)->tp_name);
    return NULL;
  }
  InstanceMethod* self = (InstanceMethod*)type->tp_alloc(type, 0);
  if (self == NULL) return NULL;
  self->vectorcall = method_vectorcall;
  Py_INCREF(func);
  self->func = func;
  Py_INCREF(name);
  self->name = name;
  Py_INCREF(doc);
  self->doc = doc;
  Py_INCREF(qualname);
  self->qualname = qualname;
  return (PyObject*)self;
}

static void method_dealloc(PyObject* op) {
  InstanceMethod* self = (InstanceMethod*)op;
  Py_XDECREF(self->func);
  Py_XDECREF(self->name);
  Py_XDECREF(self->doc);
  Py_XDECREF(self->qualname);
  Py_TYPE(op)->tp_free(op);
}

static PyObject* method_get_doc(PyObject* op, void* closure) {
  (void)closure;
  PyObject* doc = ((InstanceMethod*)op)->doc;
  Py_INCREF(doc);
  return doc;
}

/* What inspect.signature reports, as for the reference's methods: the object, then the FFI
 * function's arguments (their names are not reflected). */
static PyObject* method_get_text_signature(PyObject* op, void* closure) {
  (void)op;
  (void)closure;
  return PyUnicode_FromString("(self, *args)");
}

static PyMemberDef method_members[] = {
    {"__func__", T_OBJECT, offsetof(InstanceMethod, func), READONLY, "The FFI function."},
    {"__name__", T_OBJECT, offsetof(InstanceMethod, name), READONLY, "Method name."},
    {"__qualname__", T_OBJECT, offsetof(InstanceMethod, qualname), READONLY, "Qualified name."},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef method_getset[] = {
    {"__doc__", method_get_doc, NULL, NULL, NULL},
    {"__text_signature__", method_get_text_signature, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject InstanceMethod_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core.InstanceMethod",
    .tp_basicsize = sizeof(InstanceMethod),
    .tp_dealloc = method_dealloc,
    .tp_vectorcall_offset = offsetof(InstanceMethod, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "A reflected instance method: calls its FFI function with the object first.",
    .tp_new = method_new,
    .tp_descr_get = method_get,
    .tp_members = method_members,
    .tp_getset = method_getset,
};

/* ---- ConstructorInit ---- */

/* `__init__` / `__ffi_init__` of a reflected class: calls the type's FFI constructor with the
 * positional arguments (keywords follow the KWARGS marker as name/value pairs) and adopts the
 * object it returns as the instance's handle. A method descriptor, so `Cls(...)` reaches it
 * without a bound method or a Python frame. */
typedef struct {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject* func; /* a Function */
  PyObject* qualname;
  PyObject* signature; /* what inspect.signature reports (set by the class binding), or NULL */
} ConstructorInit;

static PyObject* g_kwargs_marker = NULL; /* _core.KWARGS, fetched on first use */

/* Whether an object of type `derived` is a strict descendant of type `base`. */
static int is_strict_subtype(int32_t derived, int32_t base) {
  const TVMFFITypeInfo* d = TVMFFIGetTypeInfo(derived);
  const TVMFFITypeInfo* b = TVMFFIGetTypeInfo(base);
  return d != NULL && b != NULL && d->type_depth > b->type_depth &&
         d->type_ancestors[b->type_depth]->type_index == base;
}

/* `super().__init__(...)` reaching a parent type's constructor on an instance already made as a
 * subclass (a py_class __init__ that allocated the right type first): the parent's constructor
 * built a separate, smaller object. Adopting it would drop the subclass's storage and let later
 * field writes run past it; its fields are copied into the instance instead. */
static int copy_parent_fields(PyObject* self, TVMFFIObjectHandle dst, TVMFFIObjectHandle src) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(TVMFFIObjectGetTypeIndex(src));
  for (int32_t depth = 0; depth <= info->type_depth; ++depth) {
    const TVMFFITypeInfo* level = depth < info->type_depth ? info->type_ancestors[depth] : info;
    for (int32_t i = 0; i < level->num_fields; ++i) {
      const TVMFFIFieldInfo* f = &level->fields[i];
      if (f->setter == NULL) {
        PyErr_Format(PyExc_TypeError,
                     "cannot run the constructor of `%.*s` on a `%s` instance: its field `%.*s` is "
                     "read-only", (int)level->type_key.size, level->type_key.data,
                     Py_TYPE(self)->tp_name, (int)f->name.size, f->name.data);
        return -1;
      }
      TVMFFIAny value = {0};
      int rc = f->getter((char*)src + f->offset, &value);
      if (rc == 0) {
        rc = core_field_setter_call(f->setter, (f->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) != 0,
                                    (char*)dst + f->offset, &value);
      }
      if (value.type_index >= kTVMFFIStaticObjectBegin && value.v_obj != NULL) {
        TVMFFIObjectDecRef(value.v_obj);
      }
      if (rc != 0) {
        core_raise_from_rc(rc);
        return -1;
      }
    }
  }
  return 0;
}

static int adopt_result(PyObject* self, TVMFFIAny* result) {
  if (result->type_index < kTVMFFIStaticObjectBegin || result->v_obj == NULL) {
    PyObject* got = core_any_to_py(result);
    PyErr_Format(PyExc_TypeError, "constructor of `%s` returned `%s`, expected an FFI object",
                 Py_TYPE(self)->tp_name, got != NULL ? Py_TYPE(got)->tp_name : "?");
    Py_XDECREF(got);
    return -1;
  }
  TVMFFIObjectHandle old = ((CoreObject*)self)->chandle;
  if (old != NULL && is_strict_subtype(TVMFFIObjectGetTypeIndex(old), result->type_index)) {
    int rc = copy_parent_fields(self, old, result->v_obj);
    TVMFFIObjectDecRef(result->v_obj);
    return rc;
  }
  ((CoreObject*)self)->chandle = result->v_obj;
  if (old != NULL) TVMFFIObjectDecRef(old);
  return 0;
}

static PyObject* ctor_vectorcall(PyObject* op, PyObject* const* args, size_t nargsf,
                                 PyObject* kwnames) {
  ConstructorInit* ctor = (ConstructorInit*)op;
  Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  if (CORE_UNLIKELY(nargs < 1 || !core_is_object(args[0]))) {
    PyErr_Format(PyExc_TypeError, "%U() needs a tvm_ffi Object instance first", ctor->qualname);
    return NULL;
  }
  PyObject* self = args[0];
  CoreFunction* func = (CoreFunction*)ctor->func;
  TVMFFIAny result = {0};
  CoreFramework fw;
  Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
  int rc;
  if (CORE_LIKELY(nkw == 0)) {
    rc = core_call(func->base.chandle, args + 1, nargs - 1, func->name, &result, &fw);
  } else {
    if (g_kwargs_marker == NULL) {
      g_kwargs_marker = PyObject_GetAttrString(core_module, "KWARGS");
      if (g_kwargs_marker == NULL) return NULL;
    }
    /* positionals, KWARGS, name0, value0, ... */
    Py_ssize_t total = nargs - 1 + 1 + 2 * nkw;
    PyObject* stack[32];
    PyObject** flat =
        total <= 32 ? stack : (PyObject**)PyMem_Malloc((size_t)total * sizeof(PyObject*));
    if (flat == NULL) return PyErr_NoMemory();
    Py_ssize_t n = 0;
    for (Py_ssize_t i = 1; i < nargs; ++i) flat[n++] = args[i];
    flat[n++] = g_kwargs_marker;
    for (Py_ssize_t i = 0; i < nkw; ++i) {
      flat[n++] = PyTuple_GET_ITEM(kwnames, i);
      flat[n++] = args[nargs + i];
    }
    rc = core_call(func->base.chandle, flat, total, func->name, &result, &fw);
    if (flat != stack) PyMem_Free(flat);
  }
  if (rc != 0 || adopt_result(self, &result) != 0) return NULL;
  Py_RETURN_NONE;
}

static PyObject* ctor_get(PyObject* op, PyObject* obj, PyObject* type) {
  (void)type;
  if (obj == NULL || obj == Py_None) {
    Py_INCREF(op);
    return op;
  }
  return PyMethod_New(op, obj);
}

/* ConstructorInit(func, qualname) */
static PyObject* ctor_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  PyObject *func, *qualname;
  static char* kwlist[] = {"func", "qualname", NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!U:ConstructorInit", kwlist,
                                   &CoreFunction_Type, &func, &qualname)) {
    return NULL;
  }
  if (((CoreObject*)func)->chandle == NULL) {
    PyErr_SetString(PyExc_ValueError, "ConstructorInit needs a live Function");
    return NULL;
  }
  ConstructorInit* self = (ConstructorInit*)type->tp_alloc(type, 0);
  if (self == NULL) return NULL;
  self->vectorcall = ctor_vectorcall;
  Py_INCREF(func);
  self->func = func;
  Py_INCREF(qualname);
  self->qualname = qualname;
  return (PyObject*)self;
}

/* The signature's annotations may name the class whose __init__ this is: a cycle the GC breaks. */
static int ctor_traverse(PyObject* op, visitproc visit, void* arg) {
  ConstructorInit* self = (ConstructorInit*)op;
  Py_VISIT(self->func);
  Py_VISIT(self->signature);
  return 0;
}

static int ctor_clear(PyObject* op) {
  Py_CLEAR(((ConstructorInit*)op)->signature);
  return 0;
}

static void ctor_dealloc(PyObject* op) {
  ConstructorInit* self = (ConstructorInit*)op;
  PyObject_GC_UnTrack(op);
  Py_XDECREF(self->func);
  Py_XDECREF(self->qualname);
  Py_XDECREF(self->signature);
  Py_TYPE(op)->tp_free(op);
}

static PyMemberDef ctor_members[] = {
    {"__func__", T_OBJECT, offsetof(ConstructorInit, func), READONLY, "The FFI constructor."},
    {"__qualname__", T_OBJECT, offsetof(ConstructorInit, qualname), READONLY, "Qualified name."},
    {"__signature__", T_OBJECT, offsetof(ConstructorInit, signature), 0,
     "The inspect.Signature of this __init__ (self first), None when unknown."},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject ConstructorInit_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core.ConstructorInit",
    .tp_basicsize = sizeof(ConstructorInit),
    .tp_dealloc = ctor_dealloc,
    .tp_vectorcall_offset = offsetof(ConstructorInit, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR |
                Py_TPFLAGS_HAVE_GC,
    .tp_doc = "__init__ of a reflected class: (self, *args, **kwargs) -> the type's __ffi_init__.",
    .tp_traverse = ctor_traverse,
    .tp_clear = ctor_clear,
    .tp_new = ctor_new,
    .tp_descr_get = ctor_get,
    .tp_members = ctor_members,
};

/* ---- module registration ---- */

int core_reflection_methods_init(PyObject* module) {
  if (PyType_Ready(&InstanceMethod_Type) != 0 || PyType_Ready(&ConstructorInit_Type) != 0) {
    return -1;
  }
  Py_INCREF(&InstanceMethod_Type);
  if (PyModule_AddObject(module, "InstanceMethod", (PyObject*)&InstanceMethod_Type) != 0) return -1;
  Py_INCREF(&ConstructorInit_Type);
  return PyModule_AddObject(module, "ConstructorInit", (PyObject*)&ConstructorInit_Type);
}
