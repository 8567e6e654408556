/*
 * function.c -- the Function type: FFI functions called from Python through vectorcall.
 *
 * A call goes through the call layer (call.h) and converts the owned result; a call that took
 * framework tensors returns its tensors as that framework's (framework.h).
 *
 * GIL: calls release it unless gil_policy.c says otherwise (runtime built-ins keep it, and
 * TVM_FFI_RELEASE_GIL_BY_DEFAULT=0 keeps it everywhere); Function.release_gil overrides that
 * per function object. The policy needs the handle, which is set after construction, so it is
 * looked up on the first call or read; the choice then installs the matching vectorcall.
 */
#include "function.h"

#include <stdlib.h>

#include "call.h"
#include "convert_result.h"
#include "error.h"
#include "framework.h"
#include "gil_policy.h"
#include "type_table.h"

static PyObject* function_display_name(CoreFunction* self) {
  if (self->name != NULL) {
    Py_INCREF(self->name);
    return self->name;
  }
  return PyUnicode_FromString("function");
}

static PyObject* reject_kwargs(CoreFunction* self, PyObject* kwnames) {
  PyObject* name = function_display_name(self);
  if (name == NULL) return NULL;
  PyErr_Format(PyExc_TypeError,
               "`%U` does not accept keyword arguments (got %R); FFI functions take "
               "positional arguments only",
               name, kwnames);
  Py_DECREF(name);
  return NULL;
}

/* Both vectorcalls are this body with `release_gil` a constant. */
static inline __attribute__((always_inline)) PyObject* function_call(
    PyObject* callable, PyObject* const* args, size_t nargsf, PyObject* kwnames,
    int release_gil) {
  CoreFunction* self = (CoreFunction*)callable;
  if (CORE_UNLIKELY(kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)) {
    return reject_kwargs(self, kwnames);
  }
  TVMFFIObjectHandle handle = self->base.chandle;
  if (CORE_UNLIKELY(handle == NULL)) {
    PyErr_SetString(PyExc_ValueError, "cannot call a Function with a NULL handle");
    return NULL;
  }
  TVMFFIAny result;
  CoreFramework fw;
  Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  int rc = release_gil ? core_call_release_gil(handle, args, nargs, self->name, &result, &fw)
                       : core_call(handle, args, nargs, self->name, &result, &fw);
  if (rc != 0) return NULL;
  if (result.type_index == kTVMFFINone) Py_RETURN_NONE; /* kernels mostly return nothing */
  /* A call that took framework tensors returns its tensors as ones of that framework, also
   * those inside returned containers. */
  if (CORE_UNLIKELY(fw.api != NULL) && result.type_index >= kTVMFFIStaticObjectBegin) {
    return core_any_to_py_in_framework(&result, fw.api);
  }
  return core_any_to_py(&result);
}

static PyObject* function_vectorcall(PyObject* callable, PyObject* const* args, size_t nargsf,
                                     PyObject* kwnames) {
  return function_call(callable, args, nargsf, kwnames, 0);
}

static PyObject* function_vectorcall_release_gil(PyObject* callable, PyObject* const* args,
                                                 size_t nargsf, PyObject* kwnames) {
  return function_call(callable, args, nargsf, kwnames, 1);
}

/* The call variant is picked here, once, not per call. */
static void set_release_gil(CoreFunction* self, int flag) {
  self->release_gil = flag;
  self->vectorcall = flag ? function_vectorcall_release_gil : function_vectorcall;
}

/* Decides release_gil from the policy (a NULL handle gets the default, and fails when called). */
static void decide_release_gil(CoreFunction* self) {
  TVMFFIObjectHandle handle = self->base.chandle;
  set_release_gil(self, handle != NULL ? core_release_gil_for(handle) : core_release_gil_by_default());
}

/* The vectorcall of a function whose release_gil is not decided yet. */
static PyObject* function_vectorcall_first(PyObject* callable, PyObject* const* args, size_t nargsf,
                                           PyObject* kwnames) {
  CoreFunction* self = (CoreFunction*)callable;
  decide_release_gil(self);
  return self->vectorcall(callable, args, nargsf, kwnames);
}

/* ---- the type ---- */

static PyObject* function_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
  (void)args;
  (void)kwds;
  CoreFunction* self = (CoreFunction*)type->tp_alloc(type, 0);
  if (self == NULL) return NULL;
  self->base.chandle = NULL;
  self->vectorcall = function_vectorcall_first;
  self->name = NULL;
  self->release_gil = -1; /* decided on the first call or read (gil_policy.h) */
  self->dict = NULL;
  return (PyObject*)self;
}

/* The attribute dict may hold anything, the function itself included, so Functions take part
 * in garbage collection; the FFI handle holds no Python references the collector could see. */
static int function_traverse(PyObject* op, visitproc visit, void* arg) {
  Py_VISIT(((CoreFunction*)op)->dict);
  return 0;
}

static int function_clear(PyObject* op) {
  Py_CLEAR(((CoreFunction*)op)->dict);
  return 0;
}

static void function_dealloc(PyObject* op) {
  PyObject_GC_UnTrack(op);
  Py_CLEAR(((CoreFunction*)op)->name);
  Py_CLEAR(((CoreFunction*)op)->dict);
  CoreObject_Type.tp_dealloc(op);
}

static PyObject* function_get_release_gil(PyObject* op, void* closure) {
  (void)closure;
  CoreFunction* self = (CoreFunction*)op;
  if (self->release_gil < 0) decide_release_gil(self);
  return PyBool_FromLong(self->release_gil);
}

static int function_set_release_gil(PyObject* op, PyObject* value, void* closure) {
  (void)closure;
  if (value == NULL) {
    PyErr_SetString(PyExc_AttributeError, "cannot delete release_gil");
    return -1;
  }
  int flag = PyObject_IsTrue(value);
  if (flag < 0) return -1;
  set_release_gil((CoreFunction*)op, flag);
  return 0;
}

PyObject* core_function_from_handle(TVMFFIObjectHandle handle, PyObject* name) {
  PyObject* obj = core_object_from_handle(handle);
  if (obj != NULL && name != NULL && PyObject_TypeCheck(obj, &CoreFunction_Type)) {
    Py_INCREF(name);
    Py_XSETREF(((CoreFunction*)obj)->name, name);
  }
  return obj;
}

static int symbol_address(PyObject* symbol, void** out) {
  *out = PyLong_AsVoidPtr(symbol);
  if (*out == NULL) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "C symbol address is 0 (NULL)");
    return -1;
  }
  return 0;
}

/* Function.__from_extern_c__(c_symbol, *, keep_alive_object=None): the raw safe-call address
 * becomes the function; the keep-alive object is its resource, released with it. */
static PyObject* function_from_extern_c(PyObject* unused, PyObject* args, PyObject* kwds) {
  (void)unused;
  static char* kwlist[] = {"c_symbol", "keep_alive_object", NULL};
  PyObject *symbol, *keep_alive = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$O:__from_extern_c__", kwlist, &symbol,
                                   &keep_alive)) {
    return NULL;
  }
  void* address;
  if (symbol_address(symbol, &address) != 0) return NULL;
  PyObject* resource = keep_alive == Py_None ? NULL : keep_alive;
  Py_XINCREF(resource);
  TVMFFIObjectHandle handle;
  if (TVMFFIFunctionCreate(resource, (TVMFFISafeCallType)address,
                           resource != NULL ? core_pyobject_deleter : NULL, &handle) != 0) {
    Py_XDECREF(resource);
    return core_raise_from_rc(-1);
  }
  return core_function_from_handle(handle, NULL);
}

/* MLIR packed convention: void f(void** packed), packed = {&handle, &args, &num_args,
 * &result, &ret_code}. */
typedef struct {
  void (*packed_fn)(void**);
  PyObject* keep_alive;
} MlirPackedResource;

static int mlir_packed_call(void* self, const TVMFFIAny* args, int32_t num_args,
                            TVMFFIAny* result) {
  MlirPackedResource* res = (MlirPackedResource*)self;
  void* handle = res->keep_alive;
  int ret_code = 0;
  void* packed[5] = {&handle, &args, &num_args, &result, &ret_code};
  res->packed_fn(packed);
  return ret_code;
}

static void mlir_packed_release(void* self) {
  MlirPackedResource* res = (MlirPackedResource*)self;
  core_pyobject_deleter(res->keep_alive);
  free(res);
}

static PyObject* function_from_mlir_packed(PyObject* unused, PyObject* args, PyObject* kwds) {
  (void)unused;
  static char* kwlist[] = {"mlir_packed_symbol", "keep_alive_object", NULL};
  PyObject *symbol, *keep_alive = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$O:__from_mlir_packed_safe_call__", kwlist,
                                   &symbol, &keep_alive)) {
    return NULL;
  }
  void* address;
  if (symbol_address(symbol, &address) != 0) return NULL;
  /* malloc, not PyMem: the release may run on a thread without the GIL. */
  MlirPackedResource* res = (MlirPackedResource*)malloc(sizeof(MlirPackedResource));
  if (res == NULL) return PyErr_NoMemory();
  *(void**)&res->packed_fn = address;
  res->keep_alive = keep_alive == Py_None ? NULL : keep_alive;
  Py_XINCREF(res->keep_alive);
  TVMFFIObjectHandle handle;
  if (TVMFFIFunctionCreate(res, mlir_packed_call, mlir_packed_release, &handle) != 0) {
    Py_XDECREF(res->keep_alive);
    free(res);
    return core_raise_from_rc(-1);
  }
  return core_function_from_handle(handle, NULL);
}

static PyMethodDef function_methods[] = {
    {"__from_extern_c__", (PyCFunction)(void (*)(void))function_from_extern_c,
     METH_VARARGS | METH_KEYWORDS | METH_STATIC,
     "__from_extern_c__(c_symbol, *, keep_alive_object=None)\n--\n\n"
     "Function from the address of a TVMFFISafeCallType C function."},
    {"__from_mlir_packed_safe_call__", (PyCFunction)(void (*)(void))function_from_mlir_packed,
     METH_VARARGS | METH_KEYWORDS | METH_STATIC,
     "__from_mlir_packed_safe_call__(mlir_packed_symbol, *, keep_alive_object=None)\n--\n\n"
     "Function from the address of a `void f(void** packed)` MLIR packed entry."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef function_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {"release_gil", function_get_release_gil, function_set_release_gil,
     "Whether calls release the GIL (default False).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject CoreFunction_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core.Function",
    .tp_basicsize = sizeof(CoreFunction),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_VECTORCALL |
                Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Function()\n"
              "--\n"
              "\n"
              "An FFI function (``ffi.Function``); call it with positional arguments.\n"
              "\n"
              "Functions come from :func:`tvm_ffi.get_global_func`, from modules, or from Python callables\n"
              "through :func:`tvm_ffi.convert`.\n"
              "\n"
              "Examples\n"
              "--------\n"
              ">>> add = tvm_ffi.convert(lambda a, b: a + b)\n"
              ">>> add(1, 2)\n"
              "3",
    .tp_new = function_new,
    .tp_dealloc = function_dealloc,
    .tp_traverse = function_traverse,
    .tp_clear = function_clear,
    .tp_dictoffset = offsetof(CoreFunction, dict),
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(CoreFunction, vectorcall),
    .tp_methods = function_methods,
    .tp_getset = function_getset,
};

/* ---- Object.__init_handle_by_constructor__ ---- */

/* A method of Object that calls a Function, so it is defined with the Function type and
 * added to Object's dict at start-up: object.c stays below the call layer. */
static PyObject* object_init_handle_by_constructor(PyObject* op, PyObject* args) {
  Py_ssize_t nargs = PyTuple_GET_SIZE(args);
  if (nargs < 1) {
    PyErr_SetString(PyExc_TypeError,
                    "__init_handle_by_constructor__() needs the constructor Function first");
    return NULL;
  }
  PyObject* ctor = PyTuple_GET_ITEM(args, 0);
  if (!PyObject_TypeCheck(ctor, &CoreFunction_Type) || ((CoreObject*)ctor)->chandle == NULL) {
    PyErr_Format(PyExc_TypeError,
                 "__init_handle_by_constructor__() expects a tvm_ffi Function, got `%s`",
                 Py_TYPE(ctor)->tp_name);
    return NULL;
  }
  TVMFFIAny result;
  CoreFramework fw;
  if (core_call(((CoreObject*)ctor)->chandle, &PyTuple_GET_ITEM(args, 1), nargs - 1,
                ((CoreFunction*)ctor)->name, &result, &fw) != 0) {
    return NULL;
  }
  if (result.type_index < kTVMFFIStaticObjectBegin || result.v_obj == NULL) {
    PyObject* got = core_any_to_py(&result);
    PyErr_Format(PyExc_TypeError, "constructor of `%s` returned `%s`, expected an FFI object",
                 Py_TYPE(op)->tp_name, got != NULL ? Py_TYPE(got)->tp_name : "?");
    Py_XDECREF(got);
    return NULL;
  }
  core_object_adopt((CoreObject*)op, result.v_obj);
  Py_RETURN_NONE;
}

static PyMethodDef object_constructor_methods[] = {
    {"__init_handle_by_constructor__", object_init_handle_by_constructor, METH_VARARGS,
     "Calls the constructor Function with the arguments and adopts the returned object."},
    {NULL, NULL, 0, NULL},
};

int core_function_init_types(PyObject* module) {
  CoreFunction_Type.tp_base = &CoreObject_Type;
  if (PyType_Ready(&CoreFunction_Type) < 0) return -1;
  Py_INCREF(&CoreFunction_Type);
  if (PyModule_AddObject(module, "Function", (PyObject*)&CoreFunction_Type) < 0) {
    Py_DECREF(&CoreFunction_Type);
    return -1;
  }
  if (core_type_table_register(kTVMFFIFunction, (PyObject*)&CoreFunction_Type) != 0) return -1;
  return core_type_add_methods(&CoreObject_Type, object_constructor_methods);
}
