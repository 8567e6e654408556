/*
 * runtime_base.h -- what every runtime file starts from: the C API headers and the branch/printf hints.
 *
 * Conventions used by every file:
 *  - Functions returning int follow the ABI: 0 ok, -1 error raised into the thread-local slot.
 *  - Objects the runtime makes are malloc'ed, header-first, and released through their own
 *    deleter following the combined strong/weak protocol (refcount.h).
 *  - Names starting with ffi_ are internal; TVMFFI* are the exported C API.
 */
#ifndef TVM_FFI_RUNTIME_RUNTIME_BASE_H_
#define TVM_FFI_RUNTIME_RUNTIME_BASE_H_


#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#define FFI_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#define FFI_LIKELY(x) __builtin_expect(!!(x), 1)
#define FFI_UNLIKELY(x) __builtin_expect(!!(x), 0)

#endif /* TVM_FFI_RUNTIME_RUNTIME_BASE_H_ */
