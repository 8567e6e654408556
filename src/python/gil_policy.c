/*
 * gil_policy.c -- which FFI functions release the GIL while they run.
 *
 * Kernels may run long, or start C threads that call Python back while the caller waits for
 * them; holding the GIL then serialises Python threads or deadlocks. So, as in the reference,
 * functions release the GIL by default (TVM_FFI_RELEASE_GIL_BY_DEFAULT=0 turns that off; it is
 * read once, at import). The exception is the runtime's own built-in functions (container
 * accessors, string and shape constructors, registry queries): they never wait for another
 * thread, so keeping the GIL is safe, and it saves the release/re-acquire on every call.
 *
 * A built-in is recognised by its safe_call: code inside libtvm_ffi.so's executable segments
 * other than the runtime's one generic trampoline, which every function made through
 * TVMFFIFunctionCreate (kernels, module functions) shares. A function whose call is one this
 * extension registered (its Python callback trampoline: the cell's own safe_call for the blocks
 * of callback_block.c, or the resource call behind the generic trampoline) keeps the GIL too:
 * it takes the GIL itself first thing, so releasing it would only make the callback wait to
 * take it back.
 */
#define _GNU_SOURCE
#include "gil_policy.h"

#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>

#include "../runtime/code_range.h"
#include "../runtime/function_object.h"

_Thread_local PyThreadState* core_gil_parked __attribute__((tls_model("initial-exec"))) = NULL;

static int g_release_by_default = 1;
static FfiCodeRange g_runtime_text = {0, 0};
static TVMFFISafeCallType g_generic_safe_call = NULL;
/* Calls that need the GIL themselves (core_gil_policy_keep_for). */
#define MAX_GIL_HOLDING_CALLS 4
static TVMFFISafeCallType g_gil_holding_calls[MAX_GIL_HOLDING_CALLS];
static int g_num_gil_holding_calls = 0;

static int never_called(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self, (void)args, (void)num_args, (void)result;
  return 0;
}

static int parse_default(void) {
  const char* text = getenv("TVM_FFI_RELEASE_GIL_BY_DEFAULT");
  if (text == NULL || text[0] == '\0') return 0;
  char* end = NULL;
  long value = strtol(text, &end, 10);
  while (end != NULL && (*end == ' ' || *end == '\n')) ++end;
  if (end == text || end == NULL || *end != '\0') {
    PyErr_Format(PyExc_ValueError,
                 "TVM_FFI_RELEASE_GIL_BY_DEFAULT must be an integer (1: calls release the GIL, "
                 "0: they keep it), got '%s'", text);
    return -1;
  }
  g_release_by_default = value != 0;
  return 0;
}

int core_gil_policy_init(void) {
  if (parse_default() != 0) return -1;
  g_runtime_text = ffi_code_range_of((const void*)&TVMFFIFunctionCall);
  TVMFFIObjectHandle probe = NULL;
  if (TVMFFIFunctionCreate(NULL, never_called, NULL, &probe) == 0) {
    g_generic_safe_call = TVMFFIFunctionGetCellPtr(probe)->safe_call;
    TVMFFIObjectDecRef(probe);
  } else {
    TVMFFIErrorMoveFromRaised(&probe);
    if (probe != NULL) TVMFFIObjectDecRef(probe);
  }
  return 0;
}

int core_release_gil_by_default(void) { return g_release_by_default; }

void core_gil_policy_keep_for(TVMFFISafeCallType call) {
  if (g_num_gil_holding_calls < MAX_GIL_HOLDING_CALLS) {
    g_gil_holding_calls[g_num_gil_holding_calls++] = call;
  }
}

static int holds_gil_itself(TVMFFISafeCallType call) {
  for (int i = 0; i < g_num_gil_holding_calls; ++i) {
    if (call == g_gil_holding_calls[i]) return 1;
  }
  return 0;
}

int core_release_gil_for(TVMFFIObjectHandle func) {
  if (!g_release_by_default || func == NULL) return g_release_by_default;
  TVMFFISafeCallType call = TVMFFIFunctionGetCellPtr(func)->safe_call;
  if (call == g_generic_safe_call) {
    return !holds_gil_itself(((const FunctionObject*)func)->resource_call);
  }
  if (holds_gil_itself(call)) return 0;
  uintptr_t address = (uintptr_t)(void*)call;
  int builtin = ffi_code_range_holds(g_runtime_text, address);
  return !builtin;
}
