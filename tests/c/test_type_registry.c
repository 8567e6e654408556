/* Type registry: the static type table, dynamic index allocation (child slots, overflow,
 * depth), the calls kernels make at load time, key lookups, reflected fields, methods,
 * metadata and type attribute columns, the inline subclass test, concurrency and scale.
 *
 * Types registered here live for the process (the registry never drops a type), so the
 * refcount checks verify that retained values are kept alive, not that they are released. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

/* ---- helpers ---- */

static int32_t alloc_type(const char* key, int32_t static_index, int32_t depth, int32_t slots,
                          int32_t can_overflow, int32_t parent) {
  TVMFFIByteArray k = check_ba(key);
  return TVMFFITypeGetOrAllocIndex(&k, static_index, depth, slots, can_overflow, parent);
}

/* A dynamic child of ffi.Object that may overflow into the global range. */
static int32_t alloc_object_type(const char* key) { return alloc_type(key, -1, 1, 0, 1, 64); }

static int32_t key_to_index(const char* key) {
  TVMFFIByteArray k = check_ba(key);
  int32_t index = -100;
  if (TVMFFITypeKeyToIndex(&k, &index) != 0) {
    void* err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    if (err != NULL) TVMFFIObjectDecRef(err);
    return -1;
  }
  return index;
}

/* The subclass test every C++ kernel runs inline (spec/ABI.md 3.9), on our table. */
static int is_subclass(int32_t actual, int32_t target) {
  if (actual == target) return 1;
  const TVMFFITypeInfo* a = TVMFFIGetTypeInfo(actual);
  const TVMFFITypeInfo* t = TVMFFIGetTypeInfo(target);
  return a->type_depth > t->type_depth && a->type_ancestors[t->type_depth]->type_index == target;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* An object made by the test, as a kernel would, counting deleter calls. */
typedef struct {
  TVMFFIObject header;
  int deleted;
} CountedObject;

static void counted_deleter(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) ((CountedObject*)self)->deleted++;
}

static CountedObject* counted_new(void) {
  CountedObject* obj = (CountedObject*)calloc(1, sizeof(CountedObject));
  obj->header.combined_ref_count = (1ULL << 32) | 1ULL;
  obj->header.type_index = kTVMFFIObject;
  obj->header.deleter = counted_deleter;
  return obj;
}

/* A function whose resource counts calls and its own deletion. */
typedef struct {
  int calls;
  int deleted;
} FunctionState;

static int counting_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)args;
  ((FunctionState*)self)->calls++;
  result->type_index = kTVMFFIInt;
  result->v_int64 = num_args;
  return 0;
}

static void counting_delete(void* self) { ((FunctionState*)self)->deleted++; }

static void* counting_function(FunctionState* state) {
  void* f = NULL;
  CHECK_EQ_INT(TVMFFIFunctionCreate(state, counting_call, counting_delete, &f), 0);
  return f;
}

/* Runs fn in a child process and checks that it dies through the fatal path: exit status 255
 * and stderr naming the API and containing needle. */
static void expect_fatal(void (*fn)(void), const char* api, const char* needle) {
  fflush(stdout);
  fflush(stderr);
  int fds[2];
  CHECK_EQ_INT(pipe(fds), 0);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    fn();
    _exit(0); /* fn returned: not fatal */
  }
  close(fds[1]);
  char buf[4096];
  size_t len = 0;
  ssize_t n;
  while ((n = read(fds[0], buf + len, sizeof(buf) - 1 - len)) > 0) len += (size_t)n;
  buf[len] = '\0';
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK_EQ_INT(WEXITSTATUS(status), 255);
  TVMFFIByteArray out = {buf, len};
  char header[128];
  snprintf(header, sizeof(header), "Exception caught during %s", api);
  CHECK_CONTAINS(out, header);
  CHECK_CONTAINS(out, needle);
}

/* ---- the static table ---- */

static const char* const kPodKeys[] = {
    "None",      "int",         "bool",          "float",            "void*",
    "DataType",  "Device",      "DLTensor*",     "const char*",      "TVMFFIByteArray*",
    "ObjectRValueRef", "ffi.SmallStr", "ffi.SmallBytes", "ffi.Unchanged"};

static const char* const kObjectKeys[] = {
    "ffi.Object", "ffi.String", "ffi.Bytes",  "ffi.Error",          "ffi.Function",
    "ffi.Shape",  "ffi.Tensor", "ffi.Array",  "ffi.Map",            "ffi.Module",
    "ffi.OpaquePyObject", "ffi.List", "ffi.Dict", "ffi.VisitInterrupt", "ffi.BigInt"};

static void test_static_table_pod_roots(void) {
  for (int32_t i = 0; i <= kTVMFFIUnchanged; ++i) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(i);
    CHECK_EQ_INT(info->type_index, i);
    CHECK_EQ_INT(info->type_depth, 0);
    CHECK_BYTES_EQ(info->type_key, kPodKeys[i]);
    CHECK_EQ_INT(info->num_fields, 0);
    CHECK_EQ_INT(info->num_methods, 0);
    CHECK(info->metadata == NULL);
    CHECK_EQ_INT(key_to_index(kPodKeys[i]), i);
    CHECK(TVMFFIGetTypeInfo(i) == info); /* same pointer every time */
  }
  /* kTVMFFIAny (-1) is an annotation, not a registered type. */
  CHECK_EQ_INT(key_to_index("Any"), -1);
  CHECK_EQ_INT(alloc_type("Any", -1, 0, 0, 0, -2), -2);
}

static void test_static_table_object_types(void) {
  const TVMFFITypeInfo* object = TVMFFIGetTypeInfo(kTVMFFIObject);
  CHECK_EQ_INT(object->type_depth, 0);
  CHECK_BYTES_EQ(object->type_key, "ffi.Object");
  CHECK(object->metadata != NULL);
  if (object->metadata != NULL) {
    CHECK_EQ_INT(object->metadata->total_size, 24);
    CHECK(object->metadata->creator == NULL);
    CHECK_EQ_INT(object->metadata->doc.size, 0);
  }
  for (int32_t i = 1; i < (int32_t)(sizeof(kObjectKeys) / sizeof(kObjectKeys[0])); ++i) {
    int32_t index = kTVMFFIObject + i;
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
    CHECK_EQ_INT(info->type_index, index);
    CHECK_EQ_INT(info->type_depth, 1);
    CHECK_BYTES_EQ(info->type_key, kObjectKeys[i]);
    CHECK(info->type_ancestors[0] == object);
    CHECK_EQ_INT(key_to_index(kObjectKeys[i]), index);
    CHECK(is_subclass(index, kTVMFFIObject));
    CHECK(!is_subclass(kTVMFFIObject, index));
  }
  CHECK_EQ_INT(kTVMFFIObject + 14, kTVMFFIBigInt);
  CHECK(TVMFFIGetTypeInfo(kTVMFFIArray)->metadata == NULL);
  /* Static leaves reserve no child slots and do not overflow. */
  CHECK_EQ_INT(alloc_type("ffi.Array", -1, 0, 0, 0, -2), kTVMFFIArray);
}

static void test_type_key_hash_matches_libstdcxx(void) {
  /* Measured from the reference runtime: std::hash<std::string_view> of each key. */
  struct {
    int32_t index;
    uint64_t hash;
  } expected[] = {
      {kTVMFFINone, 0xfb6ac968ce0ca5aaULL},      {kTVMFFIInt, 0xaed305094b3d4a9fULL},
      {kTVMFFIBool, 0xe5d6c19a7b27cfcaULL},      {kTVMFFIOpaquePtr, 0x93fff46616d48774ULL},
      {kTVMFFIDLTensorPtr, 0xcb2d26b2d1d8c04eULL}, {kTVMFFIByteArrayPtr, 0x32519e4e9ab631a9ULL},
      {kTVMFFIUnchanged, 0x852fac5f072fc19eULL}, {kTVMFFIObject, 0x33a211b274fa0106ULL},
      {kTVMFFIStr, 0x9cffcd16e9064976ULL},       {kTVMFFIFunction, 0xb3b21b94552cae3dULL},
      {kTVMFFIArray, 0x811300c104284401ULL},     {kTVMFFIOpaquePyObject, 0xad85a0b68e3b37a5ULL},
      {kTVMFFIVisitInterrupt, 0xcdf134df0ae8c86fULL}, {kTVMFFIBigInt, 0x487cadd8abd8177bULL},
  };
  for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); ++i) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(expected[i].index);
    if (info->type_key_hash != expected[i].hash) {
      fprintf(stderr, "hash of %.*s: got 0x%016llx, expected 0x%016llx\n",
              (int)info->type_key.size, info->type_key.data,
              (unsigned long long)info->type_key_hash, (unsigned long long)expected[i].hash);
    }
    CHECK(info->type_key_hash == expected[i].hash);
  }
}

static void test_start_up_attr_columns(void) {
  TVMFFIByteArray hash = check_ba("__any_hash__");
  TVMFFIByteArray equal = check_ba("__any_equal__");
  const TVMFFITypeAttrColumn* h = TVMFFIGetTypeAttrColumn(&hash);
  const TVMFFITypeAttrColumn* e = TVMFFIGetTypeAttrColumn(&equal);
  CHECK(h != NULL && e != NULL && h != e);
  if (h != NULL) CHECK_EQ_INT(h->begin_index, 0);
  TVMFFIByteArray missing = check_ba("__never_registered__");
  CHECK(TVMFFIGetTypeAttrColumn(&missing) == NULL);
}

/* ---- dynamic allocation ---- */

/* Run first among the dynamic tests: these are the calls a reference-built kernel makes at
 * dlopen time, and they must start the dynamic range. */
static void test_kernel_start_up_registrations(void) {
  int32_t enum_state = alloc_type("ffi.EnumState", -1, 1, 0, 1, 64);
  int32_t enum_base = alloc_type("ffi.Enum", -1, 1, 0, 1, 64);
  int32_t int_enum = alloc_type("ffi.IntEnum", -1, 2, 0, 1, enum_base);
  int32_t str_enum = alloc_type("ffi.StrEnum", -1, 2, 0, 1, enum_base);
  int32_t step = alloc_type("ffi.reflection.AccessStep", -1, 1, 0, 1, 64);
  int32_t path = alloc_type("ffi.reflection.AccessPath", -1, 1, 0, 1, 64);
  CHECK_EQ_INT(enum_state, kTVMFFIDynObjectBegin);
  CHECK_EQ_INT(enum_base, 129);
  CHECK_EQ_INT(int_enum, 130);
  CHECK_EQ_INT(str_enum, 131);
  CHECK_EQ_INT(step, 132);
  CHECK_EQ_INT(path, 133);
  /* A second kernel loading later gets the same indices (existing key: other args ignored). */
  CHECK_EQ_INT(alloc_type("ffi.EnumState", -1, 1, 0, 1, 64), enum_state);
  CHECK_EQ_INT(alloc_type("ffi.IntEnum", -1, 7, 9, 0, 64), int_enum);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(int_enum);
  CHECK_EQ_INT(info->type_depth, 2);
  CHECK_BYTES_EQ(info->type_key, "ffi.IntEnum");
  CHECK_EQ_INT(info->type_ancestors[0]->type_index, kTVMFFIObject);
  CHECK(info->type_ancestors[1] == TVMFFIGetTypeInfo(enum_base));
  /* The runtime reflects the enum base types (enum.c): IntEnum adds `value` over Enum's fields. */
  CHECK(info->metadata != NULL && info->metadata->total_size == 48 &&
        info->metadata->structural_eq_hash_kind == kTVMFFISEqHashKindUniqueInstance);
  CHECK(info->num_fields == 1 && info->num_methods == 0);
  CHECK_BYTES_EQ(info->fields[0].name, "value");
  CHECK_EQ_INT(info->fields[0].offset, 24);
  CHECK(is_subclass(int_enum, enum_base));
  CHECK(is_subclass(int_enum, kTVMFFIObject));
  CHECK(!is_subclass(int_enum, str_enum));
  CHECK(!is_subclass(enum_base, int_enum));
  CHECK_EQ_INT(key_to_index("ffi.StrEnum"), str_enum);
}

static void test_query_only(void) {
  CHECK_EQ_INT(alloc_type("test.NeverRegistered", -1, 1, 0, 1, -2), -2);
  CHECK_EQ_INT(key_to_index("test.NeverRegistered"), -1); /* the query registered nothing */
  CHECK_EQ_INT(alloc_type("ffi.Object", 5, 5, 5, 5, -2), kTVMFFIObject);
  CHECK_EQ_INT(alloc_type("ffi.EnumState", -1, 1, 0, 1, -2), kTVMFFIDynObjectBegin);
}

static void test_child_slots_are_reserved_inside_the_parent(void) {
  /* A parent with 3 child slots takes 4 consecutive indices: itself plus its children's. */
  int32_t parent = alloc_type("test.slots.Parent", -1, 1, 3, 0, 64);
  int32_t a = alloc_type("test.slots.A", -1, 2, 0, 0, parent);
  int32_t b = alloc_type("test.slots.B", -1, 2, 1, 0, parent); /* B and its own child slot */
  int32_t b_child = alloc_type("test.slots.BChild", -1, 3, 0, 0, b);
  CHECK_EQ_INT(a, parent + 1);
  CHECK_EQ_INT(b, parent + 2);
  CHECK_EQ_INT(b_child, parent + 3);
  /* The next global index skips the whole reservation. */
  CHECK_EQ_INT(alloc_object_type("test.slots.After"), parent + 4);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(b_child);
  CHECK_EQ_INT(info->type_depth, 3);
  CHECK_EQ_INT(info->type_ancestors[0]->type_index, kTVMFFIObject);
  CHECK_EQ_INT(info->type_ancestors[1]->type_index, parent);
  CHECK_EQ_INT(info->type_ancestors[2]->type_index, b);
  CHECK(is_subclass(b_child, parent));
  CHECK(!is_subclass(b_child, a));
}

static void test_children_overflow_into_the_global_range(void) {
  int32_t parent = alloc_type("test.overflow.Parent", -1, 1, 1, 1, 64);
  int32_t first = alloc_type("test.overflow.First", -1, 2, 0, 1, parent);
  CHECK_EQ_INT(first, parent + 1); /* the one reserved slot */
  int32_t second = alloc_type("test.overflow.Second", -1, 2, 2, 1, parent);
  CHECK_EQ_INT(second, parent + 2); /* the slots are used up: next global index */
  /* second reserved 2 child slots, so the global counter moved by 3. */
  int32_t third = alloc_type("test.overflow.Third", -1, 2, 0, 1, parent);
  CHECK_EQ_INT(third, second + 3);
  int32_t second_child = alloc_type("test.overflow.SecondChild", -1, 3, 0, 1, second);
  CHECK_EQ_INT(second_child, second + 1);
  CHECK(is_subclass(third, parent));
  CHECK(is_subclass(second_child, parent));
  CHECK(!is_subclass(third, second));
}

static void test_static_index_with_child_slots(void) {
  int32_t base = alloc_type("test.static.Base", 100, 1, 2, 1, 64);
  CHECK_EQ_INT(base, 100);
  CHECK_EQ_INT(alloc_type("test.static.C1", -1, 2, 0, 1, base), 101);
  CHECK_EQ_INT(alloc_type("test.static.C2", -1, 2, 0, 1, base), 102);
  int32_t c3 = alloc_type("test.static.C3", -1, 2, 0, 1, base);
  CHECK(c3 >= kTVMFFIDynObjectBegin);
  CHECK_EQ_INT(TVMFFIGetTypeInfo(c3)->type_ancestors[1]->type_index, 100);
  /* Static children of a static parent do not use up its slots. */
  int32_t root = alloc_type("test.static.Root", 40, 0, 2, 0, -1);
  CHECK_EQ_INT(root, 40);
  CHECK_EQ_INT(alloc_type("test.static.RootPinned", 41, 1, 0, 0, root), 41);
  CHECK_EQ_INT(alloc_type("test.static.RootChild", -1, 1, 0, 0, root), 42);
  CHECK_EQ_INT(TVMFFIGetTypeInfo(root)->type_depth, 0);
  /* A dynamic root (no parent) takes a global index. */
  int32_t dyn_root = alloc_type("test.static.DynRoot", -1, 0, 0, 1, -1);
  CHECK(dyn_root >= kTVMFFIDynObjectBegin);
  CHECK_EQ_INT(TVMFFIGetTypeInfo(dyn_root)->type_depth, 0);
  CHECK(!is_subclass(dyn_root, kTVMFFIObject));
}

static void test_key_to_index_errors(void) {
  TVMFFIByteArray key = check_ba("test.no.Such");
  int32_t out = 7;
  CHECK_EQ_INT(TVMFFITypeKeyToIndex(&key, &out), -1);
  CHECK_RAISED("InternalError", "Cannot find type `test.no.Such`");
  CHECK_EQ_INT(out, 7);
  CHECK_EQ_INT(TVMFFITypeKeyToIndex(NULL, &out), -1);
  CHECK_RAISED("ValueError", "type_key");
  CHECK_EQ_INT(TVMFFITypeKeyToIndex(&key, NULL), -1);
  CHECK_RAISED("ValueError", "out_tindex");
  /* Keys are byte strings: an embedded NUL is part of the key. */
  TVMFFIByteArray with_nul = {"ffi.Object\0x", 12};
  CHECK_EQ_INT(TVMFFITypeKeyToIndex(&with_nul, &out), -1);
  CHECK_RAISED("InternalError", "Cannot find type");
}

/* ---- fatal paths (each in a child process) ---- */

static void fatal_unknown_parent(void) { alloc_type("test.fatal.A", -1, 1, 0, 1, 5000); }
static void fatal_depth_mismatch(void) { alloc_type("test.fatal.A", -1, 2, 0, 1, 64); }
static void fatal_root_with_depth(void) { alloc_type("test.fatal.A", -1, 1, 0, 1, -1); }
static void fatal_static_taken(void) { alloc_type("test.fatal.A", 65, 1, 0, 1, 64); }
static void fatal_static_dynamic_range(void) { alloc_type("test.fatal.A", 200, 1, 0, 1, 64); }
static void fatal_negative_slots(void) { alloc_type("test.fatal.A", -1, 1, -1, 1, 64); }
static void fatal_bad_parent(void) { alloc_type("test.fatal.A", -1, 1, 0, 1, -3); }
static void fatal_null_key(void) { TVMFFITypeGetOrAllocIndex(NULL, -1, 1, 0, 1, 64); }
static void fatal_static_leaf_child(void) { alloc_type("test.fatal.A", -1, 2, 0, 1, kTVMFFIArray); }
static void fatal_slots_exhausted(void) {
  int32_t parent = alloc_type("test.fatal.Full", -1, 1, 1, 0, 64);
  alloc_type("test.fatal.Only", -1, 2, 0, 0, parent);
  alloc_type("test.fatal.OneTooMany", -1, 2, 0, 0, parent);
}
static void fatal_inherited_no_overflow(void) {
  /* The child asks for overflow, but its parent forbids it, so the child cannot either. */
  int32_t parent = alloc_type("test.fatal.Strict", -1, 1, 1, 0, 64);
  int32_t child = alloc_type("test.fatal.Loose", -1, 2, 0, 1, parent);
  alloc_type("test.fatal.Grandchild", -1, 3, 0, 1, child);
}
/* TVMFFIGetTypeInfo is declared pure: keep the result so the call is not dropped. */
static const TVMFFITypeInfo* volatile g_info_sink;
static void fatal_info_unregistered(void) { g_info_sink = TVMFFIGetTypeInfo(14); }
static void fatal_info_negative(void) { g_info_sink = TVMFFIGetTypeInfo(-1); }
static void fatal_info_huge(void) { g_info_sink = TVMFFIGetTypeInfo(INT32_MAX); }
static void fatal_column_null(void) { TVMFFIGetTypeAttrColumn(NULL); }

static void test_fatal_errors(void) {
  const char* alloc = "TVMFFITypeGetOrAllocIndex";
  expect_fatal(fatal_unknown_parent, alloc, "parent_type_index 5000");
  expect_fatal(fatal_depth_mismatch, alloc, "depth + 1 = 1, got 2");
  expect_fatal(fatal_root_with_depth, alloc, "type_depth must be 0");
  expect_fatal(fatal_static_taken, alloc, "already taken by `ffi.String`");
  expect_fatal(fatal_static_dynamic_range, alloc, "must be below 128");
  expect_fatal(fatal_negative_slots, alloc, "num_child_slots");
  expect_fatal(fatal_bad_parent, alloc, "invalid parent_type_index -3");
  expect_fatal(fatal_null_key, alloc, "type_key is NULL");
  expect_fatal(fatal_static_leaf_child, alloc, "parent `ffi.Array`");
  expect_fatal(fatal_slots_exhausted, alloc,
               "`test.fatal.OneTooMany`: its parent `test.fatal.Full`");
  expect_fatal(fatal_inherited_no_overflow, alloc, "parent `test.fatal.Loose`");
  expect_fatal(fatal_info_unregistered, "TVMFFIGetTypeInfo", "type_index=14");
  expect_fatal(fatal_info_negative, "TVMFFIGetTypeInfo", "type_index=-1");
  expect_fatal(fatal_info_huge, "TVMFFIGetTypeInfo", "type_index=2147483647");
  expect_fatal(fatal_column_null, "TVMFFIGetTypeAttrColumn", "attr_name");
  /* The parent process is untouched by what the children registered. */
  CHECK_EQ_INT(key_to_index("test.fatal.Full"), -1);
}

/* ---- fields ---- */

static int dummy_getter(void* field_addr, TVMFFIAny* result) {
  *result = any_int(*(int64_t*)field_addr);
  return 0;
}

static TVMFFIFieldInfo make_field(const char* name) {
  TVMFFIFieldInfo f;
  memset(&f, 0, sizeof(f));
  f.name = check_ba(name);
  f.size = 8;
  f.alignment = 8;
  f.offset = 24;
  f.getter = dummy_getter;
  f.field_static_type_index = kTVMFFIInt;
  return f;
}

/* Captures what fn writes to stderr. */
static size_t capture_stderr(void (*fn)(void* ctx), void* ctx, char* buf, size_t cap) {
  fflush(stderr);
  FILE* tmp = tmpfile();
  int saved = dup(2);
  dup2(fileno(tmp), 2);
  fn(ctx);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(tmp);
  size_t n = fread(buf, 1, cap - 1, tmp);
  buf[n] = '\0';
  fclose(tmp);
  return n;
}

typedef struct {
  int32_t type_index;
  TVMFFIFieldInfo field;
  int rc;
} RegisterFieldCall;

static void register_field_call(void* ctx) {
  RegisterFieldCall* call = (RegisterFieldCall*)ctx;
  call->rc = TVMFFITypeRegisterField(call->type_index, &call->field);
}

static void test_fields_are_copied(void) {
  int32_t t = alloc_object_type("test.fields.Point");
  char name[] = "x_coordinate";
  char doc[] = "the x coordinate";
  char meta[] = "{\"type_schema\":\"int\"}";
  TVMFFIFieldInfo f = make_field("");
  f.name = check_ba(name);
  f.doc = check_ba(doc);
  f.metadata = check_ba(meta);
  f.flags = kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskHasDefault;
  f.default_value_or_factory = any_int(42);
  CHECK_EQ_INT(TVMFFITypeRegisterField(t, &f), 0);
  CHECK(check_no_error_pending());
  /* The registry owns its strings: clobbering the caller's buffers changes nothing. */
  memset(name, 'Z', sizeof(name) - 1);
  memset(doc, 'Z', sizeof(doc) - 1);
  memset(meta, 'Z', sizeof(meta) - 1);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(t);
  CHECK_EQ_INT(info->num_fields, 1);
  const TVMFFIFieldInfo* got = &info->fields[0];
  CHECK_BYTES_EQ(got->name, "x_coordinate");
  CHECK_BYTES_EQ(got->doc, "the x coordinate");
  CHECK_BYTES_EQ(got->metadata, "{\"type_schema\":\"int\"}");
  CHECK(got->name.data != name);
  CHECK_EQ_INT(got->flags, kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskHasDefault);
  CHECK_EQ_INT(got->size, 8);
  CHECK_EQ_INT(got->alignment, 8);
  CHECK_EQ_INT(got->offset, 24);
  CHECK(got->getter == dummy_getter);
  CHECK_EQ_INT(got->field_static_type_index, kTVMFFIInt);
  CHECK_EQ_INT(got->default_value_or_factory.type_index, kTVMFFIInt);
  CHECK_EQ_INT(got->default_value_or_factory.v_int64, 42);
  /* Empty doc/metadata are fine. */
  TVMFFIFieldInfo plain = make_field("y");
  CHECK_EQ_INT(TVMFFITypeRegisterField(t, &plain), 0);
  CHECK_EQ_INT(info->num_fields, 2);
  CHECK_BYTES_EQ(info->fields[1].doc, "");
  CHECK(info->fields[1].doc.data != NULL);
}

static void test_field_default_and_setter_are_retained(void) {
  int32_t t = alloc_object_type("test.fields.Retained");
  CountedObject* default_obj = counted_new();
  FunctionState setter_state = {0, 0};
  void* setter = counting_function(&setter_state);
  TVMFFIFieldInfo f = make_field("value");
  f.flags = kTVMFFIFieldFlagBitMaskHasDefault | kTVMFFIFieldFlagBitSetterIsFunctionObj;
  f.default_value_or_factory = any_obj(default_obj);
  f.setter = setter;
  CHECK_EQ_INT(TVMFFITypeRegisterField(t, &f), 0);
  CHECK_EQ_INT(check_strong_count(default_obj), 2);
  CHECK_EQ_INT(check_strong_count(setter), 2);
  /* Our references go; the registry's keep both alive. */
  TVMFFIObjectDecRef(default_obj);
  TVMFFIObjectDecRef(setter);
  CHECK_EQ_INT(default_obj->deleted, 0);
  CHECK_EQ_INT(setter_state.deleted, 0);
  const TVMFFIFieldInfo* got = &TVMFFIGetTypeInfo(t)->fields[0];
  CHECK(got->default_value_or_factory.v_obj == &default_obj->header);
  CHECK(got->setter == setter);
  TVMFFIAny args[2] = {any_int(0), any_int(1)};
  TVMFFIAny result = any_int(0);
  result.type_index = kTVMFFINone;
  CHECK_EQ_INT(TVMFFIFunctionCall(got->setter, args, 2, &result), 0);
  CHECK_EQ_INT(setter_state.calls, 1);
  /* A plain C setter is not an object and is stored as is. */
  TVMFFIFieldInfo c_setter = make_field("raw");
  c_setter.setter = (void*)dummy_getter; /* any address: it must not be touched */
  CHECK_EQ_INT(TVMFFITypeRegisterField(t, &c_setter), 0);
  CHECK(TVMFFIGetTypeInfo(t)->fields[1].setter == (void*)dummy_getter);
  /* A raw-string default becomes an owned string value. */
  TVMFFIFieldInfo s = make_field("label");
  s.flags = kTVMFFIFieldFlagBitMaskHasDefault;
  s.default_value_or_factory.type_index = kTVMFFIRawStr;
  s.default_value_or_factory.v_c_str = "a default label";
  CHECK_EQ_INT(TVMFFITypeRegisterField(t, &s), 0);
  CHECK_EQ_INT(TVMFFIGetTypeInfo(t)->fields[2].default_value_or_factory.type_index, kTVMFFIStr);
}

static void test_field_errors_and_warnings(void) {
  int32_t base = alloc_object_type("test.fields.Base");
  int32_t derived = alloc_type("test.fields.Derived", -1, 2, 0, 1, base);
  TVMFFIFieldInfo f = make_field("shared");
  CHECK_EQ_INT(TVMFFITypeRegisterField(base, &f), 0);
  CHECK_EQ_INT(TVMFFITypeRegisterField(base, &f), -1);
  CHECK_RAISED("InternalError", "Duplicate field name \"shared\" in type \"test.fields.Base\"");
  CHECK_EQ_INT(TVMFFIGetTypeInfo(base)->num_fields, 1);
  /* Same name as an inherited field: accepted, with a warning on stderr. */
  RegisterFieldCall call = {derived, f, -1};
  char out[1024];
  size_t n = capture_stderr(register_field_call, &call, out, sizeof(out));
  CHECK_EQ_INT(call.rc, 0);
  TVMFFIByteArray warning = {out, n};
  CHECK_CONTAINS(warning, "[WARNING]");
  CHECK_CONTAINS(warning, "\"shared\"");
  CHECK_CONTAINS(warning, "\"test.fields.Base\"");
  CHECK_EQ_INT(TVMFFIGetTypeInfo(derived)->num_fields, 1); /* own fields only */
  CHECK_EQ_INT(TVMFFITypeRegisterField(14, &f), -1);
  CHECK_RAISED("InternalError", "Cannot find type info for type_index=14");
  CHECK_EQ_INT(TVMFFITypeRegisterField(-5, &f), -1);
  CHECK_RAISED("InternalError", "type_index=-5");
  CHECK_EQ_INT(TVMFFITypeRegisterField(base, NULL), -1);
  CHECK_RAISED("ValueError", "info is NULL");
  TVMFFIFieldInfo bad = make_field("bad");
  bad.doc.data = NULL;
  bad.doc.size = 3;
  CHECK_EQ_INT(TVMFFITypeRegisterField(base, &bad), -1);
  CHECK_RAISED("ValueError", "field doc");
  CHECK_EQ_INT(TVMFFIGetTypeInfo(base)->num_fields, 1);
  /* A default that cannot become an owned value: rejected, nothing kept. */
  TVMFFIFieldInfo moved = make_field("moved");
  TVMFFIObject* empty_slot = NULL;
  moved.default_value_or_factory.type_index = kTVMFFIObjectRValueRef;
  moved.default_value_or_factory.v_ptr = &empty_slot;
  CHECK_EQ_INT(TVMFFITypeRegisterField(base, &moved), -1);
  CHECK_RAISED("RuntimeError", "");
  CHECK_EQ_INT(TVMFFIGetTypeInfo(base)->num_fields, 1);
}

static void test_many_fields_keep_old_arrays_readable(void) {
  int32_t t = alloc_object_type("test.fields.Wide");
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(t);
  TVMFFIFieldInfo f0 = make_field("f0");
  CHECK_EQ_INT(TVMFFITypeRegisterField(t, &f0), 0);
  const TVMFFIFieldInfo* first_array = info->fields;
  char name[32];
  for (int i = 1; i < 100; ++i) {
    snprintf(name, sizeof(name), "f%d", i);
    TVMFFIFieldInfo f = make_field(name);
    f.offset = 24 + 8 * i;
    CHECK_EQ_INT(TVMFFITypeRegisterField(t, &f), 0);
  }
  CHECK_EQ_INT(info->num_fields, 100);
  CHECK(TVMFFIGetTypeInfo(t) == info);
  for (int i = 0; i < 100; ++i) {
    snprintf(name, sizeof(name), "f%d", i);
    CHECK_BYTES_EQ(info->fields[i].name, name);
    CHECK_EQ_INT(info->fields[i].offset, 24 + 8 * i);
  }
  /* A reader that grabbed the array before it grew still reads valid memory. */
  CHECK_BYTES_EQ(first_array[0].name, "f0");
}

/* ---- methods ---- */

static void test_methods_retain_their_function(void) {
  int32_t t = alloc_object_type("test.methods.Counter");
  FunctionState state = {0, 0};
  void* fn = counting_function(&state);
  TVMFFIMethodInfo m;
  memset(&m, 0, sizeof(m));
  m.name = check_ba("increment");
  m.doc = check_ba("adds one");
  m.metadata = check_ba("{}");
  m.flags = kTVMFFIFieldFlagBitMaskIsStaticMethod;
  m.method = any_obj(fn);
  CHECK_EQ_INT(TVMFFITypeRegisterMethod(t, &m), 0);
  CHECK_EQ_INT(check_strong_count(fn), 2);
  /* Registering the same name again is allowed (overloads) and takes another reference. */
  CHECK_EQ_INT(TVMFFITypeRegisterMethod(t, &m), 0);
  CHECK_EQ_INT(check_strong_count(fn), 3);
  TVMFFIObjectDecRef(fn);
  CHECK_EQ_INT(state.deleted, 0);
  CHECK_EQ_INT(check_strong_count(fn), 2);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(t);
  CHECK_EQ_INT(info->num_methods, 2);
  const TVMFFIMethodInfo* got = &info->methods[0];
  CHECK_BYTES_EQ(got->name, "increment");
  CHECK_BYTES_EQ(got->doc, "adds one");
  CHECK_BYTES_EQ(got->metadata, "{}");
  CHECK(got->name.data != m.name.data);
  CHECK_EQ_INT(got->flags, kTVMFFIFieldFlagBitMaskIsStaticMethod);
  CHECK_EQ_INT(got->method.type_index, kTVMFFIFunction);
  TVMFFIAny args[3] = {any_int(1), any_int(2), any_int(3)};
  TVMFFIAny result;
  memset(&result, 0, sizeof(result));
  CHECK_EQ_INT(TVMFFIFunctionCall(got->method.v_obj, args, 3, &result), 0);
  CHECK_EQ_INT(result.v_int64, 3);
  CHECK_EQ_INT(state.calls, 1);
  /* Non-function values are stored too. */
  m.name = check_ba("answer");
  m.method = any_int(42);
  CHECK_EQ_INT(TVMFFITypeRegisterMethod(t, &m), 0);
  CHECK_EQ_INT(info->methods[2].method.v_int64, 42);
  /* Errors. */
  CHECK_EQ_INT(TVMFFITypeRegisterMethod(9999999, &m), -1);
  CHECK_RAISED("InternalError", "Cannot find type info for type_index=9999999");
  CHECK_EQ_INT(TVMFFITypeRegisterMethod(t, NULL), -1);
  CHECK_RAISED("ValueError", "info is NULL");
  m.name.data = NULL;
  m.name.size = 4;
  CHECK_EQ_INT(TVMFFITypeRegisterMethod(t, &m), -1);
  CHECK_RAISED("ValueError", "method name");
  CHECK_EQ_INT(info->num_methods, 3);
}

/* ---- metadata ---- */

static int make_nothing(TVMFFIObjectHandle* result) {
  *result = NULL;
  return 0;
}

static void test_metadata(void) {
  int32_t t = alloc_object_type("test.meta.Thing");
  CHECK(TVMFFIGetTypeInfo(t)->metadata == NULL);
  char doc[] = "a thing";
  TVMFFITypeMetadata md = {check_ba(doc), make_nothing, 40, kTVMFFISEqHashKindTreeNode};
  CHECK_EQ_INT(TVMFFITypeRegisterMetadata(t, &md), 0);
  doc[0] = 'X';
  const TVMFFITypeMetadata* got = TVMFFIGetTypeInfo(t)->metadata;
  CHECK(got != NULL && got != &md);
  if (got != NULL) {
    CHECK_BYTES_EQ(got->doc, "a thing");
    CHECK(got->creator == make_nothing);
    CHECK_EQ_INT(got->total_size, 40);
    CHECK_EQ_INT(got->structural_eq_hash_kind, kTVMFFISEqHashKindTreeNode);
  }
  CHECK_EQ_INT(TVMFFITypeRegisterMetadata(t, &md), -1);
  CHECK_RAISED("RuntimeError", "Overriding");
  CHECK(TVMFFIGetTypeInfo(t)->metadata == got);
  CHECK_EQ_INT(TVMFFITypeRegisterMetadata(kTVMFFIObject, &md), -1);
  CHECK_RAISED("RuntimeError", "Overriding the metadata of type `ffi.Object`");
  CHECK_EQ_INT(TVMFFITypeRegisterMetadata(63, &md), -1);
  CHECK_RAISED("InternalError", "type_index=63");
  CHECK_EQ_INT(TVMFFITypeRegisterMetadata(t, NULL), -1);
  CHECK_RAISED("ValueError", "metadata is NULL");
  /* Metadata for a static type that had none. */
  TVMFFITypeMetadata empty = {{NULL, 0}, NULL, 0, kTVMFFISEqHashKindUnsupported};
  int32_t other = alloc_object_type("test.meta.Other");
  CHECK_EQ_INT(TVMFFITypeRegisterMetadata(other, &empty), 0);
  CHECK_BYTES_EQ(TVMFFIGetTypeInfo(other)->metadata->doc, "");
}

/* ---- type attributes ---- */

static void test_attr_columns(void) {
  TVMFFIByteArray name = check_ba("__test_attr__");
  CHECK(TVMFFIGetTypeAttrColumn(&name) == NULL);
  TVMFFIAny ignored = any_int(5);
  /* Index 0 only declares the column. */
  CHECK_EQ_INT(TVMFFITypeRegisterAttr(kTVMFFINone, &name, &ignored), 0);
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&name);
  CHECK(col != NULL);
  if (col == NULL) return;
  CHECK_EQ_INT(col->size, 0);
  CHECK_EQ_INT(col->begin_index, 0);
  CHECK_EQ_INT(TVMFFITypeRegisterAttr(kTVMFFINone, &name, &ignored), 0); /* again: fine */

  int32_t t = alloc_object_type("test.attr.Holder");
  TVMFFIAny seven = any_int(7);
  CHECK_EQ_INT(TVMFFITypeRegisterAttr(t, &name, &seven), 0);
  CHECK(TVMFFIGetTypeAttrColumn(&name) == col);
  CHECK_EQ_INT(col->size, t + 1);
  CHECK_EQ_INT(col->data[t].type_index, kTVMFFIInt);
  CHECK_EQ_INT(col->data[t].v_int64, 7);
  for (int32_t i = 0; i < t; ++i) CHECK_EQ_INT(col->data[i].type_index, kTVMFFINone);
  /* A stored value cannot be replaced, not even by None. */
  TVMFFIAny eight = any_int(8);
  CHECK_EQ_INT(TVMFFITypeRegisterAttr(t, &name, &eight), -1);
  CHECK_RAISED("RuntimeError", "TypeAttr `__test_attr__` is already registered for type index");
  TVMFFIAny none;
  memset(&none, 0, sizeof(none));
  CHECK_EQ_INT(TVMFFITypeRegisterAttr(t, &name, &none), -1);
  CHECK_RAISED("RuntimeError", "already registered");
  CHECK_EQ_INT(col->data[t].v_int64, 7);
  /* POD types can carry attributes too. */
  CHECK_EQ_INT(TVMFFITypeRegisterAttr(kTVMFFIInt, &name, &eight), 0);
  CHECK_EQ_INT(col->data[kTVMFFIInt].v_int64, 8);
  /* None when absent is allowed and counts as absent; a value may follow it. */
  int32_t u = alloc_object_type("test.attr.Later");
  CHECK_EQ_INT(TVMFFITypeRegisterAttr(u, &name, &none), 0);
  CHECK_EQ_INT(col->size, u + 1);
  CHECK_EQ_INT(col->data[u].type_index, kTVMFFINone);
  CHECK_EQ_INT(TVMFFITypeRegisterAttr(u, &name, &seven), 0);
  CHECK_EQ_INT(col->data[u].v_int64, 7);
  /* Errors. */
  CHECK_EQ_INT(TVMFFITypeRegisterAttr(20, &name, &seven), -1);
  CHECK_RAISED("InternalError", "type_index=20");
  CHECK_EQ_INT(TVMFFITypeRegisterAttr(t, NULL, &seven), -1);
  CHECK_RAISED("ValueError", "attr_name");
  CHECK_EQ_INT(TVMFFITypeRegisterAttr(t, &name, NULL), -1);
  CHECK_RAISED("ValueError", "attr_value");
}

static void test_attr_values_are_retained_and_columns_grow_in_place(void) {
  TVMFFIByteArray name = check_ba("__test_attr_objects__");
  int32_t t = alloc_object_type("test.attr.ObjectHolder");
  CountedObject* obj = counted_new();
  TVMFFIAny v = any_obj(obj);
  CHECK_EQ_INT(TVMFFITypeRegisterAttr(t, &name, &v), 0);
  CHECK_EQ_INT(check_strong_count(obj), 2);
  TVMFFIObjectDecRef(obj);
  CHECK_EQ_INT(obj->deleted, 0);
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&name);
  CHECK(col->data[t].v_obj == &obj->header);
  const TVMFFIAny* old_data = col->data;
  /* A raw string is stored as an owned string. */
  int32_t s = alloc_object_type("test.attr.StringHolder");
  TVMFFIAny raw;
  memset(&raw, 0, sizeof(raw));
  raw.type_index = kTVMFFIRawStr;
  raw.v_c_str = "short";
  CHECK_EQ_INT(TVMFFITypeRegisterAttr(s, &name, &raw), 0);
  CHECK_EQ_INT(col->data[s].type_index, kTVMFFISmallStr);
  /* Many new types later, the column grows: same struct, bigger data, old block readable. */
  char key[64];
  int32_t last = 0;
  for (int i = 0; i < 300; ++i) {
    snprintf(key, sizeof(key), "test.attr.Grow%d", i);
    last = alloc_object_type(key);
  }
  TVMFFIAny one = any_int(1);
  CHECK_EQ_INT(TVMFFITypeRegisterAttr(last, &name, &one), 0);
  CHECK(TVMFFIGetTypeAttrColumn(&name) == col);
  CHECK_EQ_INT(col->size, last + 1);
  CHECK(col->data[t].v_obj == &obj->header);
  CHECK_EQ_INT(col->data[last].v_int64, 1);
  CHECK(old_data[t].v_obj == &obj->header);
}

/* ---- ffi.GetRegisteredTypeKeys ---- */

static TVMFFIByteArray string_of(const TVMFFIAny* v) {
  TVMFFIByteArray out = {"", 0};
  if (v->type_index == kTVMFFISmallStr) {
    out.data = v->v_bytes;
    out.size = v->small_str_len;
  } else if (v->type_index == kTVMFFIStr) {
    out = *(TVMFFIByteArray*)((char*)v->v_obj + sizeof(TVMFFIObject));
  }
  return out;
}

/* Position of key in a list of string values, -1 if absent or listed twice. */
static int64_t find_key(const TVMFFIAny* items, int64_t n, const char* key) {
  int64_t at = -1;
  for (int64_t i = 0; i < n; ++i) {
    TVMFFIByteArray k = string_of(&items[i]);
    if (k.size == strlen(key) && memcmp(k.data, key, k.size) == 0) {
      if (at >= 0) return -1;
      at = i;
    }
  }
  return at;
}

static void test_get_registered_type_keys(void) {
  int32_t mine = alloc_object_type("test.keys.Listed");
  TVMFFIByteArray fname = check_ba("ffi.GetRegisteredTypeKeys");
  void* f = NULL;
  CHECK_EQ_INT(TVMFFIFunctionGetGlobal(&fname, &f), 0);
  CHECK(f != NULL);
  if (f == NULL) return;
  TVMFFIAny result;
  memset(&result, 0, sizeof(result));
  CHECK_EQ_INT(TVMFFIFunctionCall(f, NULL, 0, &result), 0);
  CHECK(check_no_error_pending());
  CHECK_EQ_INT(result.type_index, kTVMFFIArray);
  if (result.type_index == kTVMFFIArray) {
    TVMFFISeqCell* seq = (TVMFFISeqCell*)((char*)result.v_obj + sizeof(TVMFFIObject));
    const TVMFFIAny* items = (const TVMFFIAny*)seq->data;
    CHECK(seq->size > 30);
    /* In index order: the POD keys first (0..13), then the rest. */
    CHECK_BYTES_EQ(string_of(&items[0]), "None");
    CHECK_BYTES_EQ(string_of(&items[13]), "ffi.Unchanged");
    int64_t object_at = find_key(items, seq->size, "ffi.Object");
    int64_t bigint_at = find_key(items, seq->size, "ffi.BigInt");
    int64_t mine_at = find_key(items, seq->size, "test.keys.Listed");
    CHECK(object_at > 13 && bigint_at == object_at + 14 && mine_at > bigint_at);
    TVMFFIObjectDecRef(result.v_obj);
  }
  /* Arity is checked. */
  TVMFFIAny arg = any_int(mine);
  memset(&result, 0, sizeof(result));
  CHECK_EQ_INT(TVMFFIFunctionCall(f, &arg, 1, &result), -1);
  CHECK_RAISED("TypeError", "ffi.GetRegisteredTypeKeys");
  TVMFFIObjectDecRef(f);
}

/* ---- concurrency ---- */

enum { kThreads = 8, kTypesPerThread = 300 };

typedef struct {
  int id;
  int32_t shared_index;
  int32_t indices[kTypesPerThread];
  int failures;
} ThreadWork;

static const TVMFFIByteArray kThreadAttr = {"__test_thread_attr__", 20};

static void drop_pending_error(void) {
  void* err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err != NULL) TVMFFIObjectDecRef(err);
}

/* Reads every entry of the shared column: under ASan this catches a freed data block. */
static int64_t scan_column(void) {
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&kThreadAttr);
  int64_t sum = 0;
  int32_t size = __atomic_load_n(&col->size, __ATOMIC_ACQUIRE);
  const TVMFFIAny* data = __atomic_load_n(&col->data, __ATOMIC_ACQUIRE);
  for (int32_t i = 0; i < size; ++i) {
    int32_t type_index = __atomic_load_n(&data[i].type_index, __ATOMIC_ACQUIRE);
    if (type_index == kTVMFFIInt) sum += data[i].v_int64;
  }
  return sum;
}

static void* thread_main(void* p) {
  ThreadWork* work = (ThreadWork*)p;
  char key[64];
  int32_t root = -1;
  snprintf(key, sizeof(key), "test.thread%d.Root", work->id);
  root = alloc_type(key, -1, 1, 16, 1, 64);
  for (int i = 0; i < kTypesPerThread; ++i) {
    snprintf(key, sizeof(key), "test.thread%d.T%d", work->id, i);
    /* Half under the thread's root (slots, then overflow), half directly under Object. */
    int32_t index = (i % 2) ? alloc_type(key, -1, 2, 0, 1, root) : alloc_object_type(key);
    work->indices[i] = index;
    TVMFFIFieldInfo f = make_field("payload");
    if (TVMFFITypeRegisterField(index, &f) != 0) work->failures++;
    TVMFFIAny value = any_int(work->id * 1000 + i);
    if (TVMFFITypeRegisterAttr(index, &kThreadAttr, &value) != 0) work->failures++;
    /* Everyone races for the same key and must agree on its index. */
    int32_t shared = alloc_object_type("test.thread.Shared");
    if (work->shared_index == 0) work->shared_index = shared;
    if (shared != work->shared_index) work->failures++;
    /* Look at what other threads registered so far. */
    snprintf(key, sizeof(key), "test.thread%d.T%d", (work->id + 1) % kThreads, i);
    TVMFFIByteArray other = check_ba(key);
    int32_t other_index = -1;
    if (TVMFFITypeKeyToIndex(&other, &other_index) == 0) {
      const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(other_index);
      if (info->type_key.size != other.size || memcmp(info->type_key.data, key, other.size) != 0) {
        work->failures++;
      }
      if (info->type_depth < 1 || info->type_ancestors[0]->type_index != kTVMFFIObject) {
        work->failures++;
      }
    } else {
      drop_pending_error();
    }
    if (i % 16 == 0) scan_column();
  }
  return NULL;
}

static void test_concurrent_registration_and_lookup(void) {
  TVMFFIAny none;
  memset(&none, 0, sizeof(none));
  CHECK_EQ_INT(TVMFFITypeRegisterAttr(kTVMFFINone, &kThreadAttr, &none), 0);
  static ThreadWork work[kThreads];
  pthread_t threads[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    memset(&work[t], 0, sizeof(work[t]));
    work[t].id = t;
    pthread_create(&threads[t], NULL, thread_main, &work[t]);
  }
  for (int t = 0; t < kThreads; ++t) pthread_join(threads[t], NULL);
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&kThreadAttr);
  int32_t shared = key_to_index("test.thread.Shared");
  char key[64];
  for (int t = 0; t < kThreads; ++t) {
    CHECK_EQ_INT(work[t].failures, 0);
    CHECK_EQ_INT(work[t].shared_index, shared);
    for (int i = 0; i < kTypesPerThread; ++i) {
      int32_t index = work[t].indices[i];
      snprintf(key, sizeof(key), "test.thread%d.T%d", t, i);
      CHECK_EQ_INT(key_to_index(key), index);
      const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
      CHECK_BYTES_EQ(info->type_key, key);
      CHECK_EQ_INT(info->num_fields, 1);
      CHECK(index < col->size);
      if (index < col->size) CHECK_EQ_INT(col->data[index].v_int64, t * 1000 + i);
    }
  }
}

/* ---- scale ---- */

enum { kManyTypes = 10000 };

static void test_ten_thousand_types(void) {
  static int32_t indices[kManyTypes];
  static int32_t depths[kManyTypes];
  char key[64];
  double start = now_seconds();
  for (int i = 0; i < kManyTypes; ++i) {
    snprintf(key, sizeof(key), "test.many.T%d", i);
    /* A binary tree: the parent of i is (i-1)/2, rooted under ffi.Object. */
    int32_t parent = i == 0 ? kTVMFFIObject : indices[(i - 1) / 2];
    int32_t parent_depth = i == 0 ? 0 : depths[(i - 1) / 2];
    depths[i] = parent_depth + 1;
    indices[i] = alloc_type(key, -1, depths[i], i % 7 == 0 ? 2 : 0, 1, parent);
  }
  double registered = now_seconds();
  for (int i = 0; i < kManyTypes; ++i) {
    snprintf(key, sizeof(key), "test.many.T%d", i);
    CHECK_EQ_INT(key_to_index(key), indices[i]);
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(indices[i]);
    CHECK_EQ_INT(info->type_depth, depths[i]);
    CHECK_BYTES_EQ(info->type_key, key);
    if (i > 0) {
      CHECK(info->type_ancestors[depths[i] - 1] == TVMFFIGetTypeInfo(indices[(i - 1) / 2]));
      CHECK(is_subclass(indices[i], indices[0]));
    }
  }
  double looked_up = now_seconds();
  printf("10000 types: register %.1f ms, look up %.1f ms\n", (registered - start) * 1e3,
         (looked_up - registered) * 1e3);
  CHECK(registered - start < 1.0);
  CHECK(looked_up - registered < 1.0);
  /* Distinct indices, all in the dynamic range. */
  for (int i = 1; i < kManyTypes; ++i) CHECK(indices[i] >= kTVMFFIDynObjectBegin);
  CHECK(!is_subclass(indices[1], indices[2]));
}

int main(void) {
  RUN(test_static_table_pod_roots);
  RUN(test_static_table_object_types);
  RUN(test_type_key_hash_matches_libstdcxx);
  RUN(test_start_up_attr_columns);
  RUN(test_kernel_start_up_registrations); /* first dynamic registrations of the process */
  RUN(test_query_only);
  RUN(test_fatal_errors);
  RUN(test_child_slots_are_reserved_inside_the_parent);
  RUN(test_children_overflow_into_the_global_range);
  RUN(test_static_index_with_child_slots);
  RUN(test_key_to_index_errors);
  RUN(test_fields_are_copied);
  RUN(test_field_default_and_setter_are_retained);
  RUN(test_field_errors_and_warnings);
  RUN(test_many_fields_keep_old_arrays_readable);
  RUN(test_methods_retain_their_function);
  RUN(test_metadata);
  RUN(test_attr_columns);
  RUN(test_attr_values_are_retained_and_columns_grow_in_place);
  RUN(test_get_registered_type_keys);
  RUN(test_concurrent_registration_and_lookup);
  RUN(test_ten_thousand_types);
  return CHECK_MAIN_RESULT();
}
