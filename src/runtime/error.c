/*
 * error.c -- error objects, the per-thread raised-error slot and backtraces.
 *
 * An error crosses the ABI as an object whose TVMFFIErrorCell (at +24) carries kind, message and
 * backtrace text. Failing calls return -1 and leave the error in a per-thread slot that the
 * caller empties with TVMFFIErrorMoveFromRaised. Backtraces list the most recent frame first, so
 * every layer the error passes through can append its frames at the end.
 */
#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>

#include "elf_symbols.h"
#include "error_internal.h"
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

/* ---- per-thread state: the raised error and the backtrace buffer ----
 * Kept behind a pthread key so that a thread that exits with an error pending, or after asking
 * for a backtrace, releases them. */

typedef struct {
  TVMFFIObject* raised;
  char* backtrace;
  size_t backtrace_cap;
  TVMFFIByteArray backtrace_view;
} ThreadState;

static pthread_key_t g_thread_key;
static pthread_once_t g_thread_key_once = PTHREAD_ONCE_INIT;
static _Thread_local ThreadState* t_state;

static void thread_state_free(void* ptr) {
  ThreadState* state = (ThreadState*)ptr;
  if (state->raised != NULL) ffi_decref(state->raised);
  free(state->backtrace);
  free(state);
}

static void thread_key_create(void) { pthread_key_create(&g_thread_key, thread_state_free); }

/* NULL only when out of memory. */
static ThreadState* thread_state(void) {
  if (FFI_LIKELY(t_state != NULL)) return t_state;
  pthread_once(&g_thread_key_once, thread_key_create);
  ThreadState* state = (ThreadState*)calloc(1, sizeof(ThreadState));
  if (state == NULL) return NULL;
  pthread_setspecific(g_thread_key, state);
  t_state = state;
  return state;
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

/* ---- backtraces ----
 * Frames come from the unwinder plus the dynamic symbol table (dladdr1); the functions the
 * raising object does not export are named from its static symbol table (raising_object).
 * Runtime-internal frames are dropped, and so are the frames of the calling machinery that the
 * C++ headers instantiate inside a kernel (is_plumbing_frame). The walk stops at the FFI boundary
 * (the call into TVMFFIFunctionCall or the Python interpreter) unless cross_ffi_boundary is set.
 * An explicit frame stands for the caller: the caller's unwound frame, the first one outside
 * the runtime, is then left out, so a TVM_FFI_THROW site is listed once.
 * C++ names are demangled with the process's __cxa_demangle when a C++ runtime is loaded (any
 * C++ kernel loads one); the runtime itself is C and does not link it. */

enum { kMaxCapturedFrames = 256, kDefaultFrameLimit = 512 };

static int frame_limit(void) {
  static _Atomic int cached = 0;
  int limit = atomic_load_explicit(&cached, memory_order_relaxed);
  if (limit != 0) return limit;
  const char* env = getenv("TVM_TRACEBACK_LIMIT");
  limit = env != NULL ? atoi(env) : kDefaultFrameLimit;
  if (limit <= 0) limit = kDefaultFrameLimit;
  atomic_store_explicit(&cached, limit, memory_order_relaxed);
  return limit;
}

static bool starts_with(const char* s, const char* prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool is_boundary_frame(const char* name) {
  return strcmp(name, "TVMFFIFunctionCall") == 0 || starts_with(name, "_Py") ||
         starts_with(name, "PyObject") || strcmp(name, "slot_tp_call") == 0;
}

/* Appends text to the thread's backtrace buffer; false when out of memory. */
static bool backtrace_append(ThreadState* state, size_t* len, const char* text, size_t n) {
  if (*len + n + 1 > state->backtrace_cap) {
    size_t cap = state->backtrace_cap ? state->backtrace_cap : 1024;
    while (cap < *len + n + 1) cap *= 2;
    char* grown = (char*)realloc(state->backtrace, cap);
    if (grown == NULL) return false;
    state->backtrace = grown;
    state->backtrace_cap = cap;
  }
  memcpy(state->backtrace + *len, text, n);
  *len += n;
  state->backtrace[*len] = '\0';
  return true;
}

static bool backtrace_append_frame(ThreadState* state, size_t* len, const char* file, int line,
                                   const char* func) {
  char line_buf[1024];
  int n = snprintf(line_buf, sizeof(line_buf), "  File \"%s\", line %d, in %s\n", file, line, func);
  if (n < 0) return true;
  if ((size_t)n >= sizeof(line_buf)) n = (int)sizeof(line_buf) - 1;
  return backtrace_append(state, len, line_buf, (size_t)n);
}

typedef char* (*DemangleFn)(const char* mangled, char* buf, size_t* len, int* status);

/* The qualified name inside a demangled signature: what precedes the parameter list, after any
 * return type (which a template instantiation's name starts with). Brackets are skipped, since
 * template arguments and lambda names hold spaces and parentheses of their own. */
static size_t qualified_name_start(const char* name) {
  size_t start = 0;
  int depth = 0;
  for (size_t i = 0; name[i] != '\0'; ++i) {
    char c = name[i];
    if (depth == 0 && c == '(') break;
    if (c == '<' || c == '(' || c == '{' || c == '[') ++depth;
    if ((c == '>' || c == ')' || c == '}' || c == ']') && depth > 0) --depth;
    if (depth == 0 && c == ' ') start = i + 1;
  }
  return start;
}

/* Frames of the calling machinery rather than of anyone's code: what the C++ headers
 * instantiate inside a kernel library to adapt a typed function to the packed convention
 * (Function::FromTyped's closure, the argument unpacking in detail::), the standard library's
 * invoke helpers, and the C start-up code under main. The reference leaves these out too. */
static bool is_plumbing_frame(const char* name) {
  static const char* const kPrefixes[] = {"tvm::ffi::Function::", "tvm::ffi::TypedFunction<",
                                          "tvm::ffi::detail::", "tvm::ffi::details::",
                                          "std::", "__gnu_cxx::"};
  static const char* const kNames[] = {"_start", "__libc_start_main", "__libc_start_call_main"};
  const char* qualified = name + qualified_name_start(name);
  for (size_t i = 0; i < sizeof(kPrefixes) / sizeof(kPrefixes[0]); ++i) {
    if (starts_with(qualified, kPrefixes[i])) return true;
  }
  for (size_t i = 0; i < sizeof(kNames) / sizeof(kNames[0]); ++i) {
    if (strcmp(name, kNames[i]) == 0) return true;
  }
  return false;
}

/* Appends one frame whose function name may be a mangled C++ name, unless it is plumbing. */
static bool backtrace_append_symbol(ThreadState* state, size_t* len, const char* file,
                                    const char* name, DemangleFn* demangle, bool* looked_up) {
  if (name[0] == '_' && name[1] == 'Z') {
    if (!*looked_up) {
      *looked_up = true;
      void* sym = dlsym(RTLD_DEFAULT, "__cxa_demangle");
      memcpy(demangle, &sym, sizeof(sym)); /* object -> function pointer, as POSIX allows */
    }
    int status = -1;
    char* plain = *demangle != NULL ? (*demangle)(name, NULL, NULL, &status) : NULL;
    if (plain != NULL && status == 0) {
      bool ok = is_plumbing_frame(plain) || backtrace_append_frame(state, len, file, 0, plain);
      free(plain);
      return ok;
    }
    free(plain);
  }
  return is_plumbing_frame(name) || backtrace_append_frame(state, len, file, 0, name);
}

/* Whether the code at return address `ret` belongs to the object loaded at `base`. */
static bool in_object(void* ret, void* base) {
  Dl_info info;
  return base != NULL && dladdr((char*)ret - 1, &info) != 0 && info.dli_fbase == base;
}

/* Name of the exported function containing addr, or NULL when addr is not inside one. */
static const char* exported_symbol_at(void* addr, Dl_info* info) {
  const ElfW(Sym)* sym = NULL;
  if (dladdr1(addr, info, (void**)&sym, RTLD_DL_SYMENT) == 0) return NULL;
  if (info->dli_sname == NULL || sym == NULL) return NULL;
  uintptr_t start = (uintptr_t)info->dli_saddr;
  if ((uintptr_t)addr < start || (uintptr_t)addr >= start + sym->st_size) return NULL;
  return info->dli_sname;
}

/* Load address of the main program (the object holding its entry point), NULL if unknown. */
static void* main_program_base(void) {
  static _Atomic(void*) base; /* a benign race: every thread computes the same address */
  void* known = atomic_load_explicit(&base, memory_order_relaxed);
  if (known == NULL) {
    Dl_info info = {0};
    void* entry = (void*)getauxval(AT_ENTRY);
    if (entry != NULL && dladdr(entry, &info) != 0) known = info.dli_fbase;
    atomic_store_explicit(&base, known, memory_order_relaxed);
  }
  return known;
}

/*
 * The object an error is raised in, whose functions that it does not export (static helpers,
 * anonymous namespaces, hidden visibility, a program's own functions) are also named, from its
 * static symbol table: that of the caller, when the caller named itself (a C++ throw site), when
 * the caller is an exported function (a kernel raising through the C API), or when the caller is
 * the main program (a C host raising through the C API: its functions are the user's own). Else
 * NULL: a host library calling the runtime, such as the Python extension, exports none of its own
 * functions and its internals stay out of backtraces.
 */
static void* raising_object(void* return_address, bool caller_named_itself) {
  void* pc = (char*)return_address - 1;
  Dl_info info = {0};
  if (caller_named_itself) return dladdr(pc, &info) != 0 ? info.dli_fbase : NULL;
  if (exported_symbol_at(pc, &info) != NULL) return info.dli_fbase;
  return info.dli_fbase != NULL && info.dli_fbase == main_program_base() ? info.dli_fbase : NULL;
}

const TVMFFIByteArray* TVMFFIBacktrace(const char* filename, int lineno, const char* func,
                                       int cross_ffi_boundary) {
  static const TVMFFIByteArray empty = {"", 0};
  ThreadState* state = thread_state();
  if (state == NULL) return &empty;
  size_t len = 0;
  int limit = frame_limit();
  int emitted = 0;
  bool skip_caller = filename != NULL && func != NULL;
  if (skip_caller) {
    backtrace_append_frame(state, &len, filename, lineno, func);
    emitted++;
  }
  DemangleFn demangle = NULL;
  bool demangler_looked_up = false;
  void* frames[kMaxCapturedFrames];
  int depth = backtrace(frames, kMaxCapturedFrames);
  Dl_info self_info;
  void* self_base = dladdr((void*)&TVMFFIBacktrace, &self_info) ? self_info.dli_fbase : NULL;
  /* The stack starts in the unwinder (behind a sanitizer's interceptor, under ASan) and in this
   * function: the caller's frame is the first one after the leading run of runtime frames. */
  int start = 0;
  while (start < depth && !in_object(frames[start], self_base)) ++start;
  while (start < depth && in_object(frames[start], self_base)) ++start;
  if (start == depth) start = 0; /* no runtime frame found: keep everything */
  void* home_base = start < depth ? raising_object(frames[start], skip_caller) : NULL;
  if (skip_caller && start < depth) ++start; /* named by the explicit frame, exported or not */
  for (int i = start; i < depth && emitted < limit; ++i) {
    /* Return addresses point just past the call; step back into the calling instruction. */
    void* pc = (char*)frames[i] - 1;
    Dl_info info = {0};
    const char* name = exported_symbol_at(pc, &info);
    if (name == NULL && home_base != NULL && info.dli_fbase == home_base) {
      name = ffi_elf_static_symbol_at(info.dli_fname, (uintptr_t)home_base, (uintptr_t)pc);
    }
    if (name == NULL) continue;
    if (!cross_ffi_boundary && is_boundary_frame(name)) break;
    if (info.dli_fbase == self_base) continue; /* the runtime's own plumbing */
    size_t before = len;
    if (!backtrace_append_symbol(state, &len, info.dli_fname ? info.dli_fname : "<unknown>", name,
                                 &demangle, &demangler_looked_up)) {
      break;
    }
    if (len != before) emitted++; /* plumbing frames are left out and not counted */
  }
  state->backtrace_view.data = state->backtrace != NULL ? state->backtrace : "";
  state->backtrace_view.size = len;
  return &state->backtrace_view;
}
