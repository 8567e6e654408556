/*
 * fixtures_core.c -- the plain call / error / refcount fixtures (TESTING_FIXTURES.md 1.1).
 *
 * Each one is native C on purpose: tests check that values round-trip through the C ABI,
 * that backtraces name C frames (TestRaiseError, TestApply), and that raw safe-call and
 * MLIR-packed entry points can be wrapped from Python.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <tvm/ffi/extra/c_env_api.h>

#include "testing_internal.h"

/* ---- packed fixtures: no arity or type checks beyond what memory safety needs ---- */

static int testing_echo(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  /* The reference reads past the array here; an explicit error is the safe equivalent. */
  if (num_args < 1) return testing_raise("TypeError", "testing.echo expects at least 1 argument");
  return TVMFFIAnyViewToOwnedAny(&args[0], result);
}

static int testing_nop(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  (void)args;
  (void)num_args;
  (void)result;
  return 0;
}

/* Named like the reference's C++ function so backtraces show "TestApply". The frame is added
 * explicitly (as for TestRaiseError) rather than by exporting the symbol: the runtime's stack
 * walk names exported frames, and TVMFFIFunctionCall is a tail call that leaves no boundary
 * frame behind, so an exported name could be listed twice by nested calls. */
static int TestApply(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  int32_t tindex = num_args < 1 ? kTVMFFINone : args[0].type_index;
  if (num_args < 1 || !testing_is_instance(tindex, kTVMFFIFunction)) {
    TVMFFIByteArray actual = testing_type_key(tindex);
    return testing_raise("TypeError", "Cannot convert from type `%.*s` to `ffi.Function`",
                         (int)actual.size, actual.data);
  }
  /* The callee only reads its arguments; the API takes them non-const for historical reasons. */
  int rc = TVMFFIFunctionCall(args[0].v_obj, (TVMFFIAny*)(args + 1), num_args - 1, result);
  if (rc == -1) {
    /* Like a C++ caller rethrowing: add this frame (and its exported callers up to the FFI
     * boundary) after the frames the error already carries, innermost first. */
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    if (err != NULL) {
      TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
      if (cell->update_backtrace != NULL) {
        cell->update_backtrace(err, TVMFFIBacktrace(__FILE__, __LINE__, "TestApply", 0),
                               kTVMFFIBacktraceUpdateModeAppend);
      }
      TVMFFIErrorSetRaised(err);
      TVMFFIObjectDecRef(err);
    }
  }
  return rc;
}

/* ---- typed fixtures ---- */

/* Raises kind/message with a backtrace whose innermost frame is this function. Kept hidden:
 * an exported name would make the stack walk list the frame a second time. */
static int TestRaiseError(const TVMFFIByteArray* kind, const TVMFFIByteArray* message) {
  const TVMFFIByteArray* backtrace = TVMFFIBacktrace(__FILE__, __LINE__, "TestRaiseError", 0);
  TVMFFIObjectHandle err = NULL;
  if (TVMFFIErrorCreate(kind, message, backtrace, &err) != 0) {
    return testing_raise("MemoryError", "testing.test_raise_error: cannot allocate the error");
  }
  TVMFFIErrorSetRaised(err);
  TVMFFIObjectDecRef(err);
  return -1;
}

static int testing_test_raise_error(const TestingFixture* fx, const TVMFFIAny* args,
                                    TVMFFIAny* result) {
  (void)result;
  TVMFFIByteArray kind;
  TVMFFIByteArray message;
  if (testing_arg_str(fx, args, 0, &kind) != 0 || testing_arg_str(fx, args, 1, &message) != 0) {
    return -1;
  }
  return TestRaiseError(&kind, &message);
}

/* C `int` semantics: the argument is truncated to 32 bits and the sum wraps. */
static int64_t add_one_int32(int64_t x) {
  return (int32_t)((uint32_t)x + 1u);
}

static int testing_add_one(const TestingFixture* fx, const TVMFFIAny* args, TVMFFIAny* result) {
  int64_t x;
  if (testing_arg_int(fx, args, 0, &x) != 0) return -1;
  testing_ret_int(result, add_one_int32(x));
  return 0;
}

static int testing_object_use_count(const TestingFixture* fx, const TVMFFIAny* args,
                                    TVMFFIAny* result) {
  /* A long str/bytes arrives as a borrowed view (RawStr / ByteArrayPtr). The reference's
   * frontend passes a fresh heap String/Bytes there, held only by this call: count 1. Short
   * ones would be SmallStr/SmallBytes, which are not objects, so they stay a mismatch. */
  const TVMFFIAny* arg = &args[0];
  if ((arg->type_index == kTVMFFIRawStr && strlen(arg->v_c_str) > 7) ||
      (arg->type_index == kTVMFFIByteArrayPtr && ((const TVMFFIByteArray*)arg->v_ptr)->size > 7)) {
    testing_ret_int(result, 1);
    return 0;
  }
  TVMFFIObject* obj;
  if (testing_arg_object(fx, args, 0, &obj) != 0) return -1;
  /* The strong count is the low half of the combined word; the view adds no reference. */
  uint64_t word = __atomic_load_n(&obj->combined_ref_count, __ATOMIC_RELAXED);
  testing_ret_int(result, (int64_t)(word & 0xFFFFFFFFu));
  return 0;
}

static int testing_run_check_signal(const TestingFixture* fx, const TVMFFIAny* args,
                                    TVMFFIAny* result) {
  (void)result;
  int64_t nsec;
  if (testing_arg_int(fx, args, 0, &nsec) != 0) return -1;
  for (int64_t i = 0; i < nsec; ++i) {
    if (TVMFFIEnvCheckSignals() != 0) {
      /* The frontend already holds the exception (e.g. KeyboardInterrupt): say so. */
      TVMFFIErrorSetRaisedFromCStr("EnvErrorAlreadySet", "");
      return -1;
    }
    struct timespec one_second = {1, 0};
    nanosleep(&one_second, NULL);
  }
  printf("Function finished without catching signal\n");
  fflush(stdout);
  return 0;
}

int testing_add_one_safe_call(void* handle, const TVMFFIAny* args, int32_t num_args,
                              TVMFFIAny* result) {
  (void)handle;
  /* The reference does not check num_args; reading a missing argument is never safe. */
  if (num_args < 1) {
    return testing_raise("TypeError", "add_one expects 1 argument but got %d", (int)num_args);
  }
  int32_t tindex = args[0].type_index;
  if (tindex != kTVMFFIInt && tindex != kTVMFFIBool) {
    TVMFFIByteArray actual = testing_type_key(tindex);
    return testing_raise("TypeError", "Cannot convert from type `%.*s` to `int`",
                         (int)actual.size, actual.data);
  }
  testing_ret_int(result, add_one_int32(args[0].v_int64));
  return 0;
}

/* MLIR packed convention: packed = {&handle, &args, &num_args, &result, &ret_code}. */
static void testing_add_one_mlir_packed(void** packed) {
  void* handle = *(void**)packed[0];
  const TVMFFIAny* args = *(const TVMFFIAny**)packed[1];
  int32_t num_args = *(int32_t*)packed[2];
  TVMFFIAny* result = *(TVMFFIAny**)packed[3];
  *(int*)packed[4] = testing_add_one_safe_call(handle, args, num_args, result);
}

static int testing_get_add_one_c_symbol(const TestingFixture* fx, const TVMFFIAny* args,
                                        TVMFFIAny* result) {
  (void)fx;
  (void)args;
  testing_ret_int(result, (int64_t)(intptr_t)&testing_add_one_safe_call);
  return 0;
}

static int testing_get_mlir_add_one_c_symbol(const TestingFixture* fx, const TVMFFIAny* args,
                                             TVMFFIAny* result) {
  (void)fx;
  (void)args;
  testing_ret_int(result, (int64_t)(intptr_t)&testing_add_one_mlir_packed);
  return 0;
}

static int testing_optional_tensor_view_has_value(const TestingFixture* fx,
                                                  const TVMFFIAny* args, TVMFFIAny* result) {
  int32_t tindex = args[0].type_index;
  if (tindex == kTVMFFINone) {
    testing_ret_bool(result, false);
    return 0;
  }
  if (tindex == kTVMFFIDLTensorPtr || testing_is_instance(tindex, kTVMFFITensor)) {
    testing_ret_bool(result, true);
    return 0;
  }
  return testing_type_mismatch(fx, 0, "Optional<DLTensor*>", tindex);
}

/* ---- the table ---- */

const TestingFixture kTestingCoreFixtures[] = {
    {"testing.echo", NULL, SCHEMA_PACKED, 0, NULL, testing_echo},
    {"testing.nop", NULL, SCHEMA_PACKED, 0, NULL, testing_nop},
    {"testing.apply", NULL, SCHEMA_PACKED, 0, NULL, TestApply},
    {"testing.test_raise_error", "testing.test_raise_error(0: str, 1: str) -> void",
     SCHEMA_FN(T_NONE, T_STR "," T_STR), 2, testing_test_raise_error, NULL},
    {"testing.add_one", "testing.add_one(0: int) -> int", SCHEMA_FN(T_INT, T_INT), 1,
     testing_add_one, NULL},
    {"testing.object_use_count", "testing.object_use_count(0: ffi.Object) -> int",
     SCHEMA_FN(T_INT, T_OBJECT), 1, testing_object_use_count, NULL},
    {"testing.run_check_signal", "testing.run_check_signal(0: int) -> void",
     SCHEMA_FN(T_NONE, T_INT), 1, testing_run_check_signal, NULL},
    {"testing.get_add_one_c_symbol", "testing.get_add_one_c_symbol() -> int",
     SCHEMA_FN(T_INT, ""), 0, testing_get_add_one_c_symbol, NULL},
    {"testing.get_mlir_add_one_c_symbol", "testing.get_mlir_add_one_c_symbol() -> int",
     SCHEMA_FN(T_INT, ""), 0, testing_get_mlir_add_one_c_symbol, NULL},
    {"testing.optional_tensor_view_has_value",
     "testing.optional_tensor_view_has_value(0: Optional<DLTensor*>) -> bool",
     SCHEMA_FN(T_BOOL, T_OPT_DLTENSOR), 1, testing_optional_tensor_view_has_value, NULL},
};
const int kTestingNumCoreFixtures = (int)(sizeof(kTestingCoreFixtures) /
                                          sizeof(kTestingCoreFixtures[0]));
