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
#include "function.h"
#include "gil_policy.h"
#include "object.h"
#include "stack_guard.h"

static int invoke(PyObject* callable, const TVMFFIAny* args, int32_t num_args,
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
    py_args[made] = core_view_to_py(&args[made]);
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

static int py_callback_safe_call(void* self, const TVMFFIAny* args, int32_t num_args,
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
    rc = invoke(((CoreCallbackBlock*)self)->callable, args, num_args, result);
    core_stack_guard_leave();
  }
  if (rc != 0) core_set_raised_from_pyerr();
  core_gil_leave(&gil);
  return rc;
}

int core_make_py_function(PyObject* callable, TVMFFIObjectHandle* out) {
  return core_callback_block_new(callable, py_callback_safe_call, out);
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
                            TVMFFIByteArray* bytes_slot, CoreCallContext* ctx) {
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
  return core_callback_block_init(module);
}
