/*
 * run_containers_on_ours.c -- passes List/Map/Dict objects made by OUR runtime to a kernel built
 * against the REFERENCE C++ headers (kernels/ref_container_kernel.cc), which reads and mutates
 * them inline, and reads back the containers the kernel makes. Usage:
 *
 *   run_containers_on_ours <our libtvm_ffi.so> <ref_container_kernel.so>
 *
 * The exit status is the number of failed tests.
 */
#define _GNU_SOURCE
#include "host_common.h"

static void* g_lib;

static int call_global(const char* name, TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  void* f = NULL;
  TVMFFIByteArray key = host_ba(name);
  if (TVMFFIFunctionGetGlobal(&key, &f) != 0 || f == NULL) {
    fprintf(stderr, "global %s is missing\n", name);
    return -99;
  }
  int rc = host_call(f, args, n, result);
  TVMFFIObjectDecRef(f);
  return rc;
}

/* Calls kernel function `name`; returns its int result, or -12345 after reporting. */
static int64_t kernel_int(const char* name, TVMFFIAny* args, int32_t n) {
  void* f = host_kernel_function(g_lib, name);
  if (f == NULL) return -12345;
  TVMFFIAny r;
  int ok = host_ok(host_call(f, args, n, &r));
  TVMFFIObjectDecRef(f);
  if (!ok) return -12345;
  EXPECT_EQ_INT(r.type_index, kTVMFFIInt);
  return r.v_int64;
}

/* Calls kernel function `name` that returns an object (NULL on failure). */
static void* kernel_obj(const char* name, TVMFFIAny* args, int32_t n) {
  void* f = host_kernel_function(g_lib, name);
  if (f == NULL) return NULL;
  TVMFFIAny r;
  int ok = host_ok(host_call(f, args, n, &r));
  TVMFFIObjectDecRef(f);
  return ok && r.type_index >= kTVMFFIStaticObjectBegin ? r.v_obj : NULL;
}

/* Our Map (or Dict) {"<prefix><i>": i for i < n}. */
static void* our_mapping(const char* ctor, const char* prefix, int64_t n) {
  TVMFFIAny* args = (TVMFFIAny*)calloc((size_t)(2 * n + 1), sizeof(TVMFFIAny));
  char (*names)[32] = calloc((size_t)n + 1, 32);
  for (int64_t i = 0; i < n; ++i) {
    snprintf(names[i], 32, "%s%lld", prefix, (long long)i);
    args[2 * i] = host_any_raw_str(names[i]);
    args[2 * i + 1] = host_any_int(i);
  }
  TVMFFIAny r;
  int ok = host_ok(call_global(ctor, args, (int32_t)(2 * n), &r));
  free(args);
  free(names);
  return ok ? r.v_obj : NULL;
}

static int64_t our_get(const char* fn, void* m, const char* key) {
  TVMFFIAny args[2] = {host_any_object(m), host_any_raw_str(key)}, r;
  if (!host_ok(call_global(fn, args, 2, &r))) return -12345;
  return r.v_int64;
}

static int64_t our_size(const char* fn, void* obj) {
  TVMFFIAny args[1] = {host_any_object(obj)}, r;
  if (!host_ok(call_global(fn, args, 1, &r))) return -12345;
  return r.v_int64;
}

static void check_our_map_in_kernel(int64_t n) {
  void* m = our_mapping("ffi.Map", "k", n);
  EXPECT(m != NULL);
  if (m == NULL) return;
  TVMFFIAny args[3] = {host_any_object(m), host_any_int(n)};
  EXPECT_EQ_INT(kernel_int("map_lookup_all", args, 2), n * (n - 1) / 2);
  /* Copy-on-write Set in the kernel: a reference-made map comes back; ours is unchanged. */
  args[1] = host_any_raw_str("extra");
  args[2] = host_any_int(1000000);
  void* m2 = kernel_obj("map_with", args, 3);
  EXPECT(m2 != NULL);
  if (m2 != NULL) {
    EXPECT_EQ_INT(((TVMFFIObject*)m2)->type_index, kTVMFFIMap);
    EXPECT_EQ_INT(our_size("ffi.MapSize", m2), n + 1);
    EXPECT_EQ_INT(our_get("ffi.MapGetItem", m2, "extra"), 1000000);
    EXPECT_EQ_INT(our_get("ffi.MapGetItem", m2, "k0"), 0);
    char last[32];
    snprintf(last, sizeof last, "k%lld", (long long)(n - 1));
    EXPECT_EQ_INT(our_get("ffi.MapGetItem", m2, last), n - 1);
    TVMFFIObjectDecRef(m2);
  }
  EXPECT_EQ_INT(our_size("ffi.MapSize", m), n);
  EXPECT_EQ_INT(host_strong_count(m), 1);
  TVMFFIObjectDecRef(m);
}

static void test_our_map_with_one_entry(void) { check_our_map_in_kernel(1); }
static void test_our_map_with_1000_entries(void) { check_our_map_in_kernel(1000); }

/* Maps the kernel makes (small and dense) read through our globals, iterator included. */
static void test_kernel_maps_read_by_us(void) {
  int64_t sizes[3] = {3, 5, 1000};
  for (int s = 0; s < 3; ++s) {
    int64_t n = sizes[s];
    TVMFFIAny args[1] = {host_any_int(n)};
    void* m = kernel_obj("make_map", args, 1);
    EXPECT(m != NULL);
    if (m == NULL) continue;
    EXPECT_EQ_INT(our_size("ffi.MapSize", m), n);
    int64_t sum = 0;
    char key[32];
    for (int64_t i = 0; i < n; ++i) {
      snprintf(key, sizeof key, "k%lld", (long long)i);
      sum += our_get("ffi.MapGetItem", m, key);
    }
    EXPECT_EQ_INT(sum, n * (n - 1) / 2);
    EXPECT_EQ_INT(our_get("ffi.MapCount", m, "absent"), 0);
    /* Iteration in insertion order. */
    TVMFFIAny it_args[1] = {host_any_object(m)}, r;
    EXPECT(host_ok(call_global("ffi.MapForwardIterFunctor", it_args, 1, &r)));
    void* it = r.v_obj;
    for (int64_t i = 0; i < n && it != NULL; ++i) {
      TVMFFIAny op = host_any_int(1);
      EXPECT(host_ok(host_call(it, &op, 1, &r)));
      EXPECT_EQ_INT(r.v_int64, i);
      op = host_any_int(2);
      EXPECT(host_ok(host_call(it, &op, 1, &r)));
      EXPECT_EQ_INT(r.v_int64, i + 1 < n);
    }
    if (it != NULL) TVMFFIObjectDecRef(it);
    TVMFFIObjectDecRef(m);
  }
}

/* The kernel pushes past our capacity: it frees our buffer with our data_deleter. */
static void test_kernel_grows_our_list(void) {
  TVMFFIAny r, init[2] = {host_any_int(100), host_any_int(101)};
  EXPECT(host_ok(call_global("ffi.List", init, 2, &r)));
  void* l = r.v_obj;
  TVMFFISeqCell* cell = (TVMFFISeqCell*)host_cell(l);
  int64_t cap_before = cell->capacity;
  TVMFFIAny args[2] = {host_any_object(l), host_any_int(50)};
  EXPECT_EQ_INT(kernel_int("list_push", args, 2), 52);
  EXPECT_EQ_INT(cell->size, 52); /* mutated in place, not copied */
  EXPECT(cell->capacity > cap_before);
  TVMFFIAny get[2] = {host_any_object(l), host_any_int(0)};
  EXPECT(host_ok(call_global("ffi.ListGetItem", get, 2, &r)));
  EXPECT_EQ_INT(r.v_int64, 100);
  get[1] = host_any_int(51);
  EXPECT(host_ok(call_global("ffi.ListGetItem", get, 2, &r)));
  EXPECT_EQ_INT(r.v_int64, 49);
  /* And we grow it again after the kernel's buffer (and its deleter) took over. */
  for (int i = 0; i < 100; ++i) {
    TVMFFIAny app[2] = {host_any_object(l), host_any_int(i)};
    EXPECT(host_ok(call_global("ffi.ListAppend", app, 2, &r)));
  }
  EXPECT_EQ_INT(our_size("ffi.ListSize", l), 152);
  EXPECT_EQ_INT(host_strong_count(l), 1);
  TVMFFIObjectDecRef(l);
}

/* A List made by the kernel, read and grown by us (we free its buffer with its deleter). */
static void test_kernel_list_grown_by_us(void) {
  TVMFFIAny args[1] = {host_any_int(3)}, r;
  void* l = kernel_obj("make_list", args, 1);
  EXPECT(l != NULL);
  if (l == NULL) return;
  EXPECT_EQ_INT(((TVMFFIObject*)l)->type_index, kTVMFFIList);
  for (int i = 0; i < 20; ++i) {
    TVMFFIAny app[2] = {host_any_object(l), host_any_int(i)};
    EXPECT(host_ok(call_global("ffi.ListAppend", app, 2, &r)));
  }
  EXPECT_EQ_INT(our_size("ffi.ListSize", l), 23);
  TVMFFIAny get[2] = {host_any_object(l), host_any_int(2)};
  EXPECT(host_ok(call_global("ffi.ListGetItem", get, 2, &r)));
  EXPECT_EQ_INT(r.v_int64, 2);
  TVMFFIObjectDecRef(l);
}

/* The kernel fills our small Dict in place until it turns dense (written into our object), then
 * we read and mutate that kernel-made dense layout, and the kernel reads our changes. */
static void test_kernel_fills_our_dict(void) {
  void* d = our_mapping("ffi.Dict", "d", 2);
  EXPECT(d != NULL);
  if (d == NULL) return;
  uint64_t* slots = (uint64_t*)((char*)d + 40);
  EXPECT((*slots >> 63) == 1); /* small */
  TVMFFIAny args[3] = {host_any_object(d), host_any_int(2), host_any_int(2)};
  EXPECT_EQ_INT(kernel_int("dict_fill", args, 3), 4);
  EXPECT((*slots >> 63) == 1);
  args[1] = host_any_int(4);
  args[2] = host_any_int(1);
  EXPECT_EQ_INT(kernel_int("dict_fill", args, 3), 5); /* the 5th key: dense, same object */
  EXPECT((*slots >> 63) == 0);
  EXPECT_EQ_INT(our_size("ffi.DictSize", d), 5);
  EXPECT_EQ_INT(our_get("ffi.DictGetItem", d, "d4"), 4);
  EXPECT_EQ_INT(our_get("ffi.DictGetItem", d, "d0"), 0);
  args[1] = host_any_int(5);
  args[2] = host_any_int(300);
  EXPECT_EQ_INT(kernel_int("dict_fill", args, 3), 305);
  /* We insert into and erase from the kernel-made dense storage. */
  char key[32];
  TVMFFIAny r;
  for (int64_t i = 305; i < 600; ++i) {
    snprintf(key, sizeof key, "d%lld", (long long)i);
    TVMFFIAny set[3] = {host_any_object(d), host_any_raw_str(key), host_any_int(i)};
    EXPECT(host_ok(call_global("ffi.DictSetItem", set, 3, &r)));
  }
  for (int64_t i = 0; i < 600; i += 3) {
    snprintf(key, sizeof key, "d%lld", (long long)i);
    TVMFFIAny er[2] = {host_any_object(d), host_any_raw_str(key)};
    EXPECT(host_ok(call_global("ffi.DictErase", er, 2, &r)));
  }
  int64_t expect = 0, count = 0;
  for (int64_t i = 0; i < 600; ++i) {
    if (i % 3 != 0) {
      expect += i;
      count++;
    }
  }
  TVMFFIAny look[2] = {host_any_object(d), host_any_int(600)};
  EXPECT_EQ_INT(kernel_int("dict_lookup_all", look, 2), expect);
  /* The kernel erases from our dense layout; we still find everything else. */
  TVMFFIAny er[2] = {host_any_object(d), host_any_raw_str("d1")};
  EXPECT_EQ_INT(kernel_int("dict_erase", er, 2), count - 1);
  EXPECT_EQ_INT(our_get("ffi.DictCount", d, "d1"), 0);
  EXPECT_EQ_INT(our_get("ffi.DictGetItem", d, "d599"), 599);
  EXPECT_EQ_INT(host_strong_count(d), 1);
  TVMFFIObjectDecRef(d);
}

/* A dense Dict built by us, read and mutated by the kernel. */
static void test_our_dense_dict_in_kernel(void) {
  void* d = our_mapping("ffi.Dict", "d", 200);
  EXPECT(d != NULL);
  if (d == NULL) return;
  TVMFFIAny look[2] = {host_any_object(d), host_any_int(400)};
  EXPECT_EQ_INT(kernel_int("dict_lookup_all", look, 2), 199 * 200 / 2);
  TVMFFIAny fill[3] = {host_any_object(d), host_any_int(200), host_any_int(200)};
  EXPECT_EQ_INT(kernel_int("dict_fill", fill, 3), 400); /* kernel rehashes our storage */
  EXPECT_EQ_INT(our_get("ffi.DictGetItem", d, "d399"), 399);
  EXPECT_EQ_INT(our_get("ffi.DictGetItem", d, "d7"), 7);
  EXPECT_EQ_INT(kernel_int("dict_lookup_all", look, 2), 399 * 400 / 2);
  TVMFFIObjectDecRef(d);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s <runtime.so> <ref_container_kernel.so>\n", argv[0]);
    return 100;
  }
  void* probe = NULL;
  TVMFFIByteArray probe_name = host_ba("ffi.Dict");
  if (TVMFFIFunctionGetGlobal(&probe_name, &probe) != 0 || probe == NULL) {
    fprintf(stderr, "ffi.Dict is not registered in the runtime under test\n");
    return 102;
  }
  TVMFFIObjectDecRef(probe);
  g_lib = host_open_kernel(argv[2]);
  if (g_lib == NULL) return 101;
  RUN(test_our_map_with_one_entry);
  RUN(test_our_map_with_1000_entries);
  RUN(test_kernel_maps_read_by_us);
  RUN(test_kernel_grows_our_list);
  RUN(test_kernel_list_grown_by_us);
  RUN(test_kernel_fills_our_dict);
  RUN(test_our_dense_dict_in_kernel);
  return host_failed_tests;
}
