// test_containers_api.cc -- the std::vector-like and reference-compatible container API:
// capacity, range insert/erase, MutateByApply and Map's storage reuse, covariant handles
// (Array<Any> from Array<int>), the in-place edits of ListObj, Dict::find, and Shape from
// an Array.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>

#include <sstream>
#include <type_traits>
#include <vector>

#include "check.h"

namespace ffi = tvm::ffi;

void test_array_capacity_and_ranges() {
  ffi::Array<int64_t> a;
  CHECK(a.capacity() >= a.size());
  a.reserve(10);
  CHECK(a.capacity() >= 10u);
  a.resize(3);  // pads with None; overwrite before reading as int
  for (int64_t i = 0; i < 3; ++i) a.Set(i, i);
  ffi::Array<int64_t> tail{7, 8, 9};
  a.insert(a.begin() + 1, tail.begin(), tail.end());  // {0, 7, 8, 9, 1, 2}
  CHECK_EQ(a.size(), 6u);
  CHECK_EQ(a[1], 7);
  CHECK_EQ(a[4], 1);
  a.erase(a.begin() + 1, a.begin() + 4);  // back to {0, 1, 2}
  CHECK_EQ(a.size(), 3u);
  CHECK_EQ(a[1], 1);
  a.erase(a.begin(), a.begin());  // an empty range is a no-op
  CHECK_EQ(a.size(), 3u);
  std::vector<int64_t> reversed(a.rbegin(), a.rend());
  CHECK_EQ(reversed[0], 2);
  CHECK_EQ(reversed[2], 0);
  // Inserting an array's own range into it works: the range is read before the array changes.
  a.insert(a.end(), a.begin(), a.end());
  CHECK_EQ(a.size(), 6u);
  CHECK_EQ(a[5], 2);
  ffi::Array<int64_t> shared = a;
  a.erase(a.begin() + 3, a.end());  // copy-on-write: `shared` keeps all six
  CHECK_EQ(shared.size(), 6u);
  CHECK_EQ(a.size(), 3u);
  CHECK_THROWS(ffi::Array<int64_t>().pop_back(), "IndexError", "empty");
  CHECK_THROWS(a[-1], "IndexError", "out of bounds");
  CHECK_THROWS(a.resize(-1), "ValueError", "negative");
  ffi::Array<int64_t> joined = ffi::Concat(a, ffi::Array<int64_t>{5});
  CHECK_EQ(joined.size(), 4u);
  CHECK_EQ(a.size(), 3u);
  ffi::Array<int64_t> agg = ffi::Array<int64_t>::Agregate(int64_t{1}, a, int64_t{9});
  CHECK_EQ(agg.size(), 5u);
  CHECK_EQ(agg[4], 9);
}

// Elements are read as `const T` values, as with the reference headers, so `auto&` binds an
// element of object type (Array, List, Map and Dict alike).
void test_element_reads_bind_to_auto_references() {
  ffi::Array<ffi::String> words{"a", "bc"};
  auto& first = words[0];
  static_assert(std::is_same_v<decltype(first), const ffi::String&>);
  size_t total = first.size();
  for (auto& w : words) total += w.size();
  ffi::List<ffi::String> more{"def"};
  for (auto& w : more) total += w.size();
  ffi::Map<ffi::String, ffi::String> names{{"x", "yz"}};
  for (auto& [key, value] : names) total += key.size() + value.size();
  auto& x = names.at("x");
  ffi::Dict<ffi::String, ffi::String> dict{{"k", "uvw"}};
  auto& v = dict["k"];
  CHECK_EQ(total + x.size() + v.size(), 15u);
  ffi::Map<ffi::String, int64_t>::iterator unset;  // default-constructible, as std iterators
  (void)unset;
}

void test_array_mutate_by_apply() {
  ffi::Array<ffi::String> words{"a", "b"};
  const ffi::ArrayObj* before = words.get();
  words.MutateByApply([](ffi::String s) { return ffi::String(std::string(s) + "!"); });
  CHECK(words.get() == before);  // sole holder: updated in place
  CHECK(words[1] == "b!");
  ffi::Array<ffi::String> other = words;
  words.MutateByApply([](ffi::String s) { return s; });
  CHECK(words.same_as(other));  // every element mapped to itself: still shared, no copy
  words.MutateByApply([](ffi::String s) { return ffi::String(std::string(s) + "?"); });
  CHECK(!words.same_as(other));  // shared: copied first
  CHECK(other[0] == "a!");
  CHECK(words[0] == "a!?");
  // Map keeps the array when nothing changed, and makes a new one otherwise.
  ffi::Array<ffi::String> same = other.Map([](ffi::String s) { return s; });
  CHECK(same.same_as(other));
  ffi::Array<int64_t> lengths = other.Map([](ffi::String s) { return int64_t(s.size()); });
  CHECK_EQ(lengths[0], 2);
}

void test_covariant_handles() {
  ffi::Array<int64_t> ints{1, 2};
  ffi::Array<ffi::Any> anys = ints;  // shares the object: every int is a valid Any
  CHECK(anys.same_as(ints));
  CHECK_EQ(anys[1].cast<int64_t>(), 2);
  ffi::List<int64_t> list{1, 2};
  ffi::List<ffi::Any> list_any;
  list_any = list;  // the same list, seen through a wider element type
  list_any.push_back(3);
  CHECK_EQ(list.size(), 3u);
  ffi::Map<ffi::String, int64_t> m{{"k", 1}};
  ffi::Map<ffi::Any, ffi::Any> m_any = m;
  CHECK(m_any.same_as(m));
  ffi::Dict<ffi::String, int64_t> d{{"k", 1}};
  ffi::Dict<ffi::Any, ffi::Any> d_any = d;
  d_any.Set(ffi::String("j"), 2);
  CHECK_EQ(d.size(), 2u);
  static_assert(ffi::type_subsumes_v<ffi::Array<ffi::Any>, ffi::Array<int64_t>>);
  static_assert(!ffi::type_subsumes_v<ffi::Array<int64_t>, ffi::Array<ffi::Any>>);
  static_assert(!ffi::Array<int64_t>::_type_container_is_exact);
}

void test_list_capacity_and_obj_edits() {
  ffi::List<int64_t> list{10, 20, 30};
  ffi::ListObj* obj = list.GetListObj();
  list.reserve(16);
  CHECK(list.capacity() >= 16u);
  CHECK(list.GetListObj() == obj);  // a list grows its buffer, never its object
  obj->insert(1, ffi::Any(15));     // {10, 15, 20, 30}
  obj->erase(int64_t{2}, int64_t{4});  // {10, 15}
  CHECK_EQ(list.size(), 2u);
  CHECK_EQ(list[1], 15);
  obj->resize(3);
  CHECK(obj->back() == nullptr);  // padded with None
  obj->pop_back();
  obj->Reverse();
  CHECK_EQ(list[0], 15);
  CHECK_THROWS(obj->erase(5), "IndexError", "out of bounds");
  CHECK_THROWS(obj->insert(-1, ffi::Any(0)), "IndexError", "out of bounds");
  CHECK_THROWS(obj->resize(-1), "ValueError", "negative");
  ffi::List<int64_t> more{1, 2, 3, 4, 5};
  more.erase(more.begin() + 1, more.begin() + 4);  // {1, 5}
  more.insert(more.end(), list.begin(), list.end());  // {1, 5, 15, 10}
  CHECK_EQ(more.size(), 4u);
  CHECK_EQ(more[3], 10);
  ffi::List<ffi::String> repeated(3, ffi::String("x"));
  CHECK(repeated[2] == "x");
  // An ArrayObj cannot grow in place: its in-object edits stop at the capacity.
  ffi::Array<int64_t> arr{1};
  ffi::ArrayObj* arr_obj = arr.CopyOnWrite();
  while (arr_obj->size() < arr_obj->capacity()) arr_obj->insert(0, ffi::Any(0));
  CHECK_THROWS(arr_obj->insert(0, ffi::Any(0)), "ValueError", "capacity");
}

void test_dict_find_and_get() {
  ffi::Dict<ffi::String, int64_t> d{{"x", 42}};
  auto it = d.find("x");
  CHECK(it != d.end());
  CHECK_EQ((*it).second, 42);
  CHECK(d.find("y") == d.end());
  std::optional<int64_t> got = d.Get("x");
  CHECK(got.has_value() && *got == 42);
  CHECK(!d.Get("y").has_value());
  ffi::Map<ffi::String, int64_t> a{{"k", 1}, {"j", 2}};
  ffi::Map<ffi::String, int64_t> merged = ffi::Merge(a, ffi::Map<ffi::String, int64_t>{{"k", 5}});
  CHECK_EQ(merged["k"], 5);
  CHECK_EQ(a["k"], 1);
}

void test_shape_from_array() {
  ffi::Shape s = ffi::Array<int64_t>{4, 5, 6};
  CHECK_EQ(s.size(), 3u);
  CHECK_EQ(s.Product(), 120);
  ffi::Shape from_vector = std::vector<int64_t>{2, 3};
  CHECK_EQ(from_vector[1], 3);
  ffi::Shape strides = ffi::Shape::StridesFromShape(s);
  CHECK_EQ(strides[0], 30);
  CHECK_EQ(strides[2], 1);
  std::ostringstream os;
  os << s;
  CHECK(os.str() == "[4, 5, 6]");
  // An Array or List of integers converts to a Shape; a Shape does not convert to an Array.
  ffi::Any arr = ffi::Array<ffi::Any>{1, 2};
  CHECK_EQ(arr.cast<ffi::Shape>()[1], 2);
  CHECK_EQ(ffi::Any(ffi::List<int64_t>{7}).cast<ffi::Shape>()[0], 7);
  CHECK_THROWS(ffi::Any(s).cast<ffi::Array<int64_t>>(), "TypeError", "ffi.Shape");
  CHECK_THROWS(ffi::Any(ffi::Array<ffi::Any>{1.5}).cast<ffi::Shape>(), "TypeError", "ffi.Shape");
}

int main() {
  RUN(test_array_capacity_and_ranges);
  RUN(test_element_reads_bind_to_auto_references);
  RUN(test_array_mutate_by_apply);
  RUN(test_covariant_handles);
  RUN(test_list_capacity_and_obj_edits);
  RUN(test_dict_find_and_get);
  RUN(test_shape_from_array);
  return CHECK_MAIN_RESULT();
}
