/*
 * test_json_graph_fuzz.c -- a deterministic mutation fuzzer for the JSON graph loader
 * (ffi.FromJSONGraphString / ffi.json.Parse), which reads untrusted documents. Seed documents
 * (valid graphs, including ones of object types from the structural_types_lib plugin) are
 * mutated by byte flips, insertions of JSON-significant tokens, deletions, duplications and
 * splices; every mutant is loaded, and each load must either succeed or raise an error -- never
 * crash, hang, leak or trip the sanitizers. Iterations: TVM_FFI_FUZZ_ITERATIONS (default 100000).
 * Loaded values are written back and reloaded to exercise the writer too.
 *
 * Every load is also differential: FromJSONGraphString takes well-formed documents apart itself
 * and hands anything else to the generic parser (json_graph_scan.c), so on every input it must
 * agree with reading the generic parse, ffi.FromJSONGraph(ffi.json.Parse(text)) -- the same
 * error kind and message, or values that write the same document.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "structural_helpers.h"

static const char* const kSeeds[] = {
    "{\"root_index\":3,\"nodes\":[{\"type\":\"int\",\"data\":1},{\"type\":\"int\",\"data\":2},"
    "{\"type\":\"int\",\"data\":3},{\"type\":\"ffi.Array\",\"data\":[0,1,2]}]}",
    "{\"root_index\":6,\"nodes\":[{\"type\":\"ffi.String\",\"data\":\"k\"},{\"type\":\"int\",\"data\":1},"
    "{\"type\":\"ffi.String\",\"data\":\"z\"},{\"type\":\"None\"},{\"type\":\"ffi.Map\",\"data\":[2,3]},"
    "{\"type\":\"ffi.Array\",\"data\":[1,4]},{\"type\":\"ffi.Dict\",\"data\":[0,5]}]}",
    "{\"root_index\":5,\"nodes\":[{\"type\":\"float\",\"data\":1.0000000000000001e+300},"
    "{\"type\":\"ffi.Bytes\",\"data\":\"AAECaGVsbG8=\"},{\"type\":\"DataType\",\"data\":\"float32\"},"
    "{\"type\":\"Device\",\"data\":[2,1]},{\"type\":\"ffi.Shape\",\"data\":[2,3]},"
    "{\"type\":\"ffi.List\",\"data\":[0,1,2,3,4,6,7]},{\"type\":\"ffi.BigInt\",\"data\":\"-1180591620717411303424\"},"
    "{\"type\":\"bool\",\"data\":true}],\"metadata\":{\"v\":[1,\"\\u00e9\\ud83d\\ude00\"]}}",
    "{\"root_index\":4,\"nodes\":[{\"type\":\"None\"},{\"type\":\"ffi.reflection.AccessPath\",\"data\":"
    "{\"parent\":0,\"step\":0,\"depth\":0}},{\"type\":\"ffi.String\",\"data\":\"a\"},"
    "{\"type\":\"ffi.reflection.AccessStep\",\"data\":{\"kind\":0,\"key\":2}},"
    "{\"type\":\"ffi.reflection.AccessPath\",\"data\":{\"parent\":1,\"step\":3,\"depth\":1}}]}",
    "{\"root_index\":3,\"nodes\":[{\"type\":\"st.Int\",\"data\":{\"value\":5}},{\"type\":\"ffi.String\","
    "\"data\":\"x\"},{\"type\":\"st.Node\",\"data\":{\"val\":0,\"next\":1}},"
    "{\"type\":\"ffi.Array\",\"data\":[0,0,2]}]}",
    " { \"nodes\" : [ { \"data\" : 7 , \"type\" : \"int\" , \"x\" : [ {} ] } ] , \"root_index\" : 0 } ",
    "{\"root_index\":1,\"nodes\":[{\"type\":\"ffi.Dict\",\"data\":[1,1],\"data\":[]},"
    "{\"type\":\"int\",\"type\":\"ffi.String\",\"data\":\"\\u0069\"}],\"root_index\":0}",
};

static const char* const kTokens[] = {
    "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud83d", "0", "-1", "99999999999999999999",
    "1e999", "NaN", "-Infinity", "null", "true", "\"type\"", "\"data\"", "\"root_index\"", "\"nodes\"",
    "\"ffi.Array\"", "\"ffi.Map\"", "\"st.Node\"", "\"int\"", "\"Device\"", "\"ffi.Bytes\"", "\x01",
    "\xff", "[[[[[[[[", "]]]]", "{\"type\":\"ffi.Array\",\"data\":[0]}",
};

static uint64_t g_rng = 0x9E3779B97F4A7C15ULL;

static uint64_t next_random(void) { /* xorshift64* */
  g_rng ^= g_rng >> 12;
  g_rng ^= g_rng << 25;
  g_rng ^= g_rng >> 27;
  return g_rng * 0x2545F4914F6CDD1DULL;
}

static size_t pick(size_t n) { return n == 0 ? 0 : (size_t)(next_random() % n); }

/* Applies 1-4 random mutations to buf (length *len, capacity cap). */
static void mutate(char* buf, size_t* len, size_t cap) {
  int rounds = 1 + (int)pick(4);
  for (int k = 0; k < rounds; ++k) {
    size_t at = pick(*len + 1);
    switch (pick(6)) {
      case 0: /* flip a byte */
        if (*len > 0) buf[pick(*len)] ^= (char)(1 << pick(8));
        break;
      case 1: { /* insert a token */
        const char* t = kTokens[pick(sizeof(kTokens) / sizeof(kTokens[0]))];
        size_t n = strlen(t);
        if (*len + n < cap) {
          memmove(buf + at + n, buf + at, *len - at);
          memcpy(buf + at, t, n);
          *len += n;
        }
        break;
      }
      case 2: { /* delete a range */
        size_t n = pick(8) + 1;
        if (at + n <= *len) {
          memmove(buf + at, buf + at + n, *len - at - n);
          *len -= n;
        }
        break;
      }
      case 3: { /* duplicate a range */
        size_t from = pick(*len), n = pick(16) + 1;
        if (from + n <= *len && *len + n < cap) {
          memmove(buf + at + n, buf + at, *len - at);
          memmove(buf + at, buf + (from >= at ? from + n : from), n);
          *len += n;
        }
        break;
      }
      case 4: /* replace a digit */
        for (size_t i = at; i < *len; ++i) {
          if (buf[i] >= '0' && buf[i] <= '9') {
            buf[i] = (char)('0' + pick(10));
            break;
          }
        }
        break;
      default: /* truncate */
        *len = at;
        break;
    }
  }
}

static int64_t g_loaded = 0, g_rejected = 0, g_disagreements = 0;

/* The raised error as "kind: message" (malloc'ed; NULL when none was raised), the slot emptied. */
static char* take_error(void) {
  void* err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) return NULL;
  const TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
  size_t size = cell->kind.size + 2 + cell->message.size + 1;
  char* text = (char*)malloc(size);
  snprintf(text, size, "%.*s: %.*s", (int)cell->kind.size, cell->kind.data, (int)cell->message.size,
           cell->message.data);
  TVMFFIObjectDecRef(err);
  return text;
}

/* ffi.FromJSONGraph(ffi.json.Parse(text)). */
static int load_generic(TVMFFIAny* text, TVMFFIAny* out) {
  TVMFFIAny doc;
  if (call_global("ffi.json.Parse", text, 1, &doc) != 0) return -1;
  int rc = call_global("ffi.FromJSONGraph", &doc, 1, out);
  release(&doc);
  return rc;
}

/* The document `value` writes (malloc'ed), or its error. */
static char* written(const TVMFFIAny* value, TVMFFIAny* doc) {
  TVMFFIAny args[2] = {*value, {0}};
  if (call_global("ffi.ToJSONGraphString", args, 2, doc) != 0) return take_error();
  TVMFFIByteArray text = text_of(doc);
  char* copy = (char*)malloc(text.size + 1);
  memcpy(copy, text.data, text.size);
  copy[text.size] = '\0';
  return copy;
}

static void report_disagreement(const char* data, size_t len, const char* a, const char* b) {
  if (g_disagreements++ < 3) {
    fprintf(stderr, "text and generic readers disagree on %.*s:\n  %s\n  %s\n", (int)len, data, a, b);
  }
}

static void load_one(const char* data, size_t len) {
  TVMFFIByteArray bytes = {data, len};
  TVMFFIAny arg, value, generic;
  CHECK(TVMFFIStringFromByteArray(&bytes, &arg) == 0);
  int rc = call_global("ffi.FromJSONGraphString", &arg, 1, &value);
  char* error = rc != 0 ? take_error() : NULL;
  int generic_rc = load_generic(&arg, &generic);
  char* generic_error = generic_rc != 0 ? take_error() : NULL;
  release(&arg);
  if (rc != 0) {
    CHECK(error != NULL);
    if (generic_rc == 0 || error == NULL || generic_error == NULL || strcmp(error, generic_error) != 0) {
      report_disagreement(data, len, error ? error : "(no error)", generic_error ? generic_error : "loaded");
    }
    if (generic_rc == 0) release(&generic);
    free(error);
    free(generic_error);
    g_rejected += 1;
    return;
  }
  g_loaded += 1;
  /* What loads must write back and load again, and write what the generic reading writes. */
  TVMFFIAny doc = {0}, generic_doc = {0}, again;
  char* text = written(&value, &doc);
  char* generic_text = generic_rc == 0 ? written(&generic, &generic_doc) : NULL;
  if (generic_rc != 0 || text == NULL || generic_text == NULL || strcmp(text, generic_text) != 0) {
    report_disagreement(data, len, text ? text : "?", generic_rc != 0 ? generic_error : generic_text);
  }
  if (doc.type_index != kTVMFFINone) { /* else e.g. a loaded Dict/List cycle cannot be written */
    CHECK(call_global("ffi.FromJSONGraphString", &doc, 1, &again) == 0);
    check_no_error_pending();
    release(&again);
  }
  release(&doc);
  release(&generic_doc);
  free(text);
  free(generic_text);
  free(generic_error);
  release(&value);
  if (generic_rc == 0) release(&generic);
}

static void test_mutated_documents_never_crash(void) {
  const char* env = getenv("TVM_FFI_FUZZ_ITERATIONS");
  long iterations = env != NULL ? strtol(env, NULL, 10) : 100000;
  enum { kCap = 4096 };
  char* buf = (char*)malloc(kCap);
  int64_t before = live_objects();
  size_t num_seeds = sizeof(kSeeds) / sizeof(kSeeds[0]);
  for (size_t i = 0; i < num_seeds; ++i) load_one(kSeeds[i], strlen(kSeeds[i]));
  CHECK_EQ_INT(g_loaded, (int64_t)num_seeds);
  for (long it = 0; it < iterations; ++it) {
    const char* seed = kSeeds[pick(num_seeds)];
    size_t len = strlen(seed);
    memcpy(buf, seed, len);
    mutate(buf, &len, kCap);
    load_one(buf, len);
  }
  CHECK_EQ_INT(live_objects(), before);
  CHECK_EQ_INT(g_disagreements, 0);
  printf("fuzz: %ld mutants, %lld loaded, %lld rejected with an error\n", iterations,
         (long long)g_loaded, (long long)g_rejected);
  CHECK(g_loaded > (int64_t)num_seeds && g_rejected > 0);
  free(buf);
}

/* Pathological but well-formed inputs: deep nesting, long chains of node references. */
static void test_pathological_documents(void) {
  enum { kDepth = 200000 };
  char* deep = (char*)malloc(kDepth * 2 + 64);
  size_t n = 0;
  for (int i = 0; i < kDepth; ++i) deep[n++] = '[';
  for (int i = 0; i < kDepth; ++i) deep[n++] = ']';
  deep[n] = '\0';
  TVMFFIAny arg = any_str(deep), r;
  CHECK(call_global("ffi.json.Parse", &arg, 1, &r) == 0);
  release(&r);
  CHECK(call_global("ffi.FromJSONGraphString", &arg, 1, &r) != 0);
  CHECK_RAISED("ValueError", "expected an object");
  free(deep);
  /* A chain of 100000 Arrays, each node referring to the next one. */
  enum { kChain = 100000 };
  size_t cap = (size_t)kChain * 48 + 128;
  char* chain = (char*)malloc(cap);
  size_t len = (size_t)snprintf(chain, cap, "{\"root_index\":0,\"nodes\":[");
  for (int i = 0; i < kChain; ++i) {
    len += (size_t)snprintf(chain + len, cap - len, "{\"type\":\"ffi.Array\",\"data\":[%d]},", i + 1);
  }
  len += (size_t)snprintf(chain + len, cap - len, "{\"type\":\"int\",\"data\":7}]}");
  arg = any_str(chain);
  CHECK(call_global("ffi.FromJSONGraphString", &arg, 1, &r) == 0);
  CHECK(r.type_index == kTVMFFIArray);
  release(&r);
  free(chain);
}

int main(int argc, char** argv) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/structural_types_lib.so", argc > 1 ? argv[1] : ".");
  if (dlopen(path, RTLD_NOW | RTLD_GLOBAL) == NULL) {
    fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
    return 1;
  }
  RUN(test_pathological_documents);
  RUN(test_mutated_documents_never_crash);
  return CHECK_MAIN_RESULT();
}
