/*
 * gil_policy.h -- which FFI functions release the GIL while they run (gil_policy.c).
 */
#ifndef TVM_FFI_PYTHON_GIL_POLICY_H_
#define TVM_FFI_PYTHON_GIL_POLICY_H_

#include "base.h"

/* Reads TVM_FFI_RELEASE_GIL_BY_DEFAULT and locates the runtime's built-ins. 0, or -1 with a
 * ValueError for a malformed setting. */
int core_gil_policy_init(void);

/* The TVM_FFI_RELEASE_GIL_BY_DEFAULT setting (1 unless set to 0). */
int core_release_gil_by_default(void);

/* Functions whose cell calls `call`, or made by TVMFFIFunctionCreate around it, keep the GIL
 * by default: it is a trampoline that takes the GIL itself (a Python callback). Called at
 * start-up. */
void core_gil_policy_keep_for(TVMFFISafeCallType call);

/* Whether calls of `func` (an ffi.Function handle) release the GIL unless told otherwise: the
 * default, except for the runtime's own built-in functions and the trampolines registered
 * above, which keep it. */
int core_release_gil_for(TVMFFIObjectHandle func);

/* ---- the GIL around a call that releases it, and in callbacks it makes ----
 *
 * A kernel called with the GIL released often calls a Python callback on the same thread. The
 * call parks its thread state here while the kernel runs, so the callback takes the GIL back
 * with that state directly (and parks it again on return) instead of looking the thread up
 * through PyGILState. Per thread and set only while such a call's kernel runs (cleared when it
 * returns), so no state stays parked past its call and other threads are unaffected;
 * initial-exec TLS, as it is read on every callback. */
extern _Thread_local PyThreadState* core_gil_parked __attribute__((tls_model("initial-exec")));

/* The thread state that holds the GIL now, NULL when none does (on this thread, from 3.12). */
static inline PyThreadState* core_gil_current(void) {
#if PY_VERSION_HEX >= 0x030D0000
  return PyThreadState_GetUnchecked();
#else
  return _PyThreadState_UncheckedGet();
#endif
}

/* How a callback got the GIL, for core_gil_leave. */
typedef struct {
  PyThreadState* restored; /* the parked state it re-attached, or NULL */
  int how;                 /* 0: held already, 1: restored, 2: PyGILState_Ensure */
  PyGILState_STATE state;
} CoreGilEntry;

/* Takes the GIL for a callback on any thread: cheap when this thread already holds it or when
 * our call path parked this thread's state; PyGILState_Ensure otherwise (foreign threads, a
 * caller that released the GIL itself). */
static inline void core_gil_enter(CoreGilEntry* entry) {
  PyThreadState* parked = core_gil_parked;
  PyThreadState* current = core_gil_current();
  if (parked != NULL) {
    if (CORE_LIKELY(current != parked)) {
      core_gil_parked = NULL; /* a call made by the callback parks its own */
      PyEval_RestoreThread(parked);
      entry->restored = parked;
      entry->how = 1;
      return;
    }
    entry->how = 0; /* the kernel took the GIL back itself before calling */
    return;
  }
  if (current != NULL && current == PyGILState_GetThisThreadState()) {
    entry->how = 0;
    return;
  }
  entry->state = PyGILState_Ensure();
  entry->how = 2;
}

static inline void core_gil_leave(const CoreGilEntry* entry) {
  if (entry->how == 1) {
    PyEval_SaveThread();
    core_gil_parked = entry->restored;
  } else if (entry->how == 2) {
    PyGILState_Release(entry->state);
  }
}

#endif /* TVM_FFI_PYTHON_GIL_POLICY_H_ */
