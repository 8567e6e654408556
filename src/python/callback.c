/*
 * callback.c -- Python callables as FFI functions.
 *
 * The function object is a block of callback_block.c holding a strong reference to the
 * callable; its safe_call is the trampoline below. A call may come from
 * any C thread, with or without the GIL: it takes the GIL through gil_policy.h (cheap when held
 * already or parked by the call that released it, PyGILState_Ensure otherwise). Arguments
 * arrive as borrowed views and become Python values; the return value becomes an owned Any.
 * A Python exception becomes the thread's FFI error (error.h), carrying the exception itself so
 * that Python gets the very same object back when the error returns there.
 */
#include "callback.h"

#include "callback_block.h"
#include "convert_args.h"
#include "convert_result.h"
#include "convert_value.h"
#include "dispatch.h"
#include "error.h"
#include "error_from_python.h"
#include "framework.h"
#include "function.h"
#include "gil_policy.h"
#include "object.h"
#include "stack_guard.h"

/* api: the framework whose tensors tensor arguments become (convert_func's tensor_cls), or NULL
 * for FFI Tensors. */
static inline __attribute__((always_inline)) int invoke(PyObject* callable,
                                                        const DLPackExchangeAPI* api,
                                                        const TVMFFIAny* args, int32_t num_args,
                                                        TVMFFIAny* result) {
  PyObject* inline_args[CORE_INLINE_ARGS];
  PyObject** py_args = inline_args;
  if (num_args < 0) num_args = 0;
  if (num_args > CORE_INLINE_ARGS) {
    py_args = (PyObject**)PyMem_Malloc((size_t)num_args * sizeof(PyObject*));
    if (py_args == NULL) {
      PyErr_NoMemory();
      return -1;
    }
  }
  int32_t made = 0;
  PyObject* ret = NULL;
  for (; made < num_args; ++made) {
    py_args[made] = CORE_LIKELY(api == NULL) ? core_view_to_py(&args[made])
                                             : core_view_to_py_in_framework(&args[made], api);
    if (py_args[made] == NULL) break;
  }
  if (made == num_args) ret = PyObject_Vectorcall(callable, py_args, (size_t)num_args, NULL);
  for (int32_t i = 0; i < made; ++i) Py_DECREF(py_args[i]);
  if (py_args != inline_args) PyMem_Free(py_args);
  if (ret == NULL) return -1;
  if (ret == Py_None) { /* what most callbacks return (visitors, loggers): nothing to convert */
    Py_DECREF(ret);
    core_set_pod(result, kTVMFFINone);
    return 0;
  }
  CoreArgSite site = {NULL, kCoreSiteCallbackResult};
  int rc = core_py_to_owned_any(ret, result, &site);
  Py_DECREF(ret);
  return rc;
}

static inline __attribute__((always_inline)) int run_callback(PyObject* const* callable_slot,
                                                              int in_framework,
                                                              const TVMFFIAny* args,
                                                              int32_t num_args,
                                                              TVMFFIAny* result) {
  if (!core_python_alive()) {
    TVMFFIErrorSetRaisedFromCStr("RuntimeError",
                                 "cannot call a Python function: the interpreter has shut down");
    return -1;
  }
  CoreGilEntry gil;
  core_gil_enter(&gil);
  int rc = core_stack_guard_enter();
  if (CORE_LIKELY(rc == 0)) {
    /* Read under the GIL: the block's callable is cleared (with the GIL) when it dies. */
    PyObject* callable = *callable_slot;
    const DLPackExchangeAPI* api = NULL;
    if (in_framework) { /* the pair (callable, address of the framework's exchange API) */
      api = (const DLPackExchangeAPI*)PyLong_AsVoidPtr(PyTuple_GET_ITEM(callable, 1));
      callable = PyTuple_GET_ITEM(callable, 0);
    }
    rc = invoke(callable, api, args, num_args, result);
    core_stack_guard_leave();
  }
  if (rc != 0) core_set_raised_from_pyerr();
  core_gil_leave(&gil);
  return rc;
}

static int py_callback_safe_call(void* self, const TVMFFIAny* args, int32_t num_args,
                                 TVMFFIAny* result) {
  return run_callback(&((CoreCallbackBlock*)self)->callable, 0, args, num_args, result);
}

static int py_framework_callback_safe_call(void* self, const TVMFFIAny* args, int32_t num_args,
                                           TVMFFIAny* result) {
  return run_callback(&((CoreCallbackBlock*)self)->callable, 1, args, num_args, result);
}

int core_make_py_function(PyObject* callable, TVMFFIObjectHandle* out) {
  return core_callback_block_new(callable, py_callback_safe_call, out);
}

/* _convert_to_ffi_func_in_framework(pyfunc, tensor_cls) -> Function whose tensor arguments reach
 * pyfunc as tensor_cls tensors, through the class's __dlpack_c_exchange_api__. */
PyObject* core_mod_convert_to_ffi_func_in_framework(PyObject* self, PyObject* const* args,
                                                    Py_ssize_t nargs) {
  (void)self;
  if (nargs != 2 || !PyCallable_Check(args[0]) || !PyType_Check(args[1])) {
    PyErr_SetString(PyExc_TypeError,
                    "_convert_to_ffi_func_in_framework(pyfunc, tensor_cls) expects a callable and "
                    "a class");
    return NULL;
  }
  const DLPackExchangeAPI* api = NULL;
  if (core_exchange_api_of((PyTypeObject*)args[1], &api) != 0) return NULL;
  if (api == NULL || api->managed_tensor_to_py_object_no_sync == NULL) {
    PyErr_Format(PyExc_TypeError,
                 "tensor_cls `%s` publishes no usable __dlpack_c_exchange_api__ (DLPack %d.x, "
                 "with managed_tensor_to_py_object_no_sync)",
                 ((PyTypeObject*)args[1])->tp_name, DLPACK_MAJOR_VERSION);
    return NULL;
  }
  PyObject* address = PyLong_FromVoidPtr((void*)api);
  PyObject* pair = address != NULL ? PyTuple_Pack(2, args[0], address) : NULL;
  Py_XDECREF(address);
  if (pair == NULL) return NULL;
  TVMFFIObjectHandle handle;
  int rc = core_callback_block_new(pair, py_framework_callback_safe_call, &handle);
  Py_DECREF(pair);
  if (rc != 0) return NULL;
  return core_function_from_handle(handle, NULL);
}

/* _convert_to_ffi_func(pyfunc) -> Function */
PyObject* core_mod_convert_to_ffi_func(PyObject* self, PyObject* func) {
  (void)self;
  if (PyObject_TypeCheck(func, &CoreFunction_Type)) {
    Py_INCREF(func);
    return func;
  }
  if (!PyCallable_Check(func)) {
    PyErr_Format(PyExc_TypeError, "_convert_to_ffi_func() expects a callable, got `%s`",
                 Py_TYPE(func)->tp_name);
    return NULL;
  }
  TVMFFIObjectHandle handle;
  if (core_make_py_function(func, &handle) != 0) return NULL;
  return core_function_from_handle(handle, NULL);
}

static int convert_callable(const CoreDispatchEntry* entry, PyObject* value, TVMFFIAny* out,
                            CoreCallContext* ctx) {
  /* The same callable passed twice to one call is one function object: its first wrapping
   * lives as long as the call. */
  for (int i = 0; i < ctx->size; ++i) {
    uintptr_t kept = ctx->items[i];
    if (!(kept & 1u) && core_callback_block_holds((TVMFFIObjectHandle)kept, value)) {
      core_set_object_view(out, (TVMFFIObjectHandle)kept);
      return 0;
    }
  }
  TVMFFIObjectHandle func;
  if (core_make_py_function(value, &func) != 0) return -1;
  return core_set_handle_temp(out, func, ctx);
}

int core_callback_init(PyObject* module) {
  core_dispatch_register(kCoreArgCallable, convert_callable);
  /* A callback takes the GIL first thing: a caller holding it should keep it. */
  core_gil_policy_keep_for(py_callback_safe_call);
  core_gil_policy_keep_for(py_framework_callback_safe_call);
  return core_callback_block_init(module);
}
