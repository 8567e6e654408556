/* Errors: the thread-local raised slot, error objects, cause chains, backtraces. */
#include <pthread.h>

#include "check.h"

static void test_set_raised_from_cstr_then_move(void) {
  TVMFFIErrorSetRaisedFromCStr("ValueError", "Expected at least 2 arguments");
  void* err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err != NULL);
  CHECK_EQ_INT(TVMFFIObjectGetTypeIndex(err), kTVMFFIError);
  TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
  CHECK_BYTES_EQ(cell->kind, "ValueError");
  CHECK_BYTES_EQ(cell->message, "Expected at least 2 arguments");
  CHECK(cell->update_backtrace != NULL);
  CHECK(cell->cause_chain == NULL && cell->extra_context == NULL);
  CHECK_EQ_INT(check_strong_count(err), 1);
  /* The slot is empty after the move. */
  void* again = (void*)0x1;
  TVMFFIErrorMoveFromRaised(&again);
  CHECK(again == NULL);
  TVMFFIObjectDecRef(err);
}

static void test_message_parts_skip_null_parts(void) {
  const char* parts[3] = {"a", NULL, "c"};
  TVMFFIErrorSetRaisedFromCStrParts("TypeError", parts, 3);
  CHECK_RAISED("TypeError", "ac");
  TVMFFIErrorSetRaisedFromCStrParts("TypeError", NULL, 0);
  void* err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err != NULL);
  CHECK_EQ_INT(TVMFFIErrorGetCellPtr(err)->message.size, 0);
  TVMFFIObjectDecRef(err);
}

static void test_set_raised_adds_a_reference(void) {
  TVMFFIByteArray kind = check_ba("RuntimeError"), msg = check_ba("boom"), bt = check_ba("");
  void* err = NULL;
  CHECK_EQ_INT(TVMFFIErrorCreate(&kind, &msg, &bt, &err), 0);
  TVMFFIErrorSetRaised(err);
  CHECK_EQ_INT(check_strong_count(err), 2);
  void* moved = NULL;
  TVMFFIErrorMoveFromRaised(&moved);
  CHECK(moved == err);
  CHECK_EQ_INT(check_strong_count(err), 2); /* the move hands the slot's reference over */
  TVMFFIObjectDecRef(moved);
  TVMFFIObjectDecRef(err);
}

static void test_raising_replaces_a_pending_error(void) {
  TVMFFIErrorSetRaisedFromCStr("ValueError", "first");
  TVMFFIErrorSetRaisedFromCStr("KeyError", "second");
  CHECK_RAISED("KeyError", "second");
  CHECK(check_no_error_pending());
}

static void test_cause_chain_and_extra_context_are_owned_by_the_cell(void) {
  TVMFFIByteArray kind = check_ba("ValueError"), msg = check_ba("outer"), bt = check_ba("  File \"x.c\", line 1, in f\n");
  TVMFFIByteArray cause_kind = check_ba("KeyError"), cause_msg = check_ba("inner");
  void *cause = NULL, *extra = NULL, *err = NULL;
  CHECK_EQ_INT(TVMFFIErrorCreate(&cause_kind, &cause_msg, NULL, &cause), 0);
  CHECK_EQ_INT(TVMFFIObjectCreateOpaque(NULL, kTVMFFIOpaquePyObject, NULL, &extra), 0);
  CHECK_EQ_INT(TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &msg, &bt, cause, extra, &err), 0);
  TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
  CHECK(cell->cause_chain == cause);
  CHECK(cell->extra_context == extra);
  CHECK_EQ_INT(check_strong_count(cause), 2);
  CHECK_EQ_INT(check_strong_count(extra), 2);
  CHECK_BYTES_EQ(cell->backtrace, "  File \"x.c\", line 1, in f\n");
  TVMFFIObjectDecRef(cause);
  TVMFFIObjectDecRef(extra);
  TVMFFIObjectDecRef(err); /* releases both (LeakSanitizer checks) */
}

static void test_update_backtrace_replaces_and_appends(void) {
  TVMFFIByteArray kind = check_ba("ValueError"), msg = check_ba("m"), bt = check_ba("frame0\n");
  void* err = NULL;
  CHECK_EQ_INT(TVMFFIErrorCreate(&kind, &msg, &bt, &err), 0);
  TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
  TVMFFIByteArray more = check_ba("frame1\n");
  cell->update_backtrace(err, &more, kTVMFFIBacktraceUpdateModeAppend);
  CHECK_BYTES_EQ(cell->backtrace, "frame0\nframe1\n");
  TVMFFIByteArray fresh = check_ba("only\n");
  cell->update_backtrace(err, &fresh, kTVMFFIBacktraceUpdateModeReplace);
  CHECK_BYTES_EQ(cell->backtrace, "only\n");
  CHECK_EQ_INT(cell->backtrace.data[cell->backtrace.size], '\0');
  TVMFFIObjectDecRef(err);
}

static void test_error_create_accepts_empty_and_null_texts(void) {
  void* err = NULL;
  CHECK_EQ_INT(TVMFFIErrorCreate(NULL, NULL, NULL, &err), 0);
  TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
  CHECK_EQ_INT(cell->kind.size + cell->message.size + cell->backtrace.size, 0);
  TVMFFIObjectDecRef(err);
  CHECK_EQ_INT(TVMFFIErrorCreate(NULL, NULL, NULL, NULL), -1);
  CHECK(check_no_error_pending()); /* creation failures never touch the slot */
}

static void test_backtrace_starts_with_the_named_frame(void) {
  const TVMFFIByteArray* bt = TVMFFIBacktrace("kernel.c", 42, "MyKernel", 0);
  CHECK(bt != NULL);
  CHECK_CONTAINS(*bt, "  File \"kernel.c\", line 42, in MyKernel\n");
  CHECK(bt->size >= strlen("  File \"kernel.c\", line 42, in MyKernel\n"));
  CHECK(memcmp(bt->data, "  File \"kernel.c\"", 17) == 0);
}

static void test_backtrace_includes_exported_callers(void) {
  /* main is exported from test executables built with -rdynamic only, so only check the call
   * succeeds and frames, if any, use the documented line format. */
  const TVMFFIByteArray* bt = TVMFFIBacktrace(NULL, 0, NULL, 1);
  CHECK(bt != NULL);
  if (bt->size != 0) CHECK_CONTAINS(*bt, "  File \"");
}

/* A C program raising through the C API: its own functions (not exported: no -rdynamic) are
 * named in the error's backtrace, from its symbol table, as the reference names them. */
static __attribute__((noinline)) void raise_from_a_static_helper(void) {
  TVMFFIErrorSetRaisedFromCStr("ValueError", "raised by the program");
}

static void test_errors_raised_by_the_program_name_its_functions(void) {
  raise_from_a_static_helper();
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err != NULL);
  const TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
  CHECK_CONTAINS(cell->backtrace, "in raise_from_a_static_helper\n");
  CHECK_CONTAINS(cell->backtrace, "in test_errors_raised_by_the_program_name_its_functions\n");
  TVMFFIObjectDecRef(err);
}

/* A function raising when called through TVMFFIFunctionCall: its backtrace names it, the same
 * on every raise (the first walk learns where the boundaries are, later ones stop early there).
 * TVMFFIFunctionCall may reach the function by a tail call, leaving no frame of its own. */
static int raising_safe_call(void* self, const TVMFFIAny* args, int32_t num_args,
                             TVMFFIAny* result) {
  (void)self, (void)args, (void)num_args, (void)result;
  TVMFFIErrorSetRaisedFromCStr("ValueError", "raised inside a call");
  return -1;
}

static __attribute__((noinline)) TVMFFIObjectHandle call_it_through_the_runtime(void* func) {
  TVMFFIAny result;
  CHECK_EQ_INT(TVMFFIFunctionCall(func, NULL, 0, &result), -1);
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err != NULL);
  return err;
}

static void test_backtraces_of_a_repeated_raise_are_the_same(void) {
  void* func = NULL;
  CHECK_EQ_INT(TVMFFIFunctionCreate(NULL, raising_safe_call, NULL, &func), 0);
  TVMFFIObjectHandle first = call_it_through_the_runtime(func);
  const TVMFFIByteArray* expected = &TVMFFIErrorGetCellPtr(first)->backtrace;
  CHECK_CONTAINS(*expected, "in raising_safe_call\n");
  for (int i = 0; i < 3; ++i) {
    TVMFFIObjectHandle again = call_it_through_the_runtime(func);
    const TVMFFIByteArray* got = &TVMFFIErrorGetCellPtr(again)->backtrace;
    CHECK(got->size == expected->size && memcmp(got->data, expected->data, got->size) == 0);
    TVMFFIObjectDecRef(again);
  }
  TVMFFIObjectDecRef(first);
  TVMFFIObjectDecRef(func);
}

static void* raise_in_thread(void* arg) {
  (void)arg;
  TVMFFIErrorSetRaisedFromCStr("ValueError", "left pending when the thread exits");
  TVMFFIBacktrace("t.c", 1, "f", 0);
  return NULL;
}

static void* check_slot_is_per_thread(void* arg) {
  (void)arg;
  CHECK(check_no_error_pending());
  return NULL;
}

static void test_error_slot_is_per_thread_and_released_at_exit(void) {
  TVMFFIErrorSetRaisedFromCStr("ValueError", "main thread");
  pthread_t t;
  pthread_create(&t, NULL, check_slot_is_per_thread, NULL);
  pthread_join(t, NULL);
  pthread_create(&t, NULL, raise_in_thread, NULL); /* LeakSanitizer proves it is released */
  pthread_join(t, NULL);
  CHECK_RAISED("ValueError", "main thread");
}

/* Only Error objects may sit in the slot; anything else is replaced by a TypeError saying so. */
static void test_set_raised_refuses_non_error_objects(void) {
  TVMFFIAny shape = {0};
  TVMFFIAny extent = any_int(3);
  CHECK_EQ_INT(call_global("ffi.Shape", &extent, 1, &shape), 0);
  TVMFFIErrorSetRaised(shape.v_obj);
  CHECK_RAISED("TypeError", "TVMFFIErrorSetRaised expects an ffi.Error object, got `ffi.Shape`");
  CHECK_EQ_INT(check_strong_count(shape.v_obj), 1);
  TVMFFIObjectDecRef(shape.v_obj);
}

int main(void) {
  RUN(test_set_raised_from_cstr_then_move);
  RUN(test_message_parts_skip_null_parts);
  RUN(test_set_raised_adds_a_reference);
  RUN(test_raising_replaces_a_pending_error);
  RUN(test_cause_chain_and_extra_context_are_owned_by_the_cell);
  RUN(test_update_backtrace_replaces_and_appends);
  RUN(test_error_create_accepts_empty_and_null_texts);
  RUN(test_backtrace_starts_with_the_named_frame);
  RUN(test_backtrace_includes_exported_callers);
  RUN(test_errors_raised_by_the_program_name_its_functions);
  RUN(test_backtraces_of_a_repeated_raise_are_the_same);
  RUN(test_error_slot_is_per_thread_and_released_at_exit);
  RUN(test_set_raised_refuses_non_error_objects);
  return CHECK_MAIN_RESULT();
}
