/*
 * call.c -- the convert-and-call routine (call.h) and the conversion of list, tuple and dict
 * arguments, which is itself a call: of ffi.Array or ffi.Map with the items.
 *
 * A call converts the positional arguments into a stack array of TVMFFIAny (heap only beyond
 * CORE_INLINE_ARGS), calls the function cell's safe_call directly (what TVMFFIFunctionCall
 * does), and releases the call's temporaries. When its arguments included framework tensors,
 * the framework's allocator and stream serve the call.
 */
#include "call.h"

#include "convert_args.h"
#include "dispatch.h"
#include "error.h"
#include "gil_policy.h"
#include "globals.h"
#include "snapshot.h"
#include "stack_guard.h"

enum { kTopLevel = 0, kItems = 1 };

/* The one routine; `mode` and `release_gil` are constants in each caller below, so every
 * variant compiles to a straight path without their branches. */
static inline __attribute__((always_inline)) int convert_and_call(
    TVMFFIObjectHandle handle, PyObject* const* args, Py_ssize_t nargs, CoreCallContext* ctx,
    int mode, int release_gil, TVMFFIAny* result) {
  TVMFFIAny inline_values[CORE_INLINE_ARGS];
  TVMFFIAny* values = inline_values;
  if (CORE_UNLIKELY(nargs > CORE_INLINE_ARGS)) {
    if (nargs > INT32_MAX) {
      if (mode == kItems) {
        core_raise_arg_error(PyExc_ValueError, &ctx->site, "container of %zd items is too large",
                             nargs);
      } else {
        PyErr_Format(PyExc_ValueError, "too many arguments (%zd)", nargs);
      }
      return -1;
    }
    values = (TVMFFIAny*)PyMem_Malloc((size_t)nargs * sizeof(TVMFFIAny));
    if (values == NULL) {
      PyErr_NoMemory();
      return -1;
    }
  }
  int rc = 0;
  for (Py_ssize_t i = 0; i < nargs; ++i) {
    /* Items of a container keep the site of the argument they belong to. */
    if (mode == kTopLevel) ctx->site.index = i;
    if (CORE_UNLIKELY(core_convert_arg(args[i], &values[i], ctx) != 0)) {
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
    CoreFrameworkScope scope;
    int framework_call = mode == kTopLevel && ctx->fw.api != NULL;
    if (CORE_UNLIKELY(framework_call)) core_framework_scope_enter(&ctx->fw, &scope);
    if (release_gil) {
      /* The thread state stays parked while the kernel runs: a callback on this thread takes
       * the GIL back with it directly (gil_policy.h). Cleared, not restored, on return: an
       * enclosing kernel that re-took the GIL itself has its callbacks use PyGILState, and
       * no state stays parked past the call that parked it. */
      PyThreadState* state = PyEval_SaveThread();
      core_gil_parked = state;
      call_rc = safe_call(handle, values, (int32_t)nargs, result);
      core_gil_parked = NULL;
      PyEval_RestoreThread(state);
    } else {
      call_rc = safe_call(handle, values, (int32_t)nargs, result);
    }
    if (CORE_UNLIKELY(framework_call)) core_framework_scope_exit(&ctx->fw, &scope);
    if (CORE_UNLIKELY(call_rc != 0)) {
      core_raise_from_rc(call_rc);
      rc = -1;
    }
  }
  if (CORE_UNLIKELY(ctx->size != 0)) core_call_context_release(ctx);
  if (CORE_UNLIKELY(values != inline_values)) PyMem_Free(values);
  return rc;
}

static inline __attribute__((always_inline)) int top_level_call(
    TVMFFIObjectHandle handle, PyObject* const* args, Py_ssize_t nargs, PyObject* func_name,
    TVMFFIAny* result, CoreFramework* fw, int release_gil) {
  CoreCallContext ctx;
  core_call_context_init(&ctx, func_name, 0);
  int rc = convert_and_call(handle, args, nargs, &ctx, kTopLevel, release_gil, result);
  *fw = ctx.fw;
  return rc;
}

int core_call(TVMFFIObjectHandle handle, PyObject* const* args, Py_ssize_t nargs,
              PyObject* func_name, TVMFFIAny* result, CoreFramework* fw) {
  return top_level_call(handle, args, nargs, func_name, result, fw, 0);
}

int core_call_release_gil(TVMFFIObjectHandle handle, PyObject* const* args, Py_ssize_t nargs,
                          PyObject* func_name, TVMFFIAny* result, CoreFramework* fw) {
  return top_level_call(handle, args, nargs, func_name, result, fw, 1);
}

int core_call_with_items(TVMFFIObjectHandle ctor, PyObject* const* items, Py_ssize_t n,
                         CoreCallContext* outer, TVMFFIAny* result) {
  CoreCallContext ctx;
  core_call_context_init(&ctx, outer->site.func_name, outer->site.index);
  int rc = convert_and_call(ctor, items, n, &ctx, kItems, 0, result);
  if (CORE_UNLIKELY(ctx.fw.api != NULL)) core_framework_merge(&outer->fw, &ctx.fw);
  return rc;
}

/* ---- list, tuple and dict arguments ---- */

static TVMFFIObjectHandle g_array_func = NULL;
static TVMFFIObjectHandle g_map_func = NULL;

/* The container made from `items` becomes a temporary of the outer call. */
static int call_container_ctor(TVMFFIObjectHandle ctor, PyObject* const* items, Py_ssize_t n,
                               const char* where, TVMFFIAny* out, CoreCallContext* ctx) {
  if (core_stack_guard_check(where) != 0 || Py_EnterRecursiveCall(where) != 0) return -1;
  TVMFFIAny made;
  int rc = core_call_with_items(ctor, items, n, ctx, &made);
  Py_LeaveRecursiveCall();
  if (rc != 0) return -1;
  if (made.type_index >= kTVMFFIStaticObjectBegin &&
      core_call_context_keep_handle(ctx, made.v_obj) != 0) {
    return -1;
  }
  *out = made;
  return 0;
}

static int convert_sequence(const CoreDispatchEntry* entry, PyObject* value, TVMFFIAny* out,
                            CoreCallContext* ctx) {
  if (core_cached_global(&g_array_func, "ffi.Array") != 0) return -1;
  if (g_array_func == NULL) {
    core_raise_arg_error(PyExc_TypeError, &ctx->site, "list/tuple needs the global `ffi.Array`");
    return -1;
  }
  static const char kWhere[] = " while converting a nested list/tuple";
  if (PyTuple_Check(value)) { /* immutable: its items stay alive as long as it does */
    return call_container_ctor(g_array_func, &PyTuple_GET_ITEM(value, 0),
                               PyTuple_GET_SIZE(value), kWhere, out, ctx);
  }
  CoreSnapshot snapshot;
  if (core_snapshot_of_array(&snapshot, &PyList_GET_ITEM(value, 0), PyList_GET_SIZE(value)) != 0) {
    return -1;
  }
  int rc = call_container_ctor(g_array_func, snapshot.items, snapshot.size, kWhere, out, ctx);
  core_snapshot_release(&snapshot);
  return rc;
}

static int convert_dict(const CoreDispatchEntry* entry, PyObject* value, TVMFFIAny* out,
                        CoreCallContext* ctx) {
  if (core_cached_global(&g_map_func, "ffi.Map") != 0) return -1;
  if (g_map_func == NULL) {
    core_raise_arg_error(PyExc_TypeError, &ctx->site, "dict arguments are not supported yet");
    return -1;
  }
  CoreSnapshot flat;
  if (core_snapshot_of_dict(&flat, value) != 0) return -1;
  int rc = call_container_ctor(g_map_func, flat.items, flat.size,
                               " while converting a nested dict", out, ctx);
  core_snapshot_release(&flat);
  return rc;
}

int core_call_init(void) {
  core_dispatch_register(kCoreArgSequence, convert_sequence);
  core_dispatch_register(kCoreArgDict, convert_dict);
  return 0;
}
