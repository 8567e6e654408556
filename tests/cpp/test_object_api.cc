// test_object_api.cc -- the object-level API kernels use beyond make_object: checked reference
// casts (ObjectRef::as<Ref>, as_or_throw), never-null Arc<T>, ObjectPtr/Arc values in Any and
// containers, weak pointer counts, static containment (object_ref_contains_v), over-aligned
// objects, and object types looked up by key (TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP).
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/tvm_ffi.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "check.h"

namespace ffi = tvm::ffi;

class ShapeObj : public ffi::Object {
 public:
  static constexpr int32_t _type_child_slots = 2;
  TVM_FFI_DECLARE_OBJECT_INFO("test.api.Shape", ShapeObj, ffi::Object);
};

class CircleObj : public ShapeObj {
 public:
  explicit CircleObj(double r) : radius(r) {}
  double radius;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.api.Circle", CircleObj, ShapeObj);
};

class SquareObj : public ShapeObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.api.Square", SquareObj, ShapeObj);
};

class Shape : public ffi::ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Shape, ffi::ObjectRef, ShapeObj);
};

class Circle : public Shape {
 public:
  explicit Circle(double r) : Shape(ffi::make_object<CircleObj>(r)) {}
  /*! A mutating method written the usual way: through the protected get_mutable(). */
  void Scale(double k) { static_cast<CircleObj*>(get_mutable())->radius *= k; }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Circle, Shape, CircleObj);
};

class Square : public Shape {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Square, Shape, SquareObj);
};

// A reference type that accepts circles and squares but not every ShapeObj.
class RoundOrSquare : public ffi::ObjectRef {
 public:
  static constexpr bool _type_container_is_exact = false;
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(RoundOrSquare, ffi::ObjectRef, ShapeObj);
};

namespace tvm {
namespace ffi {
template <typename ObjectType>
inline constexpr bool object_ref_contains_v<RoundOrSquare, ObjectType> =
    std::is_base_of_v<CircleObj, ObjectType> || std::is_base_of_v<SquareObj, ObjectType>;
}  // namespace ffi
}  // namespace tvm

static_assert(ffi::object_ref_contains_v<Shape, CircleObj>);
static_assert(!ffi::object_ref_contains_v<Circle, SquareObj>);
static_assert(!ffi::object_ref_contains_v<ffi::Array<Shape>, ffi::ArrayObj>);
static_assert(ffi::object_ref_contains_v<RoundOrSquare, SquareObj>);
static_assert(!ffi::object_ref_contains_v<RoundOrSquare, ShapeObj>);
static_assert(ffi::is_object_subclass_v<CircleObj> && !ffi::is_object_subclass_v<int>);

void test_subclass_methods_mutate_through_get_mutable() {
  Circle c(2.0);
  Circle alias = c;
  c.Scale(1.5);
  CHECK_EQ(alias->radius, 3.0);  // one node, seen through both references
}

void test_checked_reference_casts() {
  ffi::ObjectRef any_shape = Circle(2.0);
  std::optional<Circle> circle = any_shape.as<Circle>();
  CHECK(circle.has_value());
  CHECK_EQ((*circle)->radius, 2.0);
  CHECK(!any_shape.as<Square>().has_value());
  CHECK_EQ(any_shape.as_or_throw<Shape>().use_count(), 3);  // any_shape, circle, the temporary
  CHECK_THROWS(any_shape.as_or_throw<Square>(), "TypeError",
               "Cannot treat type `test.api.Circle` as type `test.api.Square`");
  // A null reference is a valid nullable reference, and never a non-nullable one.
  ffi::ObjectRef nothing;
  CHECK(nothing.as<Square>().has_value() && !nothing.as<Square>()->defined());
  CHECK(!nothing.as<Circle>().has_value());
  CHECK_THROWS(nothing.as_or_throw<Circle>(), "TypeError", "as type `test.api.Circle`");
  // The rvalue forms move the reference out.
  ffi::ObjectRef moving = Circle(3.0);
  Circle moved = std::move(moving).as_or_throw<Circle>();
  CHECK(!moving.defined());  // NOLINT(bugprone-use-after-move)
  CHECK_EQ(moved.use_count(), 1);
}

void test_arc_is_a_never_null_object_ptr() {
  static_assert(!std::is_default_constructible_v<ffi::Arc<CircleObj>>);
  static_assert(!std::is_constructible_v<ffi::Arc<CircleObj>, std::nullptr_t>);
  static_assert(!std::is_constructible_v<ffi::Arc<CircleObj>, ffi::ObjectPtr<CircleObj>>);
  static_assert(sizeof(ffi::Arc<CircleObj>) == sizeof(void*));
  ffi::Arc<CircleObj> circle = ffi::make_arc<CircleObj>(1.5);
  ffi::Arc<ShapeObj> shape = circle;  // upcast shares the object
  CHECK_EQ(circle.use_count(), 2);
  ffi::ObjectPtr<ShapeObj> nullable = shape;
  CHECK_EQ(nullable.get(), shape.get());
  ffi::Any held = circle;
  CHECK_EQ(held.cast<ffi::Arc<ShapeObj>>().get(), shape.get());
  CHECK(!held.try_cast<ffi::Arc<SquareObj>>().has_value());
  // None is a null ObjectPtr but never an Arc.
  ffi::Any none;
  CHECK(none.cast<ffi::ObjectPtr<ShapeObj>>() == nullptr);
  CHECK(!none.try_cast<ffi::Arc<ShapeObj>>().has_value());
  CHECK_EQ(ffi::TypeTraits<ffi::Arc<ShapeObj>>::TypeSchema(), std::string("{\"type\":\"test.api.Shape\"}"));
  CHECK_EQ(ffi::TypeTraits<ffi::ObjectPtr<ShapeObj>>::TypeSchema(),
           std::string("{\"type\":\"Optional\",\"args\":[{\"type\":\"test.api.Shape\"}]}"));
  CHECK_EQ(ffi::TypeToRuntimeTypeIndex<ffi::Arc<CircleObj>>::v(), CircleObj::RuntimeTypeIndex());
  // Optional of a pointer is one nullable pointer, as in the reference's layout.
  static_assert(sizeof(ffi::Optional<ffi::Arc<CircleObj>>) == sizeof(void*));
  static_assert(sizeof(ffi::Optional<ffi::ObjectPtr<CircleObj>>) == sizeof(void*));
  ffi::Optional<ffi::Arc<CircleObj>> maybe = circle;
  CHECK(maybe.has_value() && maybe.value()->radius == 1.5 && maybe->radius == 1.5);
  maybe = std::nullopt;
  CHECK(!maybe.has_value() && maybe == std::nullopt);
  CHECK_THROWS(maybe.value(), "RuntimeError", "optional");
  ffi::Any packed = ffi::Optional<ffi::ObjectPtr<ShapeObj>>(shape);
  CHECK_EQ(packed.cast<ffi::Optional<ffi::ObjectPtr<ShapeObj>>>().value().get(), shape.get());
}

void test_object_pointers_in_containers() {
  ffi::ObjectPtr<CircleObj> first = ffi::make_object<CircleObj>(1.0);
  ffi::Array<ffi::ObjectPtr<CircleObj>> circles{first, nullptr};
  ffi::Array<ffi::ObjectPtr<ShapeObj>> shapes = circles;  // same storage, wider element type
  CHECK(shapes.same_as(circles));
  CHECK(shapes[1] == nullptr);
  // Arc elements reject the None a nullable source may hold.
  CHECK(!ffi::Any(circles).try_cast<ffi::Array<ffi::Arc<ShapeObj>>>().has_value());
  ffi::Array<ffi::ObjectPtr<CircleObj>> all_set{first};
  CHECK(ffi::Any(all_set).try_cast<ffi::Array<ffi::Arc<ShapeObj>>>().has_value());
}

// An object method keeping itself alive: a new strong reference from its own address.
class CounterObj : public ffi::Object {
 public:
  int64_t value = 0;
  ffi::Function Incrementer() {
    ffi::ObjectPtr<ffi::Object> self = ffi::GetObjectPtr<ffi::Object>(this);
    return ffi::Function::FromTyped([self]() { return ++static_cast<CounterObj*>(self.get())->value; });
  }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.api.Counter", CounterObj, ffi::Object);
};

void test_object_pointer_from_its_address() {
  ffi::Function inc;
  {
    ffi::ObjectPtr<CounterObj> counter = ffi::make_object<CounterObj>();
    inc = counter->Incrementer();
    CHECK_EQ(counter.use_count(), 2);
    static_assert(std::is_same_v<decltype(counter->use_count()), uint64_t>);
  }
  CHECK_EQ(inc().cast<int64_t>(), 1);  // the closure's reference outlived `counter`
  CHECK_EQ(inc().cast<int64_t>(), 2);
  ffi::FObjectDeleter deleter = reinterpret_cast<TVMFFIObject*>(
      ffi::GetObjectPtr<ffi::Object>(inc.get()).get())->deleter;
  CHECK(deleter != nullptr);
  CHECK(std::string(ffi::StaticTypeKey::kTVMFFIBigInt) == "ffi.BigInt");
}

void test_weak_pointer_counts() {
  ffi::ObjectPtr<CircleObj> strong = ffi::make_object<CircleObj>(1.0);
  ffi::WeakObjectPtr<CircleObj> weak(strong);
  ffi::WeakObjectPtr<CircleObj> empty(nullptr);
  CHECK_EQ(weak.use_count(), 1);
  CHECK_EQ(empty.use_count(), 0);
  weak.swap(empty);
  CHECK(weak.expired() && !empty.expired());
  strong.reset();
  CHECK_EQ(empty.use_count(), 0);
  CHECK(empty.lock() == nullptr);
}

static int live_wide = 0;
class alignas(64) WideObj : public ffi::Object {
 public:
  WideObj() { ++live_wide; }
  ~WideObj() { --live_wide; }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.api.Wide", WideObj, ffi::Object);
};

void test_over_aligned_objects() {
  {
    ffi::ObjectPtr<WideObj> wide = ffi::make_object<WideObj>();
    CHECK_EQ(reinterpret_cast<uintptr_t>(wide.get()) % 64, 0u);
    CHECK_EQ(live_wide, 1);
  }
  CHECK_EQ(live_wide, 0);
}

// A second C++ view of "test.api.Circle": looks the registered index up instead of allocating.
class CircleView : public ffi::Object {
 public:
  double radius;
  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("test.api.Circle", 2);
};
class MissingView : public ffi::Object {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("test.api.NeverRegistered", 1);
};

void test_lookup_declared_types() {
  CHECK_EQ(CircleView::RuntimeTypeIndex(), CircleObj::RuntimeTypeIndex());
  ffi::Any value = Circle(4.0);
  ffi::ObjectPtr<CircleView> view = value.cast<ffi::ObjectPtr<CircleView>>();
  CHECK_EQ(view->radius, 4.0);
  CHECK_THROWS(MissingView::RuntimeTypeIndex(), "InternalError", "Cannot find type `test.api.NeverRegistered`");
}

int main() {
  RUN(test_subclass_methods_mutate_through_get_mutable);
  RUN(test_checked_reference_casts);
  RUN(test_arc_is_a_never_null_object_ptr);
  RUN(test_object_pointers_in_containers);
  RUN(test_object_pointer_from_its_address);
  RUN(test_weak_pointer_counts);
  RUN(test_over_aligned_objects);
  RUN(test_lookup_declared_types);
  return CHECK_MAIN_RESULT();
}
