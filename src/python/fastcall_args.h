/*
 * fastcall_args.h -- binding the arguments of a METH_FASTCALL | METH_KEYWORDS function to its
 * parameters by name (fastcall_args.c).
 */
#ifndef TVM_FFI_PYTHON_FASTCALL_ARGS_H_
#define TVM_FFI_PYTHON_FASTCALL_ARGS_H_

#include "base.h"

/* Binds positional `args[0:nargs]` and the keywords named by `kwnames` (their values follow the
 * positional ones) to `params[0:num_params]`: out[i] borrowed, NULL when not given. The first
 * `num_required` parameters must be given. 0, or -1 with the TypeError a Python function would
 * raise (too many arguments, an unknown keyword, one given twice, a required one missing). */
int core_bind_fastcall(const char* fname, const char* const* params, int num_params,
                       int num_required, PyObject* const* args, Py_ssize_t nargs,
                       PyObject* kwnames, PyObject** out);

/* The one required argument of a method whose parameter `param` may also be named, as in
 * Python (`t.size(idx=0)`): 0 with *out borrowed, or -1 with the TypeError. */
int core_bind_one_fastcall(const char* fname, const char* param, PyObject* const* args,
                           Py_ssize_t nargs, PyObject* kwnames, PyObject** out);

#endif /* TVM_FFI_PYTHON_FASTCALL_ARGS_H_ */
