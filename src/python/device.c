/*
 * device.c -- Device: a DLDevice value with the device-type names of DLPack (cpu, cuda, ...).
 */
#include <stdlib.h>
#include <string.h>

#include "device.h"

typedef struct {
  const char* name;
  int32_t type;
} DeviceName;

/* Canonical names first (used for printing), then parser-only aliases. */
static const DeviceName kDeviceNames[] = {
    {"cpu", 1},        {"cuda", 2},     {"cuda_host", 3},     {"opencl", 4},   {"vulkan", 7},
    {"metal", 8},      {"vpi", 9},      {"rocm", 10},         {"rocm_host", 11},
    {"ext_dev", 12},   {"cuda_managed", 13}, {"oneapi", 14}, {"webgpu", 15},  {"hexagon", 16},
    {"maia", 17},      {"trn", 18},     {"mps", 8},           {"wgpu", 15},
};
static const size_t kNumCanonicalNames = 16;

static const char* device_type_name(int32_t type) {
  for (size_t i = 0; i < kNumCanonicalNames; ++i) {
    if (kDeviceNames[i].type == type) return kDeviceNames[i].name;
  }
  return NULL;
}

static int device_type_from_name(const char* name, size_t len, int32_t* out) {
  for (size_t i = 0; i < sizeof(kDeviceNames) / sizeof(kDeviceNames[0]); ++i) {
    if (strlen(kDeviceNames[i].name) == len && memcmp(kDeviceNames[i].name, name, len) == 0) {
      *out = kDeviceNames[i].type;
      return 0;
    }
  }
  return -1;
}

PyTypeObject* core_device_class = &CoreDevice_Type;

PyObject* core_device_new(DLDevice device) {
  PyTypeObject* cls = core_device_class;
  CoreDevice* self = CORE_LIKELY(cls == &CoreDevice_Type) ? PyObject_New(CoreDevice, cls)
                                                          : (CoreDevice*)cls->tp_alloc(cls, 0);
  if (self == NULL) return NULL;
  self->device = device;
  return (PyObject*)self;
}

/* Raised for an index outside int32: an OverflowError (what the reference raises, converting to
 * int32_t) and a ValueError (what this package raised before). */
static PyObject* g_index_out_of_range = NULL;

/* An int-like device index: int, objects with __index__, or numpy-style .item(). */
static int parse_index(PyObject* index, int32_t* out) {
  PyObject* as_int = NULL;
  if (PyIndex_Check(index)) {
    as_int = PyNumber_Index(index);
  } else if (PyObject_HasAttrString(index, "item")) {
    PyObject* item = PyObject_CallMethod(index, "item", NULL);
    if (item == NULL) return -1;
    if (PyLong_Check(item)) {
      as_int = item;
    } else {
      Py_DECREF(item);
    }
  }
  if (as_int == NULL) {
    if (!PyErr_Occurred()) {
      PyErr_Format(PyExc_TypeError, "Invalid device index: expected an int, got `%s`",
                   Py_TYPE(index)->tp_name);
    }
    return -1;
  }
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(as_int, &overflow);
  if (overflow != 0 || v < INT32_MIN || v > INT32_MAX) {
    PyErr_Format(g_index_out_of_range, "Invalid device index: %R is out of range (int32)", as_int);
    Py_DECREF(as_int);
    return -1;
  }
  Py_DECREF(as_int);
  if (v == -1 && PyErr_Occurred()) return -1;
  *out = (int32_t)v;
  return 0;
}

/* Raises ValueError("<prefix><text[:len]>"); PyErr_Format has no %.*s before Python 3.12. */
static int raise_bad_text(const char* prefix, const char* text, size_t len) {
  PyObject* part = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "replace");
  if (part != NULL) {
    PyErr_Format(PyExc_ValueError, "%s%U", prefix, part);
    Py_DECREF(part);
  }
  return -1;
}

/* "cuda", "cuda:1" (anything after a space is ignored, as in "cuda:0 (note)"). */
static int parse_name(PyObject* text, int32_t* type, int32_t* index, int* has_index) {
  Py_ssize_t size;
  const char* s = PyUnicode_AsUTF8AndSize(text, &size);
  if (s == NULL) return -1;
  const char* space = memchr(s, ' ', (size_t)size);
  size_t len = space != NULL ? (size_t)(space - s) : (size_t)size;
  const char* colon = memchr(s, ':', len);
  size_t name_len = colon != NULL ? (size_t)(colon - s) : len;
  if (device_type_from_name(s, name_len, type) != 0) {
    return raise_bad_text("Unknown device: ", s, name_len);
  }
  *has_index = 0;
  if (colon == NULL) return 0;
  const char* digits = colon + 1;
  size_t ndigits = len - name_len - 1;
  char buf[32];
  char* end = NULL;
  long v = 0;
  if (ndigits > 0 && ndigits < sizeof(buf)) {
    memcpy(buf, digits, ndigits);
    buf[ndigits] = '\0';
    v = strtol(buf, &end, 10);
  }
  if (end == NULL || *end != '\0') return raise_bad_text("Invalid device index: ", digits, ndigits);
  if (v < INT32_MIN || v > INT32_MAX) { /* as for an int index (negative ones are kept) */
    PyErr_Format(g_index_out_of_range, "Invalid device index: %s is out of range (int32)", buf);
    return -1;
  }
  *index = (int32_t)v;
  *has_index = 1;
  return 0;
}

static PyObject* device_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
  static char* kwlist[] = {"device_type", "index", NULL};
  PyObject* device_type;
  PyObject* index = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:Device", kwlist, &device_type, &index)) {
    return NULL;
  }
  int32_t dev_type = 0, dev_id = 0;
  int has_index = 0;
  if (PyUnicode_Check(device_type)) {
    if (parse_name(device_type, &dev_type, &dev_id, &has_index) != 0) return NULL;
  } else if (PyIndex_Check(device_type)) {
    if (parse_index(device_type, &dev_type) != 0) return NULL;
  } else {
    PyErr_Format(PyExc_TypeError, "Device type must be a str or an int, got `%s`",
                 Py_TYPE(device_type)->tp_name);
    return NULL;
  }
  /* An index written in the string ("cuda:1") wins over the argument, as in the reference. */
  if (index != Py_None && !has_index) {
    if (parse_index(index, &dev_id) != 0) return NULL;
  }
  CoreDevice* self = (CoreDevice*)type->tp_alloc(type, 0);
  if (self == NULL) return NULL;
  self->device.device_type = (DLDeviceType)dev_type;
  self->device.device_id = dev_id;
  return (PyObject*)self;
}

static void device_dealloc(PyObject* op) { Py_TYPE(op)->tp_free(op); }

static DLDevice device_of(PyObject* op) { return ((CoreDevice*)op)->device; }

static PyObject* device_type_name_method(PyObject* op, PyObject* unused) {
  (void)unused;
  const char* name = device_type_name((int32_t)device_of(op).device_type);
  if (name == NULL) {
    PyErr_Format(PyExc_ValueError, "Unknown device type %d", (int)device_of(op).device_type);
    return NULL;
  }
  return PyUnicode_FromString(name);
}

/* Device.__device_type_name__ as CoreDevice_Type defines it (borrowed, set at start-up). */
static PyObject* g_base_type_name_method = NULL;

/* A subclass that overrides __device_type_name__ (TVM names its RPC devices "remote[...]:cpu")
 * prints, and answers `.type`, with its own name; NULL when it does not override it. */
static PyObject* overriding_name(PyObject* op) {
  if (CORE_LIKELY(Py_TYPE(op) == &CoreDevice_Type)) return NULL;
  static PyObject* attr = NULL;
  if (attr == NULL && (attr = PyUnicode_InternFromString("__device_type_name__")) == NULL) {
    return NULL;
  }
  PyObject* method = _PyType_Lookup(Py_TYPE(op), attr); /* borrowed */
  if (method == NULL || method == g_base_type_name_method) return NULL;
  return PyObject_CallMethodNoArgs(op, attr);
}

/* The name for printing: a subclass's own, else the canonical one; unknown device types print
 * as their number. */
static PyObject* display_name(PyObject* op) {
  PyObject* own = overriding_name(op);
  if (own != NULL || PyErr_Occurred()) return own;
  DLDevice dev = device_of(op);
  const char* name = device_type_name((int32_t)dev.device_type);
  return name != NULL ? PyUnicode_FromString(name)
                      : PyUnicode_FromFormat("%d", (int)dev.device_type);
}

/* Appends the decimal text of `value` at `out`; returns the end. */
static char* append_int(char* out, long value) {
  char digits[24];
  int n = 0;
  unsigned long magnitude = value < 0 ? 0UL - (unsigned long)value : (unsigned long)value;
  do {
    digits[n++] = (char)('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude != 0);
  if (value < 0) *out++ = '-';
  while (n > 0) *out++ = digits[--n];
  return out;
}

static char* append_text(char* out, const char* text) {
  size_t len = strlen(text);
  memcpy(out, text, len);
  return out + len;
}

/* str() "cuda:0" or repr() "device(type='cuda', index=0)". A canonical name is formatted in a
 * stack buffer (PyUnicode_FromFormat cost most of the call); a subclass's own name or an
 * unknown type's number goes through Python's formatting. */
static PyObject* device_text(PyObject* op, int as_repr) {
  DLDevice dev = device_of(op);
  const char* name = Py_TYPE(op) == &CoreDevice_Type ? device_type_name((int32_t)dev.device_type)
                                                     : NULL;
  if (CORE_LIKELY(name != NULL)) {
    char buf[64]; /* the longest: "device(type='cuda_managed', index=-2147483648)" */
    char* end = buf;
    end = append_text(end, as_repr ? "device(type='" : "");
    end = append_text(end, name);
    end = append_text(end, as_repr ? "', index=" : ":");
    end = append_int(end, (long)dev.device_id);
    end = append_text(end, as_repr ? ")" : "");
    return PyUnicode_FromStringAndSize(buf, end - buf);
  }
  PyObject* shown = display_name(op);
  if (shown == NULL) return NULL;
  PyObject* out = as_repr ? PyUnicode_FromFormat("device(type='%U', index=%d)", shown,
                                                 (int)dev.device_id)
                          : PyUnicode_FromFormat("%U:%d", shown, (int)dev.device_id);
  Py_DECREF(shown);
  return out;
}

static PyObject* device_str(PyObject* op) { return device_text(op, 0); }

static PyObject* device_repr(PyObject* op) { return device_text(op, 1); }

static PyObject* device_richcompare(PyObject* a, PyObject* b, int op) {
  if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, &CoreDevice_Type)) {
    Py_RETURN_NOTIMPLEMENTED;
  }
  DLDevice x = device_of(a), y = device_of(b);
  int same = x.device_type == y.device_type && x.device_id == y.device_id;
  return PyBool_FromLong(op == Py_EQ ? same : !same);
}

/* hash((device_type, device_id)), computed without making the tuple: CPython's tuple hash
 * (xxHash-style, the same in every version since 3.8) over two small ints, whose hashes are
 * themselves (-1 excepted). tests/test_dtype_device.py holds it equal to the tuple's. */
static Py_hash_t device_hash(PyObject* op) {
#if SIZEOF_PY_UHASH_T > 4
  const Py_uhash_t prime1 = 11400714785074694791ULL, prime2 = 14029467366897019727ULL,
                   prime5 = 2870177450012600261ULL;
#define CORE_HASH_ROTATE(x) (((x) << 31) | ((x) >> 33))
#else
  const Py_uhash_t prime1 = 2654435761UL, prime2 = 2246822519UL, prime5 = 374761393UL;
#define CORE_HASH_ROTATE(x) (((x) << 13) | ((x) >> 19))
#endif
  DLDevice dev = device_of(op);
  long items[2] = {(long)dev.device_type, (long)dev.device_id};
  Py_uhash_t acc = prime5;
  for (int i = 0; i < 2; ++i) {
    Py_uhash_t lane = (Py_uhash_t)(items[i] == -1 ? -2 : items[i]);
    acc += lane * prime2;
    acc = CORE_HASH_ROTATE(acc);
    acc *= prime1;
  }
#undef CORE_HASH_ROTATE
  acc += 2 ^ (prime5 ^ 3527539UL);
  return acc == (Py_uhash_t)-1 ? 1546275796 : (Py_hash_t)acc;
}

/* (tvm_ffi.core._create_device_from_tuple, (cls, device_type, index)): the reference's form,
 * so that either package loads the other's device pickles (the function lives in _device.py). */
static PyObject* device_reduce(PyObject* op, PyObject* unused) {
  (void)unused;
  PyObject* core = PyImport_ImportModule("tvm_ffi.core");
  PyObject* rebuild = core != NULL ? PyObject_GetAttrString(core, "_create_device_from_tuple") : NULL;
  Py_XDECREF(core);
  if (rebuild == NULL) return NULL;
  return Py_BuildValue("(N(Oii))", rebuild, (PyObject*)Py_TYPE(op), (int)device_of(op).device_type,
                       (int)device_of(op).device_id);
}

static PyObject* device_dlpack_device_type(PyObject* op, PyObject* unused) {
  (void)unused;
  return PyLong_FromLong((long)device_of(op).device_type);
}

static PyObject* device_get_type(PyObject* op, void* closure) {
  (void)closure;
  PyObject* own = overriding_name(op);
  if (own != NULL || PyErr_Occurred()) return own;
  return device_type_name_method(op, NULL);
}

static PyObject* device_get_index(PyObject* op, void* closure) {
  (void)closure;
  return PyLong_FromLong((long)device_of(op).device_id);
}

static PyMethodDef device_methods[] = {
    {"__device_type_name__", device_type_name_method, METH_NOARGS,
     "Canonical name of the device type, e.g. 'cuda'."},
    {"dlpack_device_type", device_dlpack_device_type, METH_NOARGS,
     "dlpack_device_type($self, /)\n"
     "--\n"
     "\n"
     "Return the device type as a DLPack DLDeviceType value.\n"
     "\n"
     "Returns\n"
     "-------\n"
     "int\n"
     "    The DLDeviceType number (1 for CPU, 2 for CUDA, ...).\n"
     "\n"
     "Examples\n"
     "--------\n"
     ">>> tvm_ffi.device(\"cuda:1\").dlpack_device_type()\n"
     "2"},
    {"__reduce__", device_reduce, METH_NOARGS, "Pickles as (class, device_type, index)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef device_getset[] = {
    {"type", device_get_type, NULL, "Device type name, e.g. 'cuda'.", NULL},
    {"index", device_get_index, NULL, "Device index.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject CoreDevice_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core.Device",
    .tp_basicsize = sizeof(CoreDevice),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Device(device_type, index=None)\n"
              "--\n"
              "\n"
              "A DLPack device such as cuda:1 (passed by value).\n"
              "\n"
              "Parameters\n"
              "----------\n"
              "device_type : str or int\n"
              "    A name (``\"cpu\"``, ``\"cuda\"``, ``\"cuda:1\"``) or a ``DLDeviceType`` code.\n"
              "index : int, optional\n"
              "    The device ordinal; defaults to the one in the name, else 0.\n"
              "\n"
              "Examples\n"
              "--------\n"
              ">>> dev = tvm_ffi.Device(\"cuda\", 1)\n"
              ">>> dev, str(dev), dev.dlpack_device_type()\n"
              "(device(type='cuda', index=1), 'cuda:1', 2)",
    .tp_new = device_new,
    .tp_dealloc = device_dealloc,
    .tp_str = device_str,
    .tp_repr = device_repr,
    .tp_richcompare = device_richcompare,
    .tp_hash = device_hash,
    .tp_methods = device_methods,
    .tp_getset = device_getset,
};

/* The reference's class attributes `_DEVICE_TYPE_TO_NAME` (canonical names) and
 * `_DEVICE_NAME_TO_TYPE` (every accepted name), which code written for it reads (TVM's target
 * detection). They are published copies: parsing and printing use kDeviceNames. */
static int publish_name_tables(void) {
  PyObject* to_name = PyDict_New();
  PyObject* to_type = PyDict_New();
  int rc = to_name != NULL && to_type != NULL ? 0 : -1;
  for (size_t i = 0; rc == 0 && i < sizeof(kDeviceNames) / sizeof(kDeviceNames[0]); ++i) {
    PyObject* type = PyLong_FromLong(kDeviceNames[i].type);
    PyObject* name = PyUnicode_FromString(kDeviceNames[i].name);
    rc = type != NULL && name != NULL ? 0 : -1;
    if (rc == 0 && i < kNumCanonicalNames) rc = PyDict_SetItem(to_name, type, name);
    if (rc == 0) rc = PyDict_SetItem(to_type, name, type);
    Py_XDECREF(type);
    Py_XDECREF(name);
  }
  PyObject* dict = CoreDevice_Type.tp_dict;
  if (rc == 0) rc = PyDict_SetItemString(dict, "_DEVICE_TYPE_TO_NAME", to_name);
  if (rc == 0) rc = PyDict_SetItemString(dict, "_DEVICE_NAME_TO_TYPE", to_type);
  Py_XDECREF(to_name);
  Py_XDECREF(to_type);
  if (rc == 0) PyType_Modified(&CoreDevice_Type);
  return rc;
}

int core_device_init_types(PyObject* module) {
  if (PyType_Ready(&CoreDevice_Type) < 0) return -1;
  g_base_type_name_method = PyDict_GetItemString(CoreDevice_Type.tp_dict, "__device_type_name__");
  if (g_base_type_name_method == NULL || publish_name_tables() != 0) return -1;
  Py_INCREF(&CoreDevice_Type);
  if (PyModule_AddObject(module, "Device", (PyObject*)&CoreDevice_Type) < 0) {
    Py_DECREF(&CoreDevice_Type);
    return -1;
  }
  PyObject* bases = PyTuple_Pack(2, PyExc_OverflowError, PyExc_ValueError);
  if (bases == NULL) return -1;
  g_index_out_of_range = PyErr_NewExceptionWithDoc(
      "tvm_ffi.core.DeviceIndexError",
      "A device type or index outside int32 (an OverflowError and a ValueError).", bases, NULL);
  Py_DECREF(bases);
  if (g_index_out_of_range == NULL ||
      PyModule_AddObjectRef(module, "DeviceIndexError", g_index_out_of_range) < 0) {
    return -1;
  }
  return 0;
}
