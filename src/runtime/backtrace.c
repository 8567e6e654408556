/*
 * backtrace.c -- TVMFFIBacktrace: the calling frames as text, most recent first.
 *
 * Frames come from the unwinder plus the dynamic symbol table (dladdr1); the functions the
 * raising object does not export are named from its static symbol table (raising_object).
 * Runtime-internal frames are dropped, and so are the frames of the calling machinery that the
 * C++ headers instantiate inside a kernel (is_plumbing_frame). The walk stops at the FFI boundary
 * (the call into TVMFFIFunctionCall or the Python interpreter) unless cross_ffi_boundary is set.
 * An explicit frame stands for the caller: the caller's unwound frame, the first one outside
 * the runtime, is then left out, so a TVM_FFI_THROW site is listed once.
 * C++ names are demangled with the process's __cxa_demangle when a C++ runtime is loaded (any
 * C++ kernel loads one); the runtime itself is C and does not link it.
 *
 * Speed: an error raised from Python pays for its backtrace on every raise. The costly parts are
 * unwinding the interpreter's whole C stack and dladdr, which scans an object's dynamic symbols
 * one by one (libpython has thousands). So each thread remembers the address ranges of the
 * boundary functions it has met (BoundaryCache): the unwinder stops at the first frame inside one
 * and that frame needs no lookup. The ranges hold while no library is loaded or unloaded, which
 * the loader's counters tell (dl_iterate_phdr's dlpi_adds/dlpi_subs); any change empties the
 * cache. The runtime's own frames are recognised by its text range, found once.
 */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <unwind.h>

#include "code_range.h"
#include "elf_symbols.h"
#include "runtime_base.h"
#include "thread_record.h"

/* ---- per-thread state: the text buffer and the boundary cache (freed at thread exit) ---- */

enum { kBoundaryCacheSize = 8 };

typedef struct {
  FfiCodeRange ranges[kBoundaryCacheSize]; /* functions whose names are FFI boundaries */
  unsigned size, next;                     /* filled entries; the next one to replace */
  unsigned long long adds, subs;           /* the loader's counters when it was filled */
} BoundaryCache;

typedef struct {
  char* text; /* the last backtrace, NUL-terminated; reused by the next one */
  size_t cap;
  TVMFFIByteArray view;
  BoundaryCache boundaries;
} BacktraceState;

static void state_free(void* ptr) {
  BacktraceState* state = (BacktraceState*)ptr;
  free(state->text);
  free(state);
}

static FfiThreadKey g_state_key = FFI_THREAD_KEY(state_free);
static _Thread_local BacktraceState* t_state;

/* NULL only when out of memory. */
static BacktraceState* backtrace_state(void) {
  if (FFI_LIKELY(t_state != NULL)) return t_state;
  t_state = (BacktraceState*)ffi_thread_record_new(&g_state_key, sizeof(BacktraceState));
  return t_state;
}

/* ---- where code lives ---- */

static FfiCodeRange g_runtime_text;
static pthread_once_t g_runtime_text_once = PTHREAD_ONCE_INIT;

static void runtime_text_init(void) {
  g_runtime_text = ffi_code_range_of((const void*)&TVMFFIBacktrace);
}

/* Whether the code at return address `ret` is the runtime's own. */
static bool in_runtime(void* ret) {
  return ffi_code_range_holds(g_runtime_text, (uintptr_t)ret - 1);
}

/* dl_iterate_phdr callback: the loader's load and unload counters, from the first object. */
static int read_loader_counters(struct dl_phdr_info* info, size_t size, void* data) {
  if (size < offsetof(struct dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs)) return 1;
  unsigned long long* counters = (unsigned long long*)data;
  counters[0] = info->dlpi_adds;
  counters[1] = info->dlpi_subs;
  counters[2] = 1; /* known */
  return 1;
}

/* Empties the cache when libraries came or went since it was filled. False when the loader
 * keeps no counters: the cache is then never used. */
static bool boundary_cache_validate(BoundaryCache* cache) {
  unsigned long long counters[3] = {0, 0, 0};
  dl_iterate_phdr(read_loader_counters, counters);
  if (counters[2] == 0) return false;
  if (counters[0] != cache->adds || counters[1] != cache->subs) {
    cache->size = cache->next = 0;
    cache->adds = counters[0];
    cache->subs = counters[1];
  }
  return true;
}

static bool boundary_cache_holds(const BoundaryCache* cache, uintptr_t pc) {
  for (unsigned i = 0; i < cache->size; ++i) {
    if (ffi_code_range_holds(cache->ranges[i], pc)) return true;
  }
  return false;
}

static void boundary_cache_add(BoundaryCache* cache, FfiCodeRange range) {
  cache->ranges[cache->next] = range;
  cache->next = (cache->next + 1) % kBoundaryCacheSize;
  if (cache->size < kBoundaryCacheSize) cache->size++;
}

/* ---- unwinding ---- */

typedef struct {
  void** frames;
  int depth, max;
  const BoundaryCache* stop_at; /* NULL: the whole stack */
  int runtime_run;              /* 0: before the runtime's leading frames, 1: in them, 2: past */
} Capture;

static _Unwind_Reason_Code capture_frame(struct _Unwind_Context* context, void* data) {
  Capture* capture = (Capture*)data;
  uintptr_t ip = _Unwind_GetIP(context);
  if (ip == 0 || capture->depth >= capture->max) return _URC_END_OF_STACK;
  capture->frames[capture->depth++] = (void*)ip;
  bool runtime = in_runtime((void*)ip);
  if (capture->runtime_run == 0 && runtime) capture->runtime_run = 1;
  if (capture->runtime_run == 1 && !runtime) capture->runtime_run = 2;
  /* A boundary function past the caller's frame: the walk stops there, so nothing beyond it is
   * needed. (The runtime's own leading frames may run through one, as when a built-in called by
   * TVMFFIFunctionCall raises; the walk starts after them.) */
  if (capture->runtime_run == 2 && capture->stop_at != NULL &&
      boundary_cache_holds(capture->stop_at, ip - 1)) {
    return _URC_END_OF_STACK;
  }
  return _URC_NO_REASON;
}

/* Return addresses of the calling frames, the innermost first (this function's among them). */
static int capture_frames(void** frames, int max, const BoundaryCache* stop_at) {
  Capture capture = {frames, 0, max, stop_at, 0};
  _Unwind_Backtrace(capture_frame, &capture);
  return capture.depth;
}

/* ---- naming frames ---- */

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
static bool backtrace_append(BacktraceState* state, size_t* len, const char* text, size_t n) {
  if (*len + n + 1 > state->cap) {
    size_t cap = state->cap ? state->cap : 1024;
    while (cap < *len + n + 1) cap *= 2;
    char* grown = (char*)realloc(state->text, cap);
    if (grown == NULL) return false;
    state->text = grown;
    state->cap = cap;
  }
  memcpy(state->text + *len, text, n);
  *len += n;
  state->text[*len] = '\0';
  return true;
}

static bool backtrace_append_frame(BacktraceState* state, size_t* len, const char* file, int line,
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
static bool backtrace_append_symbol(BacktraceState* state, size_t* len, const char* file,
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

/* Name of the exported function containing addr, or NULL when addr is not inside one;
 * *range (when given) receives that function's addresses. */
static const char* exported_symbol_at(void* addr, Dl_info* info, FfiCodeRange* range) {
  const ElfW(Sym)* sym = NULL;
  if (dladdr1(addr, info, (void**)&sym, RTLD_DL_SYMENT) == 0) return NULL;
  if (info->dli_sname == NULL || sym == NULL) return NULL;
  uintptr_t start = (uintptr_t)info->dli_saddr;
  if ((uintptr_t)addr < start || (uintptr_t)addr >= start + sym->st_size) return NULL;
  if (range != NULL) *range = (FfiCodeRange){start, start + sym->st_size};
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
  if (exported_symbol_at(pc, &info, NULL) != NULL) return info.dli_fbase;
  return info.dli_fbase != NULL && info.dli_fbase == main_program_base() ? info.dli_fbase : NULL;
}

const TVMFFIByteArray* TVMFFIBacktrace(const char* filename, int lineno, const char* func,
                                       int cross_ffi_boundary) {
  static const TVMFFIByteArray empty = {"", 0};
  BacktraceState* state = backtrace_state();
  if (state == NULL) return &empty;
  pthread_once(&g_runtime_text_once, runtime_text_init);
  size_t len = 0;
  int limit = frame_limit();
  int emitted = 0;
  bool skip_caller = filename != NULL && func != NULL;
  if (skip_caller) {
    backtrace_append_frame(state, &len, filename, lineno, func);
    emitted++;
  }
  BoundaryCache* boundaries = NULL;
  if (!cross_ffi_boundary && boundary_cache_validate(&state->boundaries)) {
    boundaries = &state->boundaries;
  }
  DemangleFn demangle = NULL;
  bool demangler_looked_up = false;
  void* frames[kMaxCapturedFrames];
  int depth = capture_frames(frames, kMaxCapturedFrames, boundaries);
  /* The stack starts in the unwinder (behind a sanitizer's interceptor, under ASan) and in this
   * file: the caller's frame is the first one after the leading run of runtime frames. */
  int start = 0;
  while (start < depth && !in_runtime(frames[start])) ++start;
  while (start < depth && in_runtime(frames[start])) ++start;
  if (start == depth) start = 0; /* no runtime frame found: keep everything */
  void* home_base = start < depth ? raising_object(frames[start], skip_caller) : NULL;
  if (skip_caller && start < depth) ++start; /* named by the explicit frame, exported or not */
  for (int i = start; i < depth && emitted < limit; ++i) {
    /* Return addresses point just past the call; step back into the calling instruction. */
    void* pc = (char*)frames[i] - 1;
    if (boundaries != NULL && boundary_cache_holds(boundaries, (uintptr_t)pc)) break;
    Dl_info info = {0};
    FfiCodeRange range = {0, 0};
    const char* name = exported_symbol_at(pc, &info, &range);
    if (name == NULL && home_base != NULL && info.dli_fbase == home_base) {
      name = ffi_elf_static_symbol_at(info.dli_fname, (uintptr_t)home_base, (uintptr_t)pc);
    }
    if (name == NULL) continue;
    if (!cross_ffi_boundary && is_boundary_frame(name)) {
      if (boundaries != NULL && range.end > range.begin) boundary_cache_add(boundaries, range);
      break;
    }
    if (in_runtime(frames[i])) continue; /* the runtime's own plumbing */
    size_t before = len;
    if (!backtrace_append_symbol(state, &len, info.dli_fname ? info.dli_fname : "<unknown>", name,
                                 &demangle, &demangler_looked_up)) {
      break;
    }
    if (len != before) emitted++; /* plumbing frames are left out and not counted */
  }
  state->view.data = state->text != NULL ? state->text : "";
  state->view.size = len;
  return &state->view;
}
