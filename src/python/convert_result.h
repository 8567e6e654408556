/*
 * convert_result.h -- TVMFFIAny -> Python values (convert_result.c).
 */
#ifndef TVM_FFI_PYTHON_CONVERT_RESULT_H_
#define TVM_FFI_PYTHON_CONVERT_RESULT_H_

#include "base.h"

/* Steals an owned Any (released on failure too). */
PyObject* core_any_to_py(TVMFFIAny* owned);
/* Converts a borrowed view (arguments of a Python callback). */
PyObject* core_view_to_py(const TVMFFIAny* view);

#endif /* TVM_FFI_PYTHON_CONVERT_RESULT_H_ */
