/*
 * structural_entry.c -- structural_hash and structural_equal: the runtime's ffi.StructuralHash
 * and ffi.StructuralEqual called straight from C.
 *
 * Both sit on hot paths (dict keys, memo tables and caches in compilers, StructuralKey), where
 * Python wrappers cost a frame and keyword handling, and the hash a big-integer mask that turns
 * the runtime's signed 64-bit result into the unsigned value the API promises. Here a call is
 * the runtime function through the call layer (GIL kept: both are runtime built-ins that never
 * wait for another thread), and the hash comes back through PyLong_FromUnsignedLongLong.
 *
 * Signatures: structural_hash(value, map_free_vars=False, skip_tensor_content=False) and
 * structural_equal(lhs, rhs, map_free_vars=False, skip_tensor_content=False). The two flags are
 * passed to the runtime only when one is set, as the runtime's defaults are the same.
 */
#include "structural_entry.h"

#include "call.h"
#include "convert_result.h"
#include "fastcall_args.h"
#include "globals.h"

#define MAX_PARAMS 4
#define NUM_FLAGS 2

typedef struct {
  const char* py_name;      /* in messages */
  const char* global_name;  /* the runtime function */
  int num_values;           /* leading parameters without a default */
  const char* params[MAX_PARAMS];
  TVMFFIObjectHandle handle; /* looked up on first use, kept for the process */
  PyObject* name;            /* global_name as str, for conversion errors */
} StructuralEntry;

static StructuralEntry g_hash = {"structural_hash", "ffi.StructuralHash", 1,
                                 {"value", "map_free_vars", "skip_tensor_content"}, NULL, NULL};
static StructuralEntry g_equal = {"structural_equal", "ffi.StructuralEqual", 2,
                                  {"lhs", "rhs", "map_free_vars", "skip_tensor_content"}, NULL, NULL};

/* Calls the entry's runtime function; *result owned on success. */
static int call_entry(StructuralEntry* entry, PyObject* const* args, Py_ssize_t nargsf,
                      PyObject* kwnames, TVMFFIAny* result) {
  Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  PyObject* bound[MAX_PARAMS];
  Py_ssize_t num_args = entry->num_values;
  if (CORE_LIKELY(kwnames == NULL && nargs == num_args)) {
    for (Py_ssize_t i = 0; i < nargs; ++i) bound[i] = args[i]; /* the usual call: no flags */
  } else {
    if (core_bind_fastcall(entry->py_name, entry->params, entry->num_values + NUM_FLAGS,
                           entry->num_values, args, nargs, kwnames, bound) != 0) {
      return -1;
    }
    /* Ints become bools; any other value goes to the runtime as it is, whose argument check
     * refuses what is no bool with the reference's message. */
    int any_flag = 0;
    for (int f = 0; f < NUM_FLAGS; ++f) {
      PyObject** flag = &bound[entry->num_values + f];
      if (*flag == NULL) {
        *flag = Py_False;
      } else if (PyLong_Check(*flag)) {
        *flag = PyObject_IsTrue(*flag) ? Py_True : Py_False;
      }
      any_flag |= *flag != Py_False;
    }
    if (any_flag) num_args += NUM_FLAGS;
  }
  if (core_cached_global(&entry->handle, entry->global_name) != 0) return -1;
  CoreFramework fw;
  return core_call(entry->handle, bound, num_args, entry->name, result, &fw);
}

static PyObject* mod_structural_hash(PyObject* self, PyObject* const* args, Py_ssize_t nargsf,
                                     PyObject* kwnames) {
  (void)self;
  TVMFFIAny result;
  if (call_entry(&g_hash, args, nargsf, kwnames, &result) != 0) return NULL;
  if (CORE_LIKELY(result.type_index == kTVMFFIInt)) {
    return PyLong_FromUnsignedLongLong((unsigned long long)result.v_int64);
  }
  return core_any_to_py(&result); /* not a hash: show the caller what came back */
}

static PyObject* mod_structural_equal(PyObject* self, PyObject* const* args, Py_ssize_t nargsf,
                                      PyObject* kwnames) {
  (void)self;
  TVMFFIAny result;
  if (call_entry(&g_equal, args, nargsf, kwnames, &result) != 0) return NULL;
  if (CORE_LIKELY(result.type_index == kTVMFFIBool)) return PyBool_FromLong(result.v_int64 != 0);
  return core_any_to_py(&result);
}

static PyMethodDef structural_methods[] = {
    {"structural_hash", (PyCFunction)(void (*)(void))mod_structural_hash,
     METH_FASTCALL | METH_KEYWORDS,
     "structural_hash($module, /, value, map_free_vars=False, skip_tensor_content=False)\n"
     "--\n"
     "\n"
     "Hash a value by structure, consistently with :func:`structural_equal`.\n"
     "\n"
     "Parameters\n"
     "----------\n"
     "value : Any\n"
     "    The value to hash.\n"
     "map_free_vars : bool, optional\n"
     "    Hash free variables by position rather than identity (default False).\n"
     "skip_tensor_content : bool, optional\n"
     "    Hash tensors by shape and dtype only (default False).\n"
     "\n"
     "Returns\n"
     "-------\n"
     "int\n"
     "    An unsigned 64-bit hash; structurally equal values hash equal.\n"
     "\n"
     "Examples\n"
     "--------\n"
     ">>> from tvm_ffi.structural import structural_hash\n"
     ">>> structural_hash([1, 2]) == structural_hash((1, 2))\n"
     "True\n"
     ">>> 0 <= structural_hash(tvm_ffi.Array([1, 2])) < 2**64\n"
     "True\n"},
    {"structural_equal", (PyCFunction)(void (*)(void))mod_structural_equal,
     METH_FASTCALL | METH_KEYWORDS,
     "structural_equal($module, /, lhs, rhs, map_free_vars=False, skip_tensor_content=False)\n"
     "--\n"
     "\n"
     "Compare two values by structure: same types and equal fields, recursively.\n"
     "\n"
     "Parameters\n"
     "----------\n"
     "lhs, rhs : Any\n"
     "    The values to compare (objects, containers, primitives).\n"
     "map_free_vars : bool, optional\n"
     "    Let free variables of one side be mapped onto those of the other (default False).\n"
     "skip_tensor_content : bool, optional\n"
     "    Compare tensors by shape and dtype only, not by their bytes (default False).\n"
     "\n"
     "Returns\n"
     "-------\n"
     "bool\n"
     "    True when the values are structurally equal.\n"
     "\n"
     "Examples\n"
     "--------\n"
     ">>> from tvm_ffi.structural import structural_equal\n"
     ">>> structural_equal([1, {\"a\": 2}], [1, {\"a\": 2}])\n"
     "True\n"
     ">>> structural_equal([1, 2], [1, 3])\n"
     "False\n"},
    {NULL, NULL, 0, NULL},
};

int core_structural_entry_init(PyObject* module) {
  g_hash.name = PyUnicode_InternFromString(g_hash.global_name);
  g_equal.name = PyUnicode_InternFromString(g_equal.global_name);
  if (g_hash.name == NULL || g_equal.name == NULL) return -1;
  return PyModule_AddFunctions(module, structural_methods);
}
