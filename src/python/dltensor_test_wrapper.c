/*
 * dltensor_test_wrapper.c -- core.DLTensorTestWrapper: a Tensor seen as a foreign framework
 * tensor, for tests of the DLPack paths.
 *
 * It publishes the Python DLPack protocol (__dlpack__, __dlpack_device__), the environment
 * stream (__tvm_ffi_env_stream__) and a DLPackExchangeAPI table (__dlpack_c_exchange_api__), so
 * an FFI call taking wrappers goes through the same exchange-API import, stream lookup and
 * result wrapping that a framework such as PyTorch gets, without that framework installed.
 */
#include "dltensor_test_wrapper.h"

#include <tvm/ffi/extra/c_env_api.h>

#include "error.h"
#include "object.h"
#include "tensor.h"

typedef struct {
  PyObject_HEAD
  PyObject* tensor; /* the wrapped tvm_ffi.Tensor (NULL before __init__) */
  PyObject* dict;   /* instance attributes, as the reference's wrapper allows */
} CoreDLTensorTestWrapper;

static PyTypeObject CoreDLTensorTestWrapper_Type;

/* The wrapped tensor, or NULL with an exception for a wrapper that was never initialised. */
static PyObject* wrapped(PyObject* self) {
  PyObject* tensor = ((CoreDLTensorTestWrapper*)self)->tensor;
  if (tensor == NULL) {
    PyErr_SetString(PyExc_ValueError, "DLTensorTestWrapper holds no tensor (__init__ was not called)");
  }
  return tensor;
}

/* ---- the exchange-API table ---- */

/* managed_tensor_from_py_object_no_sync: an owned DLPack export of the wrapped tensor. */
static int api_from_py_object(void* py_object, DLManagedTensorVersioned** out) {
  PyObject* tensor = wrapped((PyObject*)py_object);
  if (tensor == NULL) return -1;
  int rc = TVMFFITensorToDLPackVersioned(((CoreObject*)tensor)->chandle, out);
  if (rc != 0) {
    core_raise_from_rc(rc);
    return -1;
  }
  return 0;
}

/* managed_tensor_to_py_object_no_sync: a result tensor (ownership of `tensor` taken) as a Tensor. */
static int api_to_py_object(DLManagedTensorVersioned* tensor, void** out_py_object) {
  TVMFFIObjectHandle handle = NULL;
  int rc = TVMFFITensorFromDLPackVersioned(tensor, 0, 0, &handle);
  if (rc != 0) {
    core_raise_from_rc(rc);
    return -1;
  }
  PyObject* result = core_tensor_wrap(handle);
  if (result == NULL) return -1;
  *out_py_object = result;
  return 0;
}

/* current_work_stream: the environment's stream of a device (none for the CPU). */
static int api_current_work_stream(DLDeviceType device_type, int32_t device_id, void** out) {
  *out = device_type == kDLCPU ? NULL : TVMFFIEnvGetStream(device_type, device_id);
  return 0;
}

static DLPackExchangeAPI g_exchange_api = {
    .header = {.version = {.major = DLPACK_MAJOR_VERSION, .minor = DLPACK_MINOR_VERSION},
               .prev_api = NULL},
    .managed_tensor_allocator = NULL,
    .managed_tensor_from_py_object_no_sync = api_from_py_object,
    .managed_tensor_to_py_object_no_sync = api_to_py_object,
    .dltensor_from_py_object_no_sync = NULL,
    .current_work_stream = api_current_work_stream,
};

/* ---- the Python type ---- */

static int wrapper_init(PyObject* self, PyObject* args, PyObject* kwargs) {
  static char* kwlist[] = {"tensor", NULL};
  PyObject* tensor = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:DLTensorTestWrapper", kwlist, &tensor)) return -1;
  if (!PyObject_TypeCheck(tensor, &CoreTensor_Type)) {
    PyErr_Format(PyExc_TypeError, "DLTensorTestWrapper expects a tvm_ffi.Tensor, got `%s`",
                 Py_TYPE(tensor)->tp_name);
    return -1;
  }
  Py_INCREF(tensor);
  Py_XSETREF(((CoreDLTensorTestWrapper*)self)->tensor, tensor);
  return 0;
}

static int wrapper_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(((CoreDLTensorTestWrapper*)self)->tensor);
  Py_VISIT(((CoreDLTensorTestWrapper*)self)->dict);
  return 0;
}

static int wrapper_clear(PyObject* self) {
  Py_CLEAR(((CoreDLTensorTestWrapper*)self)->tensor);
  Py_CLEAR(((CoreDLTensorTestWrapper*)self)->dict);
  return 0;
}

static void wrapper_dealloc(PyObject* self) {
  PyObject_GC_UnTrack(self);
  wrapper_clear(self);
  Py_TYPE(self)->tp_free(self);
}

static PyObject* wrapper_env_stream(PyObject* self, PyObject* unused) {
  (void)unused;
  PyObject* tensor = wrapped(self);
  if (tensor == NULL) return NULL;
  DLTensor* dl = TVMFFITensorGetDLTensorPtr(((CoreObject*)tensor)->chandle);
  return PyLong_FromVoidPtr(TVMFFIEnvGetStream(dl->device.device_type, dl->device.device_id));
}

static PyObject* wrapper_dlpack_device(PyObject* self, PyObject* unused) {
  (void)unused;
  PyObject* tensor = wrapped(self);
  return tensor == NULL ? NULL : PyObject_CallMethod(tensor, "__dlpack_device__", NULL);
}

/* __dlpack__(*, **kwargs): the wrapped tensor's export, keywords passed on. */
static PyObject* wrapper_dlpack(PyObject* self, PyObject* args, PyObject* kwargs) {
  if (PyTuple_GET_SIZE(args) != 0) {
    PyErr_SetString(PyExc_TypeError, "__dlpack__() takes keyword arguments only");
    return NULL;
  }
  PyObject* tensor = wrapped(self);
  if (tensor == NULL) return NULL;
  PyObject* method = PyObject_GetAttrString(tensor, "__dlpack__");
  if (method == NULL) return NULL;
  PyObject* result = PyObject_Call(method, args, kwargs);
  Py_DECREF(method);
  return result;
}

static PyMethodDef wrapper_methods[] = {
    {"__tvm_ffi_env_stream__", wrapper_env_stream, METH_NOARGS,
     "The environment's current stream of the tensor's device, as an int (0: none)."},
    {"__dlpack_device__", wrapper_dlpack_device, METH_NOARGS, "(device_type, device_id)."},
    {"__dlpack__", (PyCFunction)(void (*)(void))wrapper_dlpack, METH_VARARGS | METH_KEYWORDS,
     "__dlpack__($self, /, **kwargs)\n--\n\nThe wrapped tensor's DLPack capsule."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef wrapper_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CoreDLTensorTestWrapper_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core.DLTensorTestWrapper",
    .tp_basicsize = sizeof(CoreDLTensorTestWrapper),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "DLTensorTestWrapper(tensor)\n--\n\n"
              "A Tensor behind the DLPack protocol and a DLPack exchange-API table, as a framework "
              "tensor would be; for tests.",
    .tp_new = PyType_GenericNew,
    .tp_init = wrapper_init,
    .tp_dealloc = wrapper_dealloc,
    .tp_traverse = wrapper_traverse,
    .tp_clear = wrapper_clear,
    .tp_methods = wrapper_methods,
    .tp_getset = wrapper_getset,
    .tp_dictoffset = offsetof(CoreDLTensorTestWrapper, dict),
};

int core_dltensor_test_wrapper_init(PyObject* module) {
  if (PyType_Ready(&CoreDLTensorTestWrapper_Type) < 0) return -1;
  PyObject* capsule = PyCapsule_New(&g_exchange_api, "dlpack_exchange_api", NULL);
  if (capsule == NULL) return -1;
  int rc = PyDict_SetItemString(CoreDLTensorTestWrapper_Type.tp_dict, "__dlpack_c_exchange_api__",
                                capsule);
  Py_DECREF(capsule);
  if (rc != 0) return -1;
  PyType_Modified(&CoreDLTensorTestWrapper_Type);
  Py_INCREF(&CoreDLTensorTestWrapper_Type);
  if (PyModule_AddObject(module, "DLTensorTestWrapper", (PyObject*)&CoreDLTensorTestWrapper_Type) < 0) {
    Py_DECREF(&CoreDLTensorTestWrapper_Type);
    return -1;
  }
  return 0;
}
