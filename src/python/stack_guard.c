/*
 * stack_guard.c -- the per-thread C stack bound of nested callbacks (stack_guard.h).
 */
#define _GNU_SOURCE
#include "stack_guard.h"

#include <pthread.h>

_Thread_local CoreStackGuard core_stack_guard __attribute__((tls_model("initial-exec"))) = {0, 0};

/* Stack left untouched for the callback that is refused, the error's unwinding, and code that
 * runs between two checks (a kernel, converters, Python frames of one callback). */
enum { kMinReserve = 256 * 1024, kMaxReserve = 2 * 1024 * 1024 };

CoreStackGuard* core_stack_guard_slow(void) {
  CoreStackGuard* g = &core_stack_guard;
  char here;
  uintptr_t low = 0, size = 0;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* addr = NULL;
    size_t bytes = 0;
    if (pthread_attr_getstack(&attr, &addr, &bytes) == 0) {
      low = (uintptr_t)addr;
      size = (uintptr_t)bytes;
    }
    pthread_attr_destroy(&attr);
  }
  if (size == 0 || (uintptr_t)&here < low || (uintptr_t)&here >= low + size) {
    /* Unknown bounds: assume the smallest common stack (512 KiB) below this frame. */
    size = 512 * 1024;
    low = (uintptr_t)&here > size ? (uintptr_t)&here - size : 1;
  }
  uintptr_t reserve = size / 4;
  if (reserve < kMinReserve) reserve = kMinReserve;
  if (reserve > kMaxReserve) reserve = kMaxReserve;
  if (reserve > size / 2) reserve = size / 2;
  g->limit = low + reserve;
  return g;
}
