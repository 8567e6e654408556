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

/* Functions made by TVMFFIFunctionCreate with this safe_call keep the GIL by default: it is
 * a trampoline that takes the GIL itself (a Python callback). Called at start-up. */
void core_gil_policy_keep_for(TVMFFISafeCallType resource_call);

/* Whether calls of `func` (an ffi.Function handle) release the GIL unless told otherwise: the
 * default, except for the runtime's own built-in functions and the trampolines registered
 * above, which keep it. */
int core_release_gil_for(TVMFFIObjectHandle func);

#endif /* TVM_FFI_PYTHON_GIL_POLICY_H_ */
