/*
 * function.c -- the Function type: FFI functions called from Python through vectorcall.
 *
 * A call converts the positional arguments into a stack array of TVMFFIAny (heap only beyond
 * CORE_INLINE_ARGS), calls the function cell's safe_call directly (what TVMFFIFunctionCall
 * does), releases the call's temporaries and converts the owned result.
 *
 * GIL: calls release it unless gil_policy.c says otherwise (runtime built-ins keep it, and
 * TVM_FFI_RELEASE_GIL_BY_DEFAULT=0 keeps it everywhere); Function.release_gil overrides that
 * per function object. The policy is looked up lazily, on the first call or read.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "gil_policy.h"

/* ---- calling ---- */

/* Converts args and calls handle; *result is owned on success. Conversion errors name
 * `items_site` when given (elements of one container argument), else each argument's own
 * position in a call of `name`. (The compiler inlines it into the vectorcall path below.) */
static int call_impl(TVMFFIObjectHandle handle, PyObject* const* args, Py_ssize_t nargs,
                     PyObject* name, const CoreArgSite* items_site, int release_gil,
                     TVMFFIAny* result, CoreFramework* fw_out) {
  TVMFFIAny inline_values[CORE_INLINE_ARGS];
  TVMFFIByteArray inline_bytes[CORE_INLINE_ARGS];
  TVMFFIAny* values = inline_values;
  TVMFFIByteArray* bytes = inline_bytes;
  if (CORE_UNLIKELY(nargs > CORE_INLINE_ARGS)) {
    if (nargs > INT32_MAX) {
      if (items_site != NULL) {
        core_raise_arg_error(PyExc_ValueError, items_site, "container of %zd items is too large", nargs);
      } else {
        PyErr_Format(PyExc_ValueError, "too many arguments (%zd)", nargs);
      }
      return -1;
    }
    values = (TVMFFIAny*)PyMem_Malloc((size_t)nargs * sizeof(TVMFFIAny));
    bytes = (TVMFFIByteArray*)PyMem_Malloc((size_t)nargs * sizeof(TVMFFIByteArray));
    if (values == NULL || bytes == NULL) {
      PyMem_Free(values);
      PyMem_Free(bytes);
      PyErr_NoMemory();
      return -1;
    }
  }
  CoreTemps temps;
  core_temps_init(&temps);
  CoreArgSite site = {name, 0};
  const CoreArgSite* item_site = items_site != NULL ? items_site : &site;
  int rc = 0;
  for (Py_ssize_t i = 0; i < nargs; ++i) {
    site.index = i;
    if (CORE_UNLIKELY(core_convert_arg(args[i], &values[i], &bytes[i], &temps, item_site) != 0)) {
      rc = -1;
      break;
    }
  }
  if (CORE_LIKELY(rc == 0)) {
    result->type_index = kTVMFFINone;
    result->zero_padding = 0;
    result->v_uint64 = 0;
    TVMFFISafeCallType safe_call = TVMFFIFunctionGetCellPtr(handle)->safe_call;
    int call_rc;
    /* Framework tensors among the args: the framework's allocator and stream for this call
     * (not for the runtime's own container constructors that build an argument). */
    CoreTensorCallScope scope;
    int framework_call = temps.fw.api != NULL && items_site == NULL;
    if (CORE_UNLIKELY(framework_call)) core_tensor_call_enter(&temps, &scope);
    if (release_gil) {
      Py_BEGIN_ALLOW_THREADS;
      call_rc = safe_call(handle, values, (int32_t)nargs, result);
      Py_END_ALLOW_THREADS;
    } else {
      call_rc = safe_call(handle, values, (int32_t)nargs, result);
    }
    if (CORE_UNLIKELY(framework_call)) core_tensor_call_exit(&temps, &scope);
    if (CORE_UNLIKELY(temps.fw.api != NULL) && fw_out != NULL) {
      core_framework_merge(fw_out, &temps.fw);
    }
    if (CORE_UNLIKELY(call_rc != 0)) {
      core_raise_from_rc(call_rc);
      rc = -1;
    }
  }
  if (CORE_UNLIKELY(temps.size != 0)) core_temps_release(&temps);
  if (CORE_UNLIKELY(values != inline_values)) {
    PyMem_Free(values);
    PyMem_Free(bytes);
  }
  return rc;
}

int core_call_converted(TVMFFIObjectHandle handle, PyObject* const* args, Py_ssize_t nargs,
                        PyObject* name, const CoreArgSite* items_site, int release_gil,
                        TVMFFIAny* result, CoreFramework* fw_out) {
  return call_impl(handle, args, nargs, name, items_site, release_gil, result, fw_out);
}

int core_call_py_args_owned(TVMFFIObjectHandle func, PyObject* const* args, Py_ssize_t nargs,
                            PyObject* func_name, TVMFFIAny* result) {
  return core_call_converted(func, args, nargs, func_name, NULL, 0, result, NULL);
}

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

static PyObject* function_vectorcall(PyObject* callable, PyObject* const* args, size_t nargsf,
                                     PyObject* kwnames) {
  CoreFunction* self = (CoreFunction*)callable;
  if (CORE_UNLIKELY(kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)) {
    return reject_kwargs(self, kwnames);
  }
  TVMFFIObjectHandle handle = self->base.chandle;
  if (CORE_UNLIKELY(handle == NULL)) {
    PyErr_SetString(PyExc_ValueError, "cannot call a Function with a NULL handle");
    return NULL;
  }
  if (CORE_UNLIKELY(self->release_gil < 0)) self->release_gil = core_release_gil_for(handle);
  TVMFFIAny result;
  CoreFramework fw = {NULL, NULL, {0, 0}};
  if (call_impl(handle, args, PyVectorcall_NARGS(nargsf), self->name, NULL, self->release_gil,
                &result, &fw) != 0) {
    return NULL;
  }
  /* A call that took framework tensors returns its tensors as ones of that framework, also
   * those inside returned containers. */
  if (CORE_UNLIKELY(fw.api != NULL) && result.type_index >= kTVMFFIStaticObjectBegin) {
    return core_any_to_py_in_framework(&result, fw.api);
  }
  return core_any_to_py(&result);
}

/* ---- the type ---- */

static PyObject* function_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
  (void)args;
  (void)kwds;
  CoreFunction* self = (CoreFunction*)type->tp_alloc(type, 0);
  if (self == NULL) return NULL;
  self->base.chandle = NULL;
  self->base.weakreflist = NULL;
  self->vectorcall = function_vectorcall;
  self->name = NULL;
  self->release_gil = -1; /* not decided yet: the handle is set after construction */
  return (PyObject*)self;
}

static void function_dealloc(PyObject* op) {
  Py_CLEAR(((CoreFunction*)op)->name);
  CoreObject_Type.tp_dealloc(op);
}

static PyObject* function_get_release_gil(PyObject* op, void* closure) {
  (void)closure;
  CoreFunction* self = (CoreFunction*)op;
  if (self->release_gil < 0) {
    if (self->base.chandle == NULL) return PyBool_FromLong(core_release_gil_by_default());
    self->release_gil = core_release_gil_for(self->base.chandle);
  }
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
  ((CoreFunction*)op)->release_gil = flag;
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
  static char* kwlist[] = {"c_symbol", "keep_alive_object", NULL};
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
     "Function from the address of a TVMFFISafeCallType C function."},
    {"__from_mlir_packed_safe_call__", (PyCFunction)(void (*)(void))function_from_mlir_packed,
     METH_VARARGS | METH_KEYWORDS | METH_STATIC,
     "Function from the address of a `void f(void** packed)` MLIR packed entry."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef function_getset[] = {
    {"release_gil", function_get_release_gil, function_set_release_gil,
     "Whether calls release the GIL (default False).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject CoreFunction_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi._core.Function",
    .tp_basicsize = sizeof(CoreFunction),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "An FFI function; call it with positional arguments.",
    .tp_new = function_new,
    .tp_dealloc = function_dealloc,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(CoreFunction, vectorcall),
    .tp_methods = function_methods,
    .tp_getset = function_getset,
};

/* ---- global registry ---- */

static int get_global_sized(const char* name, size_t size, TVMFFIObjectHandle* out) {
  TVMFFIByteArray key = {name, size};
  *out = NULL;
  if (TVMFFIFunctionGetGlobal(&key, out) != 0) {
    *out = NULL;
    core_raise_from_rc(-1);
    return -1;
  }
  return 0;
}

int core_get_global_handle(const char* name, TVMFFIObjectHandle* out) {
  return get_global_sized(name, strlen(name), out);
}

static PyObject* mod_get_global_func(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 2 || !PyUnicode_Check(args[0])) {
    PyErr_SetString(PyExc_TypeError, "_get_global_func(name: str, allow_missing: bool)");
    return NULL;
  }
  int allow_missing = PyObject_IsTrue(args[1]);
  if (allow_missing < 0) return NULL;
  Py_ssize_t size;
  const char* name = PyUnicode_AsUTF8AndSize(args[0], &size);
  if (name == NULL) return NULL;
  TVMFFIObjectHandle handle;
  if (get_global_sized(name, (size_t)size, &handle) != 0) return NULL;
  if (handle == NULL) {
    if (allow_missing) Py_RETURN_NONE;
    PyErr_Format(PyExc_ValueError, "Cannot find global function %U", args[0]);
    return NULL;
  }
  return core_function_from_handle(handle, args[0]);
}

static PyObject* mod_register_global_func(PyObject* self, PyObject* const* args,
                                          Py_ssize_t nargs) {
  (void)self;
  if (nargs != 3 || !PyUnicode_Check(args[0])) {
    PyErr_SetString(PyExc_TypeError,
                    "_register_global_func(name: str, func: Callable | Function, override: bool)");
    return NULL;
  }
  int override = PyObject_IsTrue(args[2]);
  if (override < 0) return NULL;
  Py_ssize_t size;
  const char* name = PyUnicode_AsUTF8AndSize(args[0], &size);
  if (name == NULL) return NULL;
  PyObject* func = args[1];
  TVMFFIObjectHandle handle;
  if (PyObject_TypeCheck(func, &CoreFunction_Type) && ((CoreObject*)func)->chandle != NULL) {
    handle = ((CoreObject*)func)->chandle;
    TVMFFIObjectIncRef(handle);
  } else if (PyCallable_Check(func)) {
    if (core_make_py_function(func, &handle) != 0) return NULL;
  } else {
    PyErr_Format(PyExc_TypeError,
                 "_register_global_func() expects a callable or a Function, got `%s`",
                 Py_TYPE(func)->tp_name);
    return NULL;
  }
  TVMFFIByteArray key = {name, (size_t)size};
  if (TVMFFIFunctionSetGlobal(&key, handle, override) != 0) {
    TVMFFIObjectDecRef(handle);
    return core_raise_from_rc(-1);
  }
  return core_function_from_handle(handle, args[0]);
}

static PyMethodDef function_module_methods[] = {
    {"_get_global_func", (PyCFunction)(void (*)(void))mod_get_global_func, METH_FASTCALL,
     "_get_global_func(name, allow_missing) -> Function | None"},
    {"_register_global_func", (PyCFunction)(void (*)(void))mod_register_global_func,
     METH_FASTCALL, "_register_global_func(name, func, override) -> Function"},
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
  return PyModule_AddFunctions(module, function_module_methods);
}
