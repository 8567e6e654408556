// test_any_string.cc -- any.h / string.h / type_traits.h / optional.h: how C++ values are stored
// in a TVMFFIAny (small strings inline, owned objects), cast/try_cast/as rules, mismatch errors.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <cstring>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "check.h"

namespace ffi = tvm::ffi;

void test_strings_small_and_heap() {
  ffi::String small("abc");
  TVMFFIAny raw = small.raw();
  CHECK_EQ(raw.type_index, ffi::TypeIndex::kTVMFFISmallStr);
  CHECK_EQ(raw.small_str_len, 3u);
  CHECK_EQ(std::memcmp(raw.v_bytes, "abc\0\0\0\0\0", 8), 0);
  ffi::String big("a string longer than seven bytes");
  CHECK_EQ(big.raw().type_index, ffi::TypeIndex::kTVMFFIStr);
  CHECK_EQ(big.size(), 32u);
  CHECK_EQ(big.c_str()[big.size()], '\0');
  // Layout the runtime and other kernels read: {data, size} at +24, bytes at +40.
  const char* obj = reinterpret_cast<const char*>(big.raw().v_obj);
  CHECK_EQ(*reinterpret_cast<const char* const*>(obj + 24), obj + 40);
  CHECK_EQ(*reinterpret_cast<const size_t*>(obj + 32), 32u);
  ffi::String copy = big;
  CHECK_EQ(reinterpret_cast<const TVMFFIObject*>(obj)->combined_ref_count & 0xFFFFFFFF, 2u);
  CHECK(copy == big);
  CHECK(copy == "a string longer than seven bytes");
  CHECK(big < small);  // byte-wise: " " sorts before "b"
  CHECK(small + "de" == "abcde");
  CHECK_EQ(std::string(small + big).size(), 35u);
  // Bounds errors are std::out_of_range, as from std::string (not an ffi::Error).
  bool thrown = false;
  try {
    (void)small.at(3);
  } catch (const std::out_of_range&) {
    thrown = true;
  }
  CHECK(thrown);
}

void test_string_search_and_slices() {
  ffi::String s("hello world");
  CHECK_EQ(s.find("world"), 6u);
  CHECK_EQ(s.find("o", 5), 7u);
  CHECK_EQ(s.find(ffi::String("lo w")), 3u);
  CHECK_EQ(s.find("xyz"), ffi::String::npos);
  CHECK_EQ(s.find("", 11), 11u);
  CHECK_EQ(s.find("", 12), ffi::String::npos);
  CHECK(s.substr(6) == "world");
  CHECK(s.substr(0, 5) == "hello");
  CHECK(s.substr(6, 100) == "world");  // count is clipped to the end
  CHECK(s.substr(11).empty());
  bool thrown = false;
  try {
    (void)s.substr(12);
  } catch (const std::out_of_range&) {
    thrown = true;
  }
  CHECK(thrown);
  CHECK(s.starts_with("hello") && s.starts_with(std::string_view("hell")));
  CHECK(!s.starts_with("hello world!"));
  CHECK(s.ends_with(ffi::String("world")) && !s.ends_with("hello"));
  // The pieces view the string's own bytes: keep the String alive while using them.
  ffi::String csv("a,,b");
  std::vector<std::string_view> parts = csv.Split(',');
  CHECK_EQ(parts.size(), 3u);
  CHECK(parts[0] == "a" && parts[1].empty() && parts[2] == "b");
  CHECK_EQ(ffi::String("").Split(',').size(), 1u);
}

void test_string_compare_is_three_way() {
  ffi::String s("hello");
  // Exactly -1, 0 or 1, whatever the other side is.
  CHECK_EQ(s.compare("hello"), 0);
  CHECK_EQ(s.compare("hallo"), 1);
  CHECK_EQ(s.compare(ffi::String("hfllo")), -1);
  CHECK_EQ(s.compare(std::string("hello world")), -1);
  CHECK_EQ(s.compare(TVMFFIByteArray{"hell", 4}), 1);
  // Embedded NULs are content: compared by size, not as C strings.
  ffi::String with_nul(std::string("ab\0c", 4));
  CHECK_EQ(with_nul.compare(std::string("ab\0c", 4)), 0);
  CHECK_EQ(with_nul.compare(std::string("ab", 2)), 1);
  CHECK_EQ(ffi::Bytes::memncmp("abc", "abd", 3, 3), -1);
  CHECK(ffi::Bytes::memequal("abc", "abc", 3, 3) && !ffi::Bytes::memequal("abc", "ab", 3, 2));
}

void test_strings_from_byte_arrays_and_moved_std_strings() {
  const char raw[] = {'x', '\0', 'y'};
  TVMFFIByteArray view{raw, 3};
  ffi::String s(view);  // explicit: the array only borrows its bytes
  CHECK_EQ(s.size(), 3u);
  ffi::Bytes b = view;  // implicit for Bytes
  CHECK_EQ(std::string(b), std::string(raw, 3));
  CHECK(ffi::ToStringView(view) == std::string_view(raw, 3));
  // A moved-in std::string hands its buffer to a heap object and is left empty.
  std::string source = "a string moved into a String";
  const char* buffer = source.data();
  ffi::String adopted(std::move(source));
  CHECK(source.empty());  // NOLINT(bugprone-use-after-move)
  CHECK(adopted.data() == buffer);
  CHECK(adopted == "a string moved into a String");
  CHECK_EQ(adopted.raw().type_index, ffi::TypeIndex::kTVMFFIStr);
  // Bytes("...") goes through a temporary std::string, hence a heap object too.
  ffi::Bytes literal = ffi::Bytes("abcd");
  CHECK_EQ(literal.raw().type_index, ffi::TypeIndex::kTVMFFIBytes);
  CHECK_EQ(literal.size(), 4u);
  // And a std::string stored in an Any is a heap str, however short.
  ffi::Any stored = std::string("ab");
  CHECK_EQ(stored.type_index(), ffi::TypeIndex::kTVMFFIStr);
  // Moving out of an owned Any takes its reference and leaves None behind.
  TVMFFIAny owned = ffi::detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(stored));
  ffi::String taken = ffi::TypeTraits<ffi::String>::MoveFromAnyAfterCheck(&owned);
  CHECK_EQ(owned.type_index, ffi::TypeIndex::kTVMFFINone);
  CHECK(taken == "ab");
}

void test_std_string_reads_any_text_or_bytes() {
  std::string text = "bytes or text";
  TVMFFIByteArray arr{text.data(), text.size()};
  CHECK_EQ(ffi::AnyView(&arr).cast<std::string>(), text);
  CHECK_EQ(ffi::Any(ffi::Bytes(text)).cast<std::string>(), text);
  CHECK_EQ(ffi::Any(ffi::Bytes("ab", 2)).cast<std::string>(), "ab");
  CHECK_EQ(ffi::AnyView(text).cast<std::string>(), text);
  CHECK(!ffi::Any(1).try_cast<std::string>().has_value());
}

void test_string_hashes() {
  ffi::Bytes short_bytes("a", 1);
  CHECK_EQ(std::hash<ffi::Bytes>()(short_bytes), std::hash<ffi::Bytes>()(ffi::Bytes(std::string("a"))));
  CHECK_EQ(std::hash<ffi::String>()(ffi::String("a")), std::hash<std::string_view>()("a"));
  // The stable content hash does not depend on where the bytes sit.
  alignas(8) char aligned[24] = "0123456789abcdefghijklm";
  char unaligned[25];
  std::memcpy(unaligned + 1, aligned, 23);
  CHECK_EQ(ffi::detail::StableHashBytes(aligned, 23), ffi::detail::StableHashBytes(unaligned + 1, 23));
  CHECK_EQ(ffi::detail::StableHashBytes("", 0), 0u);
  CHECK_EQ(ffi::detail::StableHashBytes("a", 1), 97u);  // one word, 'a' in its low byte
  CHECK_EQ(ffi::detail::StableHashCombine(0, 1u), 1u + 0x9e3779b9);
}

void test_escaping_for_json_and_python() {
  CHECK(ffi::EscapeStringJSON("a\"b\\c/d") == "\"a\\\"b\\\\c\\/d\"");
  CHECK(ffi::EscapeStringJSON("\n\t\x01\x7f") == "\"\\n\\t\\u0001\\u007f\"");
  CHECK(ffi::EscapeStringJSON("caf\xc3\xa9") == "\"caf\xc3\xa9\"");  // UTF-8 passes through
  CHECK(ffi::EscapedStringPy("a\"b\n") == "\"a\\\"b\\n\"");
  CHECK(ffi::EscapedStringPy("\x01") == "\"\\x01\"");
  CHECK(ffi::EscapedStringPy("caf\xc3\xa9") == "\"caf\\u00e9\"");
  CHECK(ffi::EscapedStringPy("\xf0\x9f\x98\x80") == "\"\\U0001f600\"");
  CHECK(ffi::EscapedStringPy("\xff") == "\"\\xff\"");
  CHECK(ffi::EscapedStringPy("\x1b[31mred\x1b[0m") == "\"\\x1b[31mred\\x1b[0m\"");
}

void test_bytes() {
  const std::string content("\0\1\2", 3);
  ffi::Bytes b(content);
  CHECK_EQ(b.size(), 3u);
  CHECK_EQ(b.raw().type_index, ffi::TypeIndex::kTVMFFISmallBytes);
  // A moved-in std::string always becomes a heap object, as with the reference headers.
  ffi::Bytes moved(std::string("\0\1\2", 3));
  CHECK_EQ(moved.raw().type_index, ffi::TypeIndex::kTVMFFIBytes);
  CHECK(moved == b);
  ffi::String moved_str(std::string("abc"));
  CHECK_EQ(moved_str.raw().type_index, ffi::TypeIndex::kTVMFFIStr);
  CHECK(moved_str == "abc");
  ffi::Map<ffi::String, int64_t> by_name{{moved_str, 1}};  // heap and small keys hash alike
  CHECK_EQ(by_name.at(ffi::String("abc")), 1);
  ffi::Any a = b;
  CHECK(a.cast<ffi::Bytes>() == b);
  CHECK(!a.try_cast<ffi::String>().has_value());
}

void test_runtime_made_strings_are_read_the_same() {
  TVMFFIByteArray text{"made by the runtime", 19};
  TVMFFIAny out;
  CHECK_EQ(TVMFFIStringFromByteArray(&text, &out), 0);
  ffi::Any owned = ffi::detail::AnyUnsafe::MoveTVMFFIAnyToAny(&out);
  CHECK(owned.cast<ffi::String>() == "made by the runtime");
  CHECK_EQ(owned.cast<std::string>(), "made by the runtime");
}

void test_pod_values_and_conversions() {
  ffi::Any i = 5;
  CHECK_EQ(i.type_index(), ffi::TypeIndex::kTVMFFIInt);
  CHECK_EQ(i.cast<int64_t>(), 5);
  CHECK_EQ(i.cast<double>(), 5.0);         // int converts to float
  CHECK(!i.as<double>().has_value());      // but is not stored as one
  CHECK_EQ(*i.as<int64_t>(), 5);
  ffi::Any b = true;
  CHECK_EQ(b.type_index(), ffi::TypeIndex::kTVMFFIBool);
  CHECK_EQ(b.cast<int>(), 1);              // bool converts to int
  ffi::Any f = 2.5;
  CHECK_THROWS(f.cast<int>(), "TypeError", "Cannot convert from type `float` to `int`");
  ffi::Any none;
  CHECK(none == nullptr);
  CHECK_EQ(none.cast<void*>(), nullptr);
  ffi::Any s = "hello";
  CHECK_EQ(s.type_index(), ffi::TypeIndex::kTVMFFISmallStr);  // owned values never hold raw C strings
  CHECK_THROWS(s.cast<int>(), "TypeError", "Cannot convert from type `ffi.SmallStr` to `int`");
}

void test_views_convert_to_owned() {
  ffi::AnyView raw_view = "a raw C string, long enough for an object";
  CHECK_EQ(raw_view.type_index(), ffi::TypeIndex::kTVMFFIRawStr);
  ffi::Any owned = raw_view;
  CHECK_EQ(owned.type_index(), ffi::TypeIndex::kTVMFFIStr);
  CHECK(owned.cast<ffi::String>() == "a raw C string, long enough for an object");
  ffi::String s = raw_view.cast<ffi::String>();
  CHECK_EQ(s.size(), 41u);
  int value = 7;
  ffi::AnyView ptr_view = static_cast<void*>(&value);
  CHECK_EQ(ptr_view.cast<void*>(), static_cast<void*>(&value));
  ffi::Any null_ptr = static_cast<void*>(nullptr);  // a null pointer stays a pointer, not None
  CHECK_EQ(null_ptr.type_index(), ffi::TypeIndex::kTVMFFIOpaquePtr);
  CHECK(!(null_ptr == nullptr));
  CHECK_EQ(null_ptr.cast<void*>(), nullptr);
}

void test_optional() {
  ffi::Optional<int64_t> none;
  CHECK(!none.has_value());
  CHECK_EQ(none.value_or(3), 3);
  CHECK_THROWS(none.value(), "RuntimeError", "optional");
  ffi::Optional<ffi::String> s = ffi::String("x");
  ffi::Any a = s;
  CHECK(a.cast<ffi::Optional<ffi::String>>().value() == "x");
  ffi::Any n;
  CHECK(!n.cast<ffi::Optional<ffi::String>>().has_value());
  CHECK_EQ(ffi::TypeTraits<ffi::Optional<ffi::String>>::TypeStr(), "Optional<str>");
}

void test_any_hash_and_equal_match_the_runtime_maps() {
  ffi::AnyHash hash;
  ffi::AnyEqual equal;
  CHECK_EQ(hash(ffi::Any(5)), 2654435839ULL);  // spec/ABI.md 4.4, measured on the reference
  CHECK_EQ(hash(ffi::Any("abc")), 2660953131ULL);
  ffi::Any small("same text!"), heap(ffi::String("same text!"));
  CHECK(equal(small, heap));
  CHECK_EQ(hash(small), hash(heap));
  CHECK(!equal(ffi::Any(1), ffi::Any(true)));  // 1, True and 1.0 are different keys
  CHECK(!equal(ffi::Any(1), ffi::Any(1.0)));
  CHECK(equal(ffi::Any(ffi::Bytes("xy", 2)), ffi::Any(ffi::Bytes("xy", 2))));
}

void test_byte_array_pointer_views() {
  // A TVMFFIByteArray* travels as a borrowed kTVMFFIByteArrayPtr view; stored, it becomes Bytes.
  static const char kData[] = "raw bytes";
  TVMFFIByteArray bytes{kData, sizeof(kData) - 1};
  ffi::AnyView view(&bytes);
  CHECK_EQ(view.type_index(), ffi::TypeIndex::kTVMFFIByteArrayPtr);
  CHECK(view.cast<TVMFFIByteArray*>() == &bytes);
  CHECK(view.cast<ffi::Bytes>() == ffi::Bytes(kData, sizeof(kData) - 1));
  CHECK(!view.try_cast<const char*>().has_value());
  ffi::Any owned(view);
  CHECK_EQ(owned.type_index(), ffi::TypeIndex::kTVMFFIBytes);
  CHECK_EQ(ffi::TypeTraits<TVMFFIByteArray*>::TypeStr(), "TVMFFIByteArray*");
}

void test_any_unsafe_moves_and_raw_access() {
  ffi::Array<int64_t> arr{1, 2, 3};
  TVMFFIAny raw = ffi::detail::AnyUnsafe::MoveAnyToTVMFFIAny(ffi::Any(arr));
  CHECK_EQ(arr.use_count(), 2);
  // A raw value handed over whole is adopted without another reference.
  ffi::Any adopted = ffi::detail::AnyUnsafe::MoveTVMFFIAnyRawToAny(raw);
  CHECK_EQ(arr.use_count(), 2);
  CHECK(ffi::detail::AnyUnsafe::CheckAnyViewStrict<ffi::Array<int64_t>>(ffi::AnyView(adopted)));
  CHECK(!ffi::detail::AnyUnsafe::CheckAnyViewStrict<ffi::String>(ffi::AnyView(adopted)));
  const ffi::Object* obj = ffi::detail::AnyUnsafe::RawObjectPtrFromAnyAfterCheck(adopted);
  CHECK(obj == arr.get());
  CHECK(ffi::detail::AnyUnsafe::RawObjectPtrFromAnyViewAfterCheck(ffi::AnyView(adopted)) == obj);
  auto moved = ffi::detail::AnyUnsafe::MoveFromAnyAfterCheck<ffi::Array<int64_t>>(std::move(adopted));
  CHECK(adopted == nullptr);
  CHECK_EQ(arr.use_count(), 2);
  CHECK_EQ(moved.size(), 3u);
  // AnyUnsafe shares ObjectUnsafe's helpers.
  ffi::ObjectPtr<ffi::Object> ptr = ffi::detail::AnyUnsafe::ObjectPtrFromObjectRef<ffi::Object>(arr);
  CHECK_EQ(arr.use_count(), 3);
  CHECK(ffi::detail::ObjectUnsafe::RawObjectPtrFromObjectRef(arr) == ptr.get());
}

int main() {
  RUN(test_strings_small_and_heap);
  RUN(test_string_search_and_slices);
  RUN(test_string_compare_is_three_way);
  RUN(test_strings_from_byte_arrays_and_moved_std_strings);
  RUN(test_std_string_reads_any_text_or_bytes);
  RUN(test_string_hashes);
  RUN(test_escaping_for_json_and_python);
  RUN(test_bytes);
  RUN(test_runtime_made_strings_are_read_the_same);
  RUN(test_pod_values_and_conversions);
  RUN(test_views_convert_to_owned);
  RUN(test_optional);
  RUN(test_any_hash_and_equal_match_the_runtime_maps);
  RUN(test_byte_array_pointer_views);
  RUN(test_any_unsafe_moves_and_raw_access);
  return CHECK_MAIN_RESULT();
}
