// ref_container_kernel.cc -- a kernel written with the REFERENCE header-only C++ containers,
// built against the reference headers. The C++ Map/Dict/List code it instantiates reads and
// mutates container objects inline (hashing, probing, small->dense switch, List growth through
// the data_deleter it finds), so running it on objects made by another runtime checks that
// those objects are bit-compatible.
//
// Exports (keys are "k<i>" / "d<i>" strings, values int64):
//   map_lookup_all(m: Map<String,int64>, n) -> int64   sum of m["k<i>"] for i < n, after
//                                                       checking iteration visits n entries
//   map_with(m: Map<String,int64>, key, v) -> Map      copy-on-write Set, returns the new map
//   make_map(n) -> Map<String,int64>                    {"k<i>": i}
//   list_push(l: List<int64>, n) -> int64               push_back 0..n-1 in place, returns size
//   make_list(n) -> List<int64>                         [0, 1, ..., n-1]
//   dict_fill(d: Dict<String,int64>, start, n) -> int64 d["d<i>"] = i in place, returns size
//   dict_lookup_all(d: Dict<String,int64>, n) -> int64  sum of d["d<i>"] for i < n present
//   dict_erase(d: Dict<String,int64>, key) -> int64     erase in place, returns size
#include <tvm/ffi/tvm_ffi.h>

#include <cstdint>
#include <string>

namespace {

using tvm::ffi::Dict;
using tvm::ffi::List;
using tvm::ffi::Map;
using tvm::ffi::String;

String Key(const char* prefix, int64_t i) { return String(prefix + std::to_string(i)); }

int64_t MapLookupAll(Map<String, int64_t> m, int64_t n) {
  int64_t visited = 0;
  for (auto kv : m) {
    (void)kv;
    ++visited;
  }
  if (visited != n || static_cast<int64_t>(m.size()) != n) {
    TVM_FFI_THROW(ValueError) << "map_lookup_all: iterated " << visited << " entries, size "
                              << m.size() << ", expected " << n;
  }
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (m.count(Key("k", i)) != 1) TVM_FFI_THROW(KeyError) << "k" << i;
    sum += m.at(Key("k", i));
  }
  return sum;
}

Map<String, int64_t> MapWith(Map<String, int64_t> m, String key, int64_t v) {
  m.Set(key, v);
  return m;
}

Map<String, int64_t> MakeMap(int64_t n) {
  Map<String, int64_t> m;
  for (int64_t i = 0; i < n; ++i) m.Set(Key("k", i), i);
  return m;
}

int64_t ListPush(List<int64_t> l, int64_t n) {
  for (int64_t i = 0; i < n; ++i) l.push_back(i);
  return static_cast<int64_t>(l.size());
}

List<int64_t> MakeList(int64_t n) {
  List<int64_t> l;
  for (int64_t i = 0; i < n; ++i) l.push_back(i);
  return l;
}

int64_t DictFill(Dict<String, int64_t> d, int64_t start, int64_t n) {
  for (int64_t i = start; i < start + n; ++i) d.Set(Key("d", i), i);
  return static_cast<int64_t>(d.size());
}

int64_t DictLookupAll(Dict<String, int64_t> d, int64_t n) {
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (d.count(Key("d", i))) sum += d.at(Key("d", i));
  }
  return sum;
}

int64_t DictErase(Dict<String, int64_t> d, String key) {
  d.erase(key);
  return static_cast<int64_t>(d.size());
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(map_lookup_all, MapLookupAll);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(map_with, MapWith);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_map, MakeMap);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(list_push, ListPush);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_list, MakeList);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(dict_fill, DictFill);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(dict_lookup_all, DictLookupAll);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(dict_erase, DictErase);
