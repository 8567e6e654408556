/*
 * error.c -- error objects and the per-thread raised-error slot.
 *
 * An error crosses the ABI as an object whose TVMFFIErrorCell (at +24) carries kind, message and
 * backtrace text. Failing calls return -1 and leave the error in a per-thread slot that the
 * caller empties with TVMFFIErrorMoveFromRaised. Backtraces (backtrace.c) list the most recent
 * frame first, so every layer the error passes through can append its frames at the end.
 */
#include <stdio.h>
#include <stdlib.h>

#include "error_internal.h"
#include "thread_record.h"
#include "object_internal.h"

/* ---- error objects ---- */

typedef struct {
  TVMFFIObject header;
  TVMFFIErrorCell cell;
  char* text;      /* kind '\0' message '\0', one immutable allocation */
  char* backtrace; /* mutable through update_backtrace */
} ErrorObject;

static void error_destroy(void* self) {
  ErrorObject* err = (ErrorObject*)self;
  if (err->cell.cause_chain != NULL) ffi_decref_nested((TVMFFIObject*)err->cell.cause_chain);
  if (err->cell.extra_context != NULL) ffi_decref_nested((TVMFFIObject*)err->cell.extra_context);
  free(err->text);
  free(err->backtrace);
}
FFI_DEFINE_DELETER(error_deleter, error_destroy)

/* Copies (data, size) into a fresh NUL-terminated buffer; NULL on allocation failure. */
static char* copy_bytes(const char* data, size_t size) {
  char* out = (char*)malloc(size + 1);
  if (out == NULL) return NULL;
  if (size != 0) memcpy(out, data, size);
  out[size] = '\0';
  return out;
}

static void error_update_backtrace(TVMFFIObjectHandle self, const TVMFFIByteArray* backtrace,
                                   int32_t update_mode) {
  ErrorObject* err = (ErrorObject*)self;
  size_t add = backtrace != NULL ? backtrace->size : 0;
  const char* add_data = backtrace != NULL ? backtrace->data : "";
  if (update_mode == kTVMFFIBacktraceUpdateModeAppend) {
    size_t old = err->cell.backtrace.size;
    char* grown = (char*)realloc(err->backtrace, old + add + 1);
    if (grown == NULL) return; /* keep the old text rather than lose it */
    if (add != 0) memcpy(grown + old, add_data, add);
    grown[old + add] = '\0';
    err->backtrace = grown;
    err->cell.backtrace.data = grown;
    err->cell.backtrace.size = old + add;
  } else {
    char* fresh = copy_bytes(add_data, add);
    if (fresh == NULL) return;
    free(err->backtrace);
    err->backtrace = fresh;
    err->cell.backtrace.data = fresh;
    err->cell.backtrace.size = add;
  }
}

/* Makes an error object without touching the raised slot; NULL on allocation failure. */
static ErrorObject* error_new(TVMFFIByteArray kind, TVMFFIByteArray message,
                              TVMFFIByteArray backtrace) {
  ErrorObject* err = (ErrorObject*)ffi_object_alloc_quiet(sizeof(ErrorObject), kTVMFFIError,
                                                         error_deleter);
  if (err == NULL) return NULL;
  err->text = (char*)malloc(kind.size + message.size + 2);
  err->backtrace = copy_bytes(backtrace.data, backtrace.size);
  if (err->text == NULL || err->backtrace == NULL) {
    free(err->text);
    free(err->backtrace);
    ffi_object_free(err);
    return NULL;
  }
  if (kind.size != 0) memcpy(err->text, kind.data, kind.size);
  err->text[kind.size] = '\0';
  if (message.size != 0) memcpy(err->text + kind.size + 1, message.data, message.size);
  err->text[kind.size + 1 + message.size] = '\0';
  err->cell.kind.data = err->text;
  err->cell.kind.size = kind.size;
  err->cell.message.data = err->text + kind.size + 1;
  err->cell.message.size = message.size;
  err->cell.backtrace.data = err->backtrace;
  err->cell.backtrace.size = backtrace.size;
  err->cell.update_backtrace = error_update_backtrace;
  return err;
}

static TVMFFIByteArray byte_array_or_empty(const TVMFFIByteArray* value) {
  TVMFFIByteArray out = {"", 0};
  if (value != NULL && (value->data != NULL || value->size == 0)) out = *value;
  if (out.data == NULL) out.data = "";
  return out;
}

int TVMFFIErrorCreateWithCauseAndExtraContext(const TVMFFIByteArray* kind,
                                              const TVMFFIByteArray* message,
                                              const TVMFFIByteArray* backtrace,
                                              TVMFFIObjectHandle cause_chain,
                                              TVMFFIObjectHandle extra_context,
                                              TVMFFIObjectHandle* out) {
  /* Failure here must not touch the raised slot (it may hold the error being wrapped). */
  if (out == NULL) return -1;
  ErrorObject* err = error_new(byte_array_or_empty(kind), byte_array_or_empty(message),
                               byte_array_or_empty(backtrace));
  if (err == NULL) return -1;
  if (cause_chain != NULL) ffi_incref((TVMFFIObject*)cause_chain);
  if (extra_context != NULL) ffi_incref((TVMFFIObject*)extra_context);
  err->cell.cause_chain = cause_chain;
  err->cell.extra_context = extra_context;
  *out = err;
  return 0;
}

int TVMFFIErrorCreate(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                      const TVMFFIByteArray* backtrace, TVMFFIObjectHandle* out) {
  return TVMFFIErrorCreateWithCauseAndExtraContext(kind, message, backtrace, NULL, NULL, out);
}

/* ---- per-thread state: the raised error ----
 * Kept behind a pthread key so that a thread that exits with an error pending releases it. */

typedef struct {
  TVMFFIObject* raised;
} ThreadState;

static void thread_state_free(void* ptr) {
  ThreadState* state = (ThreadState*)ptr;
  if (state->raised != NULL) ffi_decref(state->raised);
  free(state);
}

static FfiThreadKey g_thread_key = FFI_THREAD_KEY(thread_state_free);
static _Thread_local ThreadState* t_state;

/* NULL only when out of memory. */
static ThreadState* thread_state(void) {
  if (FFI_LIKELY(t_state != NULL)) return t_state;
  t_state = (ThreadState*)ffi_thread_record_new(&g_thread_key, sizeof(ThreadState));
  return t_state;
}

void ffi_error_set_raised_steal(TVMFFIObject* err) {
  ThreadState* state = thread_state();
  if (state == NULL) {
    if (err != NULL) ffi_decref(err);
    return;
  }
  TVMFFIObject* old = state->raised;
  state->raised = err;
  if (old != NULL) ffi_decref(old);
}

void TVMFFIErrorMoveFromRaised(TVMFFIObjectHandle* result) {
  ThreadState* state = t_state;
  TVMFFIObject* err = state != NULL ? state->raised : NULL;
  if (state != NULL) state->raised = NULL;
  if (result != NULL) {
    *result = err;
  } else if (err != NULL) {
    ffi_decref(err);
  }
}

/* Raises kind/message with a backtrace captured at the caller. */
static void raise_with_backtrace(const char* kind, const char* message, size_t message_size) {
  const TVMFFIByteArray* backtrace = TVMFFIBacktrace(NULL, 0, NULL, 0);
  TVMFFIByteArray kind_ba = {kind != NULL ? kind : "", kind != NULL ? strlen(kind) : 0};
  TVMFFIByteArray message_ba = {message != NULL ? message : "", message != NULL ? message_size : 0};
  ErrorObject* err = error_new(kind_ba, message_ba, byte_array_or_empty(backtrace));
  ffi_error_set_raised_steal(err != NULL ? &err->header : NULL);
}

void TVMFFIErrorSetRaisedFromCStr(const char* kind, const char* message) {
  raise_with_backtrace(kind, message, message != NULL ? strlen(message) : 0);
}

void TVMFFIErrorSetRaisedFromCStrParts(const char* kind, const char** message_parts,
                                       int32_t num_parts) {
  size_t total = 0;
  for (int32_t i = 0; i < num_parts && message_parts != NULL; ++i) {
    if (message_parts[i] != NULL) total += strlen(message_parts[i]);
  }
  char* message = (char*)malloc(total + 1);
  if (message == NULL) {
    raise_with_backtrace("MemoryError", "out of memory while raising an error", 35);
    return;
  }
  size_t at = 0;
  for (int32_t i = 0; i < num_parts && message_parts != NULL; ++i) {
    if (message_parts[i] == NULL) continue;
    size_t n = strlen(message_parts[i]);
    memcpy(message + at, message_parts[i], n);
    at += n;
  }
  message[at] = '\0';
  raise_with_backtrace(kind, message, at);
  free(message);
}

int ffi_vraise(const char* kind, const char* fmt, va_list ap) {
  char small[512];
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(small, sizeof(small), fmt, copy);
  va_end(copy);
  if (n < 0) {
    raise_with_backtrace(kind, fmt, strlen(fmt));
  } else if ((size_t)n < sizeof(small)) {
    raise_with_backtrace(kind, small, (size_t)n);
  } else {
    char* big = (char*)malloc((size_t)n + 1);
    if (big == NULL) {
      raise_with_backtrace(kind, small, sizeof(small) - 1);
    } else {
      vsnprintf(big, (size_t)n + 1, fmt, ap);
      raise_with_backtrace(kind, big, (size_t)n);
      free(big);
    }
  }
  return -1;
}

int ffi_raise(const char* kind, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ffi_vraise(kind, fmt, ap);
  va_end(ap);
  return -1;
}

void ffi_discard_raised(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err != NULL) ffi_decref((TVMFFIObject*)err);
}

_Noreturn void ffi_fatal(const char* api, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "Exception caught during %s:\n", api);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  fflush(stderr);
  exit(-1);
}
