/*
 * stack_guard.h -- bounds Python -> kernel -> Python callback -> ... nesting by the C stack
 * (stack_guard.c).
 *
 * Every round trip through a kernel and back into Python uses C stack that Python's recursion
 * limit does not see; with that limit raised, deep nesting overflows the stack and the process
 * dies. The callback trampoline therefore checks, on entry, how much of its thread's stack is
 * left, and raises RecursionError while enough remains for the error to unwind cleanly.
 */
#ifndef TVM_FFI_PYTHON_STACK_GUARD_H_
#define TVM_FFI_PYTHON_STACK_GUARD_H_

#include "base.h"

/* Per-thread state: the stack's low end (0 until first computed) and the callback depth. */
typedef struct {
  uintptr_t limit; /* lowest address a callback may start at; UINTPTR_MAX-free: 0 = unknown */
  int depth;       /* callbacks currently running on this thread */
} CoreStackGuard;

CoreStackGuard* core_stack_guard_slow(void);
extern _Thread_local CoreStackGuard core_stack_guard __attribute__((tls_model("initial-exec")));

/* The thread's guard (its limit computed on first use); *low says whether the caller's frame
 * already lies below the reserve. Inlined, so `here` sits in the caller's frame. */
static inline CoreStackGuard* core_stack_guard_probe(int* low) {
  char here;
  CoreStackGuard* g = &core_stack_guard;
  if (CORE_UNLIKELY(g->limit == 0)) g = core_stack_guard_slow();
  *low = (uintptr_t)&here < g->limit;
  return g;
}

/* Enters a callback: 0, or -1 (GIL held) with RecursionError set when the thread's remaining
 * C stack is below the reserve. Pair every 0 with core_stack_guard_leave(). */
static inline int core_stack_guard_enter(void) {
  int low;
  CoreStackGuard* g = core_stack_guard_probe(&low);
  if (CORE_UNLIKELY(low)) {
    PyErr_Format(PyExc_RecursionError,
                 "FFI callbacks nested %d deep on this thread: the C stack is nearly exhausted "
                 "(Python -> kernel -> Python callback cycles use C stack that "
                 "sys.setrecursionlimit does not cover)",
                 g->depth);
    return -1;
  }
  g->depth++;
  return 0;
}

static inline void core_stack_guard_leave(void) { core_stack_guard.depth--; }

/* For recursion inside one conversion (a list nested in itself): 0, or -1 with RecursionError
 * when the thread's remaining C stack is below the reserve. Python's own bound does not cover
 * it: from 3.12, Py_EnterRecursiveCall allows about 10,000 C levels whatever their frame size,
 * and a level of ours takes more than 8 MiB / 10,000. */
static inline int core_stack_guard_check(const char* where) {
  int low;
  (void)core_stack_guard_probe(&low);
  if (CORE_UNLIKELY(low)) {
    PyErr_Format(PyExc_RecursionError,
                 "maximum recursion depth exceeded%s (the C stack is nearly exhausted)", where);
    return -1;
  }
  return 0;
}

#endif /* TVM_FFI_PYTHON_STACK_GUARD_H_ */
