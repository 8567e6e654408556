/*
 * error_from_python.c -- Python exceptions as FFI errors: the kind from ERROR_TYPE_TO_NAME
 * along the exception's MRO, the message str(exc), the backtrace from the traceback (most
 * recent call first) plus, for errors leaving a callback, the C frames and the exception
 * itself as extra_context.
 */
#include "error_from_python.h"

#include <string.h>

#include "error.h"
#include "object.h"
#include "type_table.h"

/* Fetches the pending exception as one normalised object (with its traceback attached). */
static PyObject* fetch_exception(void) {
#if PY_VERSION_HEX >= 0x030C0000
  return PyErr_GetRaisedException();
#else
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  if (type == NULL) return NULL;
  PyErr_NormalizeException(&type, &value, &tb);
  if (tb != NULL && value != NULL) PyException_SetTraceback(value, tb);
  Py_XDECREF(type);
  Py_XDECREF(tb);
  return value;
#endif
}

static PyObject* kind_for_exception(PyObject* exc) {
  PyObject* table = core_error_table("ERROR_TYPE_TO_NAME");
  PyObject* mro = Py_TYPE(exc)->tp_mro;
  for (Py_ssize_t i = 0; mro != NULL && i < PyTuple_GET_SIZE(mro); ++i) {
    PyObject* base = PyTuple_GET_ITEM(mro, i);
    PyObject* name = table != NULL ? PyDict_GetItemWithError(table, base) : NULL;
    if (name != NULL && PyUnicode_Check(name)) {
      Py_INCREF(name);
      return name;
    }
    PyErr_Clear();
  }
  return PyUnicode_FromString("RuntimeError");
}

static PyObject* exception_message(PyObject* exc) {
  PyObject* message = PyObject_Str(exc);
  if (message == NULL) {
    PyErr_Clear();
    message = PyUnicode_FromString("<exception str() failed>");
  }
  return message;
}

/* UTF-8 view of a str; invalid text (lone surrogates) is replaced rather than failing. */
static PyObject* utf8_bytes(PyObject* text) {
  PyObject* out = PyUnicode_AsEncodedString(text, "utf-8", "replace");
  if (out == NULL) PyErr_Clear();
  return out;
}

static TVMFFIByteArray bytes_view(PyObject* bytes) {
  TVMFFIByteArray view = {"", 0};
  if (bytes != NULL) {
    view.data = PyBytes_AS_STRING(bytes);
    view.size = (size_t)PyBytes_GET_SIZE(bytes);
  }
  return view;
}

/* Backtrace text for an error leaving Python: Python frames, then (for errors raised into C)
 * the C frames of the current thread. */
static PyObject* full_backtrace(PyObject* exc, int with_c_frames) {
  PyObject* text = core_exception_backtrace_text(exc);
  if (text == NULL || !with_c_frames) return text;
  const TVMFFIByteArray* c_frames = TVMFFIBacktrace(NULL, 0, NULL, 0);
  if (c_frames == NULL || c_frames->size == 0) return text;
  PyObject* c_text =
      PyUnicode_DecodeUTF8(c_frames->data, (Py_ssize_t)c_frames->size, "replace");
  if (c_text == NULL) {
    PyErr_Clear();
    return text;
  }
  PyObject* out = PyUnicode_Concat(text, c_text);
  Py_DECREF(c_text);
  if (out == NULL) {
    PyErr_Clear();
    return text;
  }
  Py_DECREF(text);
  return out;
}

/* `from_callback`: the error leaves a Python callback for its C caller. Only then does it get
 * the C frames and keep the exception itself (extra_context), so that the caller's Python side
 * re-raises the same object. Errors made on request (_convert_to_ffi_error, arguments) do not
 * keep it: the caller holds the Error while the exception's traceback holds the caller's frame,
 * a cycle through C references that the garbage collector cannot see. */
static int error_from_exception(PyObject* exc, int from_callback, int depth,
                                TVMFFIObjectHandle* out) {
  /* An error that came from C earlier: keep that object (and its identity), refresh its
   * backtrace from the traceback, which by now holds the C frames as well. */
  PyObject* attached = PyObject_GetAttrString(exc, "__tvm_ffi_error__");
  if (attached == NULL) PyErr_Clear();
  if (attached != NULL && PyObject_TypeCheck(attached, &CoreError_Type) &&
      ((CoreObject*)attached)->chandle != NULL) {
    TVMFFIObjectHandle handle = ((CoreObject*)attached)->chandle;
    PyObject* text = full_backtrace(exc, from_callback);
    PyObject* text_bytes = text != NULL ? utf8_bytes(text) : NULL;
    TVMFFIByteArray view = bytes_view(text_bytes);
    TVMFFIErrorGetCellPtr(handle)->update_backtrace(handle, &view,
                                                     kTVMFFIBacktraceUpdateModeReplace);
    Py_XDECREF(text);
    Py_XDECREF(text_bytes);
    Py_DECREF(attached);
    TVMFFIObjectIncRef(handle);
    *out = handle;
    return 0;
  }
  Py_XDECREF(attached);

  PyObject* kind = kind_for_exception(exc);
  PyObject* message = exception_message(exc);
  PyObject* text = full_backtrace(exc, from_callback);
  PyObject* kind_bytes = kind != NULL ? utf8_bytes(kind) : NULL;
  PyObject* message_bytes = message != NULL ? utf8_bytes(message) : NULL;
  PyObject* text_bytes = text != NULL ? utf8_bytes(text) : NULL;
  Py_XDECREF(kind);
  Py_XDECREF(message);
  Py_XDECREF(text);

  TVMFFIObjectHandle cause = NULL;
  PyObject* cause_exc = PyException_GetCause(exc);
  if (cause_exc != NULL && depth < CORE_MAX_CAUSE_DEPTH &&
      error_from_exception(cause_exc, 0, depth + 1, &cause) != 0) {
    PyErr_Clear();
    cause = NULL;
  }
  Py_XDECREF(cause_exc);

  TVMFFIObjectHandle opaque = NULL;
  int rc = from_callback ? core_make_opaque(exc, &opaque) : 0;
  if (rc == 0) {
    TVMFFIByteArray kind_view = bytes_view(kind_bytes);
    TVMFFIByteArray message_view = bytes_view(message_bytes);
    TVMFFIByteArray text_view = bytes_view(text_bytes);
    if (kind_bytes == NULL) {
      kind_view.data = "RuntimeError";
      kind_view.size = strlen(kind_view.data);
    }
    if (TVMFFIErrorCreateWithCauseAndExtraContext(&kind_view, &message_view, &text_view, cause,
                                                  opaque, out) != 0) {
      PyErr_NoMemory();
      rc = -1;
    }
  }
  if (opaque != NULL) TVMFFIObjectDecRef(opaque);
  if (cause != NULL) TVMFFIObjectDecRef(cause);
  Py_XDECREF(kind_bytes);
  Py_XDECREF(message_bytes);
  Py_XDECREF(text_bytes);
  return rc;
}

int core_error_from_py_exception(PyObject* exc, TVMFFIObjectHandle* out) {
  return error_from_exception(exc, 0, 0, out);
}

void core_set_raised_from_pyerr(void) {
  PyObject* exc = fetch_exception();
  TVMFFIObjectHandle error = NULL;
  if (exc != NULL && error_from_exception(exc, 1, 0, &error) == 0) {
    TVMFFIErrorSetRaised(error);
    TVMFFIObjectDecRef(error);
  } else {
    PyErr_Clear();
    TVMFFIErrorSetRaisedFromCStr("RuntimeError",
                                 "a Python callback failed and its exception could not be "
                                 "converted");
  }
  Py_XDECREF(exc);
}

PyObject* core_mod_convert_to_ffi_error(PyObject* self, PyObject* exc) {
  (void)self;
  if (!PyExceptionInstance_Check(exc)) {
    PyErr_Format(PyExc_TypeError, "_convert_to_ffi_error() expects an exception, got `%s`",
                 Py_TYPE(exc)->tp_name);
    return NULL;
  }
  TVMFFIObjectHandle handle;
  if (core_error_from_py_exception(exc, &handle) != 0) return NULL;
  return core_object_from_handle(handle);
}
