// test_object.cc -- object.h / memory.h / cast.h: allocation, reference counting, weak
// references, dynamic type registration and subclass checks, GetRef and Downcast.
#include <tvm/ffi/cast.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include "check.h"

namespace ffi = tvm::ffi;

static int live_nodes = 0;

class NodeObj : public ffi::Object {
 public:
  explicit NodeObj(int64_t v = 0) : value(v) { ++live_nodes; }
  NodeObj(const NodeObj& other) : ffi::Object(other), value(other.value) { ++live_nodes; }
  ~NodeObj() { --live_nodes; }
  int64_t value;
  static constexpr int32_t _type_child_slots = 2;
  TVM_FFI_DECLARE_OBJECT_INFO("test.cpp.Node", NodeObj, ffi::Object);
};

class LeafObj : public NodeObj {
 public:
  explicit LeafObj(int64_t v) : NodeObj(v) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.cpp.Leaf", LeafObj, NodeObj);
};

class OtherObj : public ffi::Object {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.cpp.Other", OtherObj, ffi::Object);
};

class Node : public ffi::ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Node, ffi::ObjectRef, NodeObj);
};
class Leaf : public Node {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Leaf, Node, LeafObj);
};

void test_make_object_counts_and_frees() {
  {
    ffi::ObjectPtr<NodeObj> a = ffi::make_object<NodeObj>(7);
    CHECK_EQ(live_nodes, 1);
    CHECK_EQ(a.use_count(), 1);
    ffi::ObjectPtr<NodeObj> b = a;
    CHECK_EQ(a.use_count(), 2);
    CHECK_EQ(b->value, 7);
    b.reset();
    CHECK_EQ(a.use_count(), 1);
    CHECK(a.unique());
  }
  CHECK_EQ(live_nodes, 0);
}

void test_header_is_the_c_handle() {
  ffi::ObjectPtr<NodeObj> a = ffi::make_object<NodeObj>(1);
  TVMFFIObject* header = ffi::detail::ObjectUnsafe::GetHeader(a.get());
  CHECK_EQ(static_cast<void*>(header), static_cast<void*>(a.get()));
  CHECK_EQ(header->type_index, NodeObj::RuntimeTypeIndex());
  CHECK_EQ(header->combined_ref_count, (uint64_t(1) << 32) | 1);
  // The exported C entry points and the inline protocol agree.
  CHECK_EQ(TVMFFIObjectIncRef(header), 0);
  CHECK_EQ(a.use_count(), 2);
  CHECK_EQ(TVMFFIObjectDecRef(header), 0);
  CHECK_EQ(a.use_count(), 1);
}

void test_weak_references_expire() {
  ffi::WeakObjectPtr<NodeObj> weak;
  {
    ffi::ObjectPtr<NodeObj> strong = ffi::make_object<NodeObj>(3);
    weak = ffi::WeakObjectPtr<NodeObj>(strong);
    CHECK(!weak.expired());
    ffi::ObjectPtr<NodeObj> again = weak.lock();
    CHECK_EQ(again->value, 3);
    CHECK_EQ(strong.use_count(), 2);
  }
  CHECK_EQ(live_nodes, 0);  // destroyed while the weak reference still holds the memory
  CHECK(weak.expired());
  CHECK(weak.lock() == nullptr);
}

void test_dynamic_types_and_subclass_checks() {
  const int32_t node = NodeObj::RuntimeTypeIndex();
  const int32_t leaf = LeafObj::RuntimeTypeIndex();
  CHECK(node >= ffi::TypeIndex::kTVMFFIDynObjectBegin);
  CHECK(leaf > node && leaf <= node + 2);  // allocated inside the reserved child slots
  CHECK_EQ(NodeObj::_type_index, node);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(leaf);
  CHECK_EQ(std::string(info->type_key.data, info->type_key.size), "test.cpp.Leaf");
  CHECK_EQ(info->type_depth, 2);
  CHECK_EQ(info->type_ancestors[1]->type_index, node);

  Node as_node(ffi::make_object<LeafObj>(5));
  CHECK(as_node->IsInstance<NodeObj>());
  CHECK(as_node->IsInstance<LeafObj>());
  CHECK(!as_node->IsInstance<OtherObj>());
  CHECK(as_node.as<LeafObj>() != nullptr);
  CHECK(as_node.as<OtherObj>() == nullptr);
  CHECK_EQ(as_node->GetTypeKey(), "test.cpp.Leaf");
}

void test_getref_and_downcast() {
  Node node(ffi::make_object<LeafObj>(9));
  const NodeObj* raw = node.get();
  Node again = ffi::GetRef<Node>(raw);
  CHECK(again.same_as(node));
  CHECK_EQ(node.use_count(), 2);
  Leaf leaf = ffi::Downcast<Leaf>(node);
  CHECK_EQ(leaf->value, 9);
  ffi::ObjectRef plain(ffi::make_object<OtherObj>());
  CHECK_THROWS(ffi::Downcast<Node>(plain), "TypeError", "Downcast from test.cpp.Other to test.cpp.Node failed");
  Node empty;
  CHECK(!ffi::Downcast<Leaf>(empty).defined());
}

void test_copying_an_object_gives_a_fresh_header() {
  ffi::ObjectPtr<NodeObj> a = ffi::make_object<NodeObj>(4);
  ffi::ObjectPtr<NodeObj> b = ffi::make_object<NodeObj>(*a);
  CHECK_EQ(b->value, 4);
  CHECK_EQ(a.use_count(), 1);
  CHECK_EQ(b.use_count(), 1);
  CHECK(a != b);
}

int main() {
  RUN(test_make_object_counts_and_frees);
  RUN(test_header_is_the_c_handle);
  RUN(test_weak_references_expire);
  RUN(test_dynamic_types_and_subclass_checks);
  RUN(test_getref_and_downcast);
  RUN(test_copying_an_object_gives_a_fresh_header);
  return CHECK_MAIN_RESULT();
}
