// test_containers.cc -- container/array.h, list.h, map.h, dict.h, tuple.h, variant.h: value
// semantics (copy-on-write vs shared mutation), typed element checks, conversions, layouts.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/container/variant.h>

#include <map>
#include <vector>

#include "check.h"

namespace ffi = tvm::ffi;

void test_array_copy_on_write() {
  ffi::Array<int64_t> a{1, 2, 3};
  ffi::Array<int64_t> b = a;
  b.push_back(4);
  CHECK_EQ(a.size(), 3u);  // the shared array was copied, not changed
  CHECK_EQ(b.size(), 4u);
  CHECK_EQ(b.back(), 4);
  b.Set(0, 10);
  CHECK_EQ(b[0], 10);
  CHECK_EQ(a[0], 1);
  int64_t sum = 0;
  for (int64_t v : b) sum += v;
  CHECK_EQ(sum, 19);
  CHECK_THROWS(a.at(3), "IndexError", "out of bounds");
  // Inline layout: {data, size, capacity, data_deleter} at +24, elements at +56.
  const char* obj = reinterpret_cast<const char*>(a.get());
  CHECK_EQ(*reinterpret_cast<void* const*>(obj + 24), obj + 56);
  CHECK_EQ(*reinterpret_cast<const int64_t*>(obj + 32), 3);
  std::vector<ffi::String> words{"x", "yy"};
  ffi::Array<ffi::String> from_vector(words);
  CHECK(from_vector[1] == "yy");
  ffi::Array<int64_t> doubled = a.Map([](int64_t v) { return v * 2; });
  CHECK_EQ(doubled[2], 6);
}

void test_array_element_checks() {
  ffi::Array<ffi::Any> mixed{ffi::Any(1), ffi::Any(2.5), ffi::Any("s")};
  ffi::Any as_any = mixed;
  CHECK_THROWS(as_any.cast<ffi::Array<int64_t>>(), "TypeError", "Array[index 1: float]");
  ffi::Array<ffi::Any> ints{ffi::Any(1), ffi::Any(true)};
  ffi::Array<double> floats = ffi::Any(ints).cast<ffi::Array<double>>();  // converted copy
  CHECK_EQ(floats[0], 1.0);
  CHECK_EQ(floats[1], 1.0);
  ffi::Function total = ffi::Function::FromTyped(
      [](ffi::Array<int64_t> xs) {
        int64_t t = 0;
        for (int64_t x : xs) t += x;
        return t;
      },
      "total");
  CHECK_EQ(total(ffi::Array<int64_t>{1, 2}).cast<int64_t>(), 3);
  CHECK_THROWS(total(mixed), "TypeError",
               "Expected `Array<int>` but got `Array[index 1: float]`");
}

void test_list_mutates_in_place() {
  ffi::List<int64_t> a{1, 2};
  ffi::List<int64_t> b = a;
  for (int i = 0; i < 20; ++i) b.push_back(i);  // grows past the initial buffer
  CHECK_EQ(a.size(), 22u);                      // same object
  a.Set(0, 100);
  CHECK_EQ(b[0], 100);
  b.erase(b.begin());
  CHECK_EQ(a[0], 2);
  a.insert(a.begin(), 7);
  CHECK_EQ(b[0], 7);
  a.pop_back();
  CHECK_EQ(b.size(), 21u);
  ffi::Array<int64_t> frozen = ffi::Any(a).cast<ffi::Array<int64_t>>();  // List -> Array copies
  a.clear();
  CHECK_EQ(frozen.size(), 21u);
  CHECK(b.empty());
}

// A Map held only here takes new items (and loses removed ones) in place (one runtime insert each, so building a large
// map is linear); one shared with another holder is copied once first, then grows in place.
void test_map_set_grows_a_map_held_once_in_place() {
  ffi::Map<int64_t, int64_t> m;
  const ffi::MapObj* object = m.get();
  for (int64_t i = 0; i < 20000; ++i) m.Set(i, 2 * i);
  CHECK(m.get() == object);
  CHECK_EQ(m.size(), 20000u);
  CHECK_EQ(m[19999], 39998);
  ffi::Map<int64_t, int64_t> snapshot = m;
  m.Set(5, -5);  // copy-on-write: the snapshot keeps 10
  CHECK(m.get() != object && snapshot.get() == object);
  CHECK_EQ(snapshot[5], 10);
  CHECK_EQ(m[5], -5);
  const ffi::MapObj* copy = m.get();
  m.Set(20000, 1);
  for (int64_t i = 0; i < 10000; ++i) m.erase(i);  // removals are in place too
  CHECK(m.get() == copy);
  CHECK_EQ(m.size(), 10001u);
  CHECK_EQ(m.count(9999), 0u);
  CHECK_EQ(snapshot.size(), 20000u);
  // The runtime refuses to change a Map someone else also holds.
  ffi::Function in_place = ffi::Function::GetGlobalRequired("ffi._MapSetItemInPlace");
  ffi::Map<int64_t, int64_t> alias = snapshot;
  CHECK_THROWS(in_place(snapshot, 1, 1), "ValueError", "the Map is shared (2 references)");
  CHECK_EQ(alias[1], 2);
}

void test_list_from_the_runtime_grows_in_place() {
  ffi::Function make = ffi::Function::GetGlobalRequired("ffi.List");
  ffi::List<ffi::Any> runtime_list = make(1, "two", 3.0).cast<ffi::List<ffi::Any>>();
  for (int i = 0; i < 40; ++i) runtime_list.push_back(i);
  CHECK_EQ(runtime_list.size(), 43u);
  ffi::Function size = ffi::Function::GetGlobalRequired("ffi.ListSize");
  CHECK_EQ(size(runtime_list).cast<int64_t>(), 43);  // the runtime sees the growth
  CHECK(runtime_list[1].cast<ffi::String>() == "two");
}

void test_map_copy_on_write() {
  ffi::Map<ffi::String, int64_t> m{{"a", 1}, {"a longer key than seven", 2}};
  ffi::Map<ffi::String, int64_t> other = m;
  other.Set("c", 3);
  CHECK_EQ(m.size(), 2u);
  CHECK_EQ(other.size(), 3u);
  CHECK_EQ(other["c"], 3);
  CHECK_EQ(m.count("c"), 0u);
  CHECK(!m.Get("zz").has_value());
  CHECK_THROWS(m.at("zz"), "KeyError", "not in Map");
  other.erase("a");
  CHECK_EQ(other.size(), 2u);
  CHECK_EQ(m["a"], 1);
  int64_t total = 0;
  for (auto kv : other) total += kv.second;
  CHECK_EQ(total, 5);
  std::map<std::string, int64_t> std_map{{"x", 1}, {"y", 2}};
  ffi::Map<ffi::String, int64_t> converted(std_map);
  CHECK_EQ(converted["y"], 2);
  ffi::Any any = converted;
  CHECK_THROWS((any.cast<ffi::Map<ffi::String, ffi::String>>()), "TypeError", "Map<str, str>");
}

void test_large_maps_iterate_in_insertion_order() {
  // More than four keys: the runtime builds the dense layout, read here without its help.
  ffi::Dict<ffi::String, int64_t> d;
  for (int64_t i = 0; i < 40; ++i) d.Set("key" + std::to_string(i), i);
  for (int64_t i = 0; i < 40; i += 3) d.erase("key" + std::to_string(i));
  int64_t expected = 0, seen = 0;
  for (auto kv : d) {
    if (expected % 3 == 0) ++expected;
    CHECK(kv.first == "key" + std::to_string(expected));
    CHECK_EQ(kv.second, expected);
    ++expected;
    ++seen;
  }
  CHECK_EQ(seen, static_cast<int64_t>(d.size()));
  ffi::Map<ffi::String, int64_t> frozen = ffi::Any(d).cast<ffi::Map<ffi::String, int64_t>>();
  CHECK_EQ(frozen.size(), d.size());
  CHECK_EQ(frozen["key37"], 37);
  CHECK(frozen.find("key38") != frozen.end());
  CHECK(frozen.find("key39") == frozen.end());
  CHECK_THROWS((ffi::Any(d).cast<ffi::Map<ffi::String, ffi::String>>()), "TypeError",
               "Map[K, some value is int]");
}

// Lookups probe the runtime's table in place: every key the runtime finds (ints, bools, floats,
// short and long strings, objects by identity) is found here, at the same value, through a large
// map's chains after erasures; absent keys give end(); iterators walk both ways.
void test_lookups_agree_with_the_runtime() {
  ffi::Array<ffi::Any> objects{ffi::Array<int64_t>{1}, ffi::Array<int64_t>{1}};
  ffi::Map<ffi::Any, int64_t> m;
  std::vector<ffi::Any> keys;
  for (int64_t i = 0; i < 150; ++i) {
    keys.push_back(i);
    keys.push_back(ffi::String(i % 2 ? "k" + std::to_string(i) : "a longer key number " + std::to_string(i)));
  }
  keys.push_back(true);
  keys.push_back(2.5);
  keys.push_back(objects[0]);
  keys.push_back(objects[1]);  // equal content, another object: a key of its own
  for (size_t i = 0; i < keys.size(); ++i) m.Set(keys[i], static_cast<int64_t>(i));
  for (size_t i = 0; i < keys.size(); i += 4) m.erase(keys[i]);
  ffi::Function runtime_count = ffi::Function::GetGlobalRequired("ffi.MapCount");
  for (size_t i = 0; i < keys.size(); ++i) {
    bool present = i % 4 != 0;
    CHECK_EQ(runtime_count(m, keys[i]).cast<int64_t>(), present ? 1 : 0);
    CHECK_EQ(m.count(keys[i]), present ? 1u : 0u);
    CHECK(present ? m.find(keys[i]) != m.end() : m.find(keys[i]) == m.end());
    if (present) CHECK_EQ(m.at(keys[i]), static_cast<int64_t>(i));
  }
  CHECK_EQ(m.count(ffi::Any(int64_t{1})), 1u);  // 1 and true are distinct keys
  CHECK_EQ(m.count(ffi::Any(false)), 0u);
  CHECK_EQ(m.count(ffi::Array<int64_t>{1}), 0u);  // objects compare by identity
  CHECK_EQ(m.count(ffi::String("never inserted")), 0u);
  std::vector<int64_t> forward, backward;
  for (auto it = m.begin(); it != m.end(); ++it) forward.push_back((*it).second);
  for (auto it = m.end(); it != m.begin();) backward.push_back((*--it).second);
  CHECK_EQ(forward.size(), m.size());
  CHECK(std::vector<int64_t>(backward.rbegin(), backward.rend()) == forward);
  ffi::Map<ffi::String, int64_t> empty;
  CHECK(empty.begin() == empty.end() && empty.find("x") == empty.end());
}

void test_dict_shared_mutation() {
  ffi::Dict<ffi::String, ffi::Any> d;
  ffi::Dict<ffi::String, ffi::Any> alias = d;
  d.Set("x", 1);
  d.Set("y", ffi::String("why"));
  CHECK_EQ(alias.size(), 2u);
  CHECK(alias["y"].cast<ffi::String>() == "why");
  alias.erase("x");
  CHECK_EQ(d.count("x"), 0u);
  ffi::Map<ffi::String, ffi::Any> snapshot = ffi::Any(d).cast<ffi::Map<ffi::String, ffi::Any>>();
  d.clear();
  CHECK_EQ(snapshot.size(), 1u);
  CHECK(d.empty());
}

void test_tuple_and_variant() {
  ffi::Tuple<int64_t, ffi::String> t(1, "one");
  CHECK_EQ(t.get<0>(), 1);
  CHECK(t.get<1>() == "one");
  ffi::Any as_any = t;
  CHECK_EQ(as_any.type_index(), ffi::TypeIndex::kTVMFFIArray);
  auto back = as_any.cast<ffi::Tuple<double, ffi::String>>();  // int converts to double
  CHECK_EQ(back.get<0>(), 1.0);
  CHECK_THROWS((as_any.cast<ffi::Tuple<ffi::String, ffi::String>>()), "TypeError",
               "Tuple<str, str>");
  ffi::Variant<int64_t, ffi::String> v = ffi::String("text");
  CHECK(v.get<ffi::String>() == "text");
  CHECK_THROWS(v.get<int64_t>(), "TypeError", "Cannot convert");
  ffi::Function kind = ffi::Function::FromTyped(
      [](ffi::Variant<int64_t, ffi::String> x) { return x.as<int64_t>().has_value() ? 1 : 2; }, "kind");
  CHECK_EQ(kind(5).cast<int>(), 1);
  CHECK_EQ(kind("s").cast<int>(), 2);
  CHECK_THROWS(kind(1.5), "TypeError", "Expected `Variant<int, str>` but got `float`");
}

// Tuples upcast without copying, move items out when about to go away, and describe themselves
// as "Tuple" (Python reads the schema as `tuple[...]`).
void test_tuple_upcast_move_and_schema() {
  ffi::Tuple<int64_t, ffi::String> t(1, "one");
  ffi::Tuple<ffi::Any, ffi::Any> wide = t;
  CHECK(wide.same_as(t));
  CHECK_EQ(wide.get<0>().cast<int64_t>(), 1);
  wide = ffi::Tuple<int64_t, ffi::String>(2, "two");
  CHECK_EQ(wide.get<0>().cast<int64_t>(), 2);

  auto pair = ffi::Tuple<ffi::Array<int64_t>, int64_t>(ffi::Array<int64_t>{7}, 3);
  ffi::Array<int64_t> kept = ffi::get<0>(pair);  // copy: the tuple keeps its item
  CHECK_EQ(kept.use_count(), 2);
  kept = ffi::Array<int64_t>();
  auto [items, n] = std::move(pair);  // the sole owner: the array is moved out, not shared
  CHECK_EQ(items.use_count(), 1);
  CHECK_EQ(n, 3);

  auto shared = ffi::Tuple<ffi::Array<int64_t>>(ffi::Array<int64_t>{1});
  auto other = shared;
  ffi::Array<int64_t> taken = ffi::get<0>(std::move(other));  // shared: copied
  CHECK(shared.get<0>().defined());
  CHECK_EQ(taken.use_count(), 2);

  CHECK_EQ((ffi::TypeTraits<ffi::Tuple<int64_t, ffi::String>>::TypeSchema()),
           std::string(R"({"type":"Tuple","args":[{"type":"int"},{"type":"ffi.String"}]})"));
}

// Type-level helpers of the reference headers.
static_assert(ffi::TypeToFieldStaticTypeIndex<int64_t>::value == ffi::TypeIndex::kTVMFFIInt);
static_assert(ffi::TypeToFieldStaticTypeIndex<ffi::Array<int64_t>>::value ==
              ffi::TypeIndex::kTVMFFIArray);
static_assert(ffi::TypeToFieldStaticTypeIndex<ffi::Tuple<int64_t>>::value ==
              ffi::TypeIndex::kTVMFFIObject);
static_assert(ffi::TypeToFieldStaticTypeIndex<std::vector<int>*>::value == ffi::TypeIndex::kTVMFFIAny);
static_assert(ffi::object_ref_contains_v<ffi::Array<ffi::Any>, ffi::ArrayObj> == false);
static_assert(ffi::object_ref_contains_v<ffi::ObjectRef, ffi::ArrayObj>);

int main() {
  RUN(test_tuple_upcast_move_and_schema);
  RUN(test_array_copy_on_write);
  RUN(test_array_element_checks);
  RUN(test_list_mutates_in_place);
  RUN(test_map_set_grows_a_map_held_once_in_place);
  RUN(test_list_from_the_runtime_grows_in_place);
  RUN(test_map_copy_on_write);
  RUN(test_large_maps_iterate_in_insertion_order);
  RUN(test_lookups_agree_with_the_runtime);
  RUN(test_dict_shared_mutation);
  RUN(test_tuple_and_variant);
  return CHECK_MAIN_RESULT();
}
