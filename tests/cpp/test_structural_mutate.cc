// test_structural_mutate.cc -- extra/structural_visit.h and extra/structural_mutate.h: typed
// walk/visit/map/mutate callbacks over the runtime's engines, the visitor and mutator objects
// handed to callbacks, copy-on-write vs in-place rebuilds, interrupts and errors.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/structural_mutate.h>
#include <tvm/ffi/extra/structural_visit.h>

#include <string>
#include <vector>

#include "check.h"

namespace ffi = tvm::ffi;

// The ABI prefixes: header (24), vtable pointer @24, def-region kind @32; interrupt payload @24.
static_assert(sizeof(ffi::StructuralVisitorObj) == 40, "StructuralVisitorObj layout");
static_assert(sizeof(ffi::StructuralMutatorObj) == 40, "StructuralMutatorObj layout");
static_assert(sizeof(ffi::VisitInterruptObj) == 40, "VisitInterruptObj layout");

static ffi::Array<ffi::Any> Sample() {
  return ffi::Array<ffi::Any>{ffi::Any(1), ffi::Any(ffi::Array<ffi::Any>{ffi::Any(2), ffi::Any(3.5)})};
}

void test_walk_orders_and_skip() {
  std::vector<int64_t> seen;
  ffi::StructuralWalk<ffi::WalkOrder::kPreOrder>(Sample(), [&](int64_t v) { seen.push_back(v); });
  CHECK(seen == (std::vector<int64_t>{1, 2}));
  int arrays = 0;
  ffi::StructuralWalk<ffi::WalkOrder::kPreOrder>(
      Sample(),
      [&](ffi::Array<ffi::Any> a) {
        ++arrays;
        return a.size() == 2 && arrays > 1 ? ffi::WalkResult::kSkip : ffi::WalkResult::kAdvance;
      },
      [&](int64_t v) { seen.push_back(v * 10); });
  CHECK_EQ(arrays, 2);
  CHECK(seen == (std::vector<int64_t>{1, 2, 10}));  // the inner array's ints were skipped
}

void test_walk_interrupt_and_regions() {
  ffi::Optional<ffi::VisitInterrupt> hit = ffi::StructuralWalk<ffi::WalkOrder::kPostOrder>(
      Sample(), [](int64_t v) -> ffi::Optional<ffi::VisitInterrupt> {
        if (v == 2) return ffi::VisitInterrupt(ffi::Any(v * 100));
        return std::nullopt;
      });
  CHECK(hit.has_value());
  CHECK_EQ(hit.value().value().cast<int64_t>(), 200);
  std::vector<int> kinds;
  ffi::StructuralWalk<ffi::WalkOrder::kPreOrder>(
      Sample(), [&](double, TVMFFIDefRegionKind kind) { kinds.push_back(static_cast<int>(kind)); });
  CHECK(kinds == (std::vector<int>{0}));
}

// The reference headers' spellings: WalkResult::Advance()/Skip()/Interrupt(), Expected results,
// callbacks on raw object pointers, VisitExpected and the *Expected front ends.
void test_reference_spellings() {
  std::vector<int64_t> seen;
  ffi::Optional<ffi::VisitInterrupt> hit = ffi::StructuralWalk<ffi::WalkOrder::kPreOrder>(
      Sample(),
      [&](const ffi::ArrayObj* a) -> ffi::Expected<ffi::WalkResult> {
        return a->size() == 2 && !seen.empty() ? ffi::WalkResult::Skip() : ffi::WalkResult::Advance();
      },
      [&](int64_t v) -> ffi::Expected<ffi::WalkResult> {
        seen.push_back(v);
        return ffi::WalkResult::Advance();
      });
  CHECK(!hit.has_value());
  CHECK(seen == (std::vector<int64_t>{1}));  // the inner array was skipped
  hit = ffi::StructuralWalk<ffi::WalkOrder::kPostOrder>(Sample(), [](double) {
    return ffi::WalkResult::Interrupt(ffi::VisitInterrupt(ffi::Any("stop")));
  });
  CHECK(hit.value().value().cast<ffi::String>() == "stop");
  CHECK(ffi::VisitInterrupt().value() == nullptr);

  ffi::Expected<ffi::Optional<ffi::VisitInterrupt>> failed =
      ffi::StructuralWalkExpected<ffi::WalkOrder::kPreOrder>(
          Sample(), [](int64_t) -> ffi::Expected<ffi::WalkResult> {
            return ffi::Error("ValueError", "no ints here", "");
          });
  CHECK(failed.is_err());
  CHECK(failed.error().kind() == "ValueError");

  ffi::Expected<ffi::Optional<ffi::VisitInterrupt>> visited = ffi::StructuralVisitExpected(
      Sample(),
      [](ffi::Array<ffi::Any> a,
         ffi::StructuralVisitorObj* visitor) -> ffi::Expected<ffi::Optional<ffi::VisitInterrupt>> {
        TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN(visitor->VisitExpected(a[0]));
        return visitor->DefaultVisitExpected(a[1]);
      },
      [](double d, ffi::StructuralVisitorObj*) -> ffi::Optional<ffi::VisitInterrupt> {
        return ffi::VisitInterrupt(ffi::Any(d));
      });
  CHECK(visited.is_ok());
  CHECK_EQ(visited.value().value().value().cast<double>(), 3.5);
}

void test_visit_callbacks_own_descent() {
  std::vector<int64_t> seen;
  ffi::StructuralVisit(
      Sample(),
      [&](ffi::Array<ffi::Any> a, ffi::StructuralVisitorObj* visitor) {
        CHECK_EQ(visitor->def_region_kind(), kTVMFFIDefRegionKindNone);
        visitor->WithDefRegionKind(kTVMFFIDefRegionKindSimple, [&] {
          CHECK_EQ(visitor->def_region_kind(), kTVMFFIDefRegionKindSimple);
          return 0;
        });
        return a.size() == 2 ? visitor->Visit(a[0]) : visitor->DefaultVisit(a);
      },
      [&](int64_t v, ffi::StructuralVisitorObj*) {
        seen.push_back(v);
        return ffi::Optional<ffi::VisitInterrupt>();
      });
  CHECK(seen == (std::vector<int64_t>{1}));  // only the first item of the outer array
}

void test_map_copy_on_write() {
  ffi::Array<ffi::Any> input = Sample();
  ffi::Any same = ffi::StructuralMap<ffi::WalkOrder::kPostOrder>(input, [](int64_t v) { return v; });
  CHECK(same.cast<ffi::Array<ffi::Any>>().same_as(input));
  ffi::Any mapped = ffi::StructuralMap<ffi::WalkOrder::kPostOrder>(
      input, [](int64_t v) { return v + 1; }, [](double d) { return d * 2; });
  auto out = mapped.cast<ffi::Array<ffi::Any>>();
  CHECK(!out.same_as(input));
  CHECK_EQ(out[0].cast<int64_t>(), 2);
  auto inner = out[1].cast<ffi::Array<ffi::Any>>();
  CHECK_EQ(inner[0].cast<int64_t>(), 3);
  CHECK_EQ(inner[1].cast<double>(), 7.0);
  CHECK_EQ(input[0].cast<int64_t>(), 1);  // the input is untouched
  ffi::Map<ffi::Any, ffi::Any> m{{ffi::Any(ffi::String("k")), ffi::Any(4)}};
  auto m2 = ffi::StructuralMap<ffi::WalkOrder::kPreOrder>(m, [](int64_t v, TVMFFIDefRegionKind) {
              return v * 3;
            }).cast<ffi::Map<ffi::Any, ffi::Any>>();
  CHECK_EQ(m2.at(ffi::Any(ffi::String("k"))).cast<int64_t>(), 12);
}

void test_map_in_place_when_moved() {
  ffi::List<ffi::Any> list{ffi::Any(1), ffi::Any(2)};
  const void* before = list.get();
  ffi::Any result = ffi::StructuralMap<ffi::WalkOrder::kPostOrder>(std::move(list),
                                                                   [](int64_t v) { return v + 1; });
  auto out = result.cast<ffi::List<ffi::Any>>();
  CHECK(static_cast<const void*>(out.get()) == before);
  CHECK_EQ(out[1].cast<int64_t>(), 3);
  ffi::List<ffi::Any> kept{ffi::Any(1)};
  auto copied = ffi::StructuralMap<ffi::WalkOrder::kPostOrder>(kept, [](int64_t v) { return v + 1; })
                    .cast<ffi::List<ffi::Any>>();
  CHECK(!copied.same_as(kept));
  CHECK_EQ(kept[0].cast<int64_t>(), 1);
}

void test_mutate_callbacks_and_mutator() {
  std::vector<int> modes;
  ffi::Any result = ffi::StructuralMutate(
      Sample(),
      [&](ffi::Array<ffi::Any> a, ffi::StructuralMutatorObj* m, ffi::InplaceMode mode) {
        modes.push_back(static_cast<int>(mode));
        CHECK(m->VarRemapGet(a) == nullptr);
        return m->DefaultMutate(a);
      },
      [](int64_t v, ffi::StructuralMutatorObj* m) {
        ffi::UnchangedOr<ffi::Any> same = m->Mutate(ffi::Any(2.5));  // no callback for floats
        CHECK(same.UnchangedOrSameAs(ffi::Any(2.5)));
        return v * -1;
      });
  auto out = result.cast<ffi::Array<ffi::Any>>();
  CHECK_EQ(out[0].cast<int64_t>(), -1);
  CHECK_EQ(out[1].cast<ffi::Array<ffi::Any>>()[0].cast<int64_t>(), -2);
  // The temporary root was handed over (unique); default_mutate descends copy-on-write.
  CHECK(modes == (std::vector<int>{1, 0}));
  CHECK_EQ(ffi::StructuralMutate(ffi::Any(7), [](int64_t v, ffi::StructuralMutatorObj*) {
             return v + 1;
           }).cast<int64_t>(),
           8);
}

// The reference headers' hook API: UnchangedOr results, *Expected calls and the assign-or-return
// macro, which hands errors (and results of the wrong type) back instead of throwing.
ffi::Expected<ffi::UnchangedOr<ffi::Any>> NegateFirst(ffi::StructuralMutatorObj* m,
                                                      ffi::Array<ffi::Any> a) {
  TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN(ffi::UnchangedOr<ffi::Any>, first, m->MutateExpected(a[0]));
  if (first.UnchangedOrSameAs(a[0])) return ffi::Unchanged();
  TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN(ffi::Any, kept, m->VarRemapGetExpected(a));
  CHECK(kept == nullptr);
  return ffi::Any(ffi::Array<ffi::Any>{std::move(first).ValueOrUnchanged(ffi::AnyView(a[0])), a[1]});
}

ffi::Expected<ffi::UnchangedOr<ffi::Any>> WantsAnInt(ffi::StructuralMutatorObj* m, ffi::Any v) {
  TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN(int64_t, n, m->VarRemapGetExpected(v));  // None: not an int
  return ffi::Any(n);
}

void test_unchanged_or_and_expected_hooks() {
  ffi::UnchangedOr<ffi::Any> unchanged = ffi::Unchanged();
  CHECK(unchanged.IsUnchanged() && unchanged.UnchangedOrSameAs(ffi::Any(3)));
  CHECK_EQ(std::move(unchanged).ValueOrUnchanged(ffi::Any(3)).cast<int64_t>(), 3);
  ffi::UnchangedOr<int64_t> narrow = int64_t{4};
  ffi::UnchangedOr<ffi::Any> wide = narrow;  // an UnchangedOr of a narrower type widens
  CHECK(!wide.IsUnchanged() && std::move(wide).as<int64_t>() == std::optional<int64_t>(4));

  ffi::Any negated = ffi::StructuralMutate(
      Sample(),
      [](ffi::Array<ffi::Any> a, ffi::StructuralMutatorObj* m) {
        return NegateFirst(m, a).value().ValueOrUnchanged(ffi::AnyView(a));
      },
      [](int64_t v, ffi::StructuralMutatorObj*) { return -v; });
  CHECK_EQ(negated.cast<ffi::Array<ffi::Any>>()[0].cast<int64_t>(), -1);
  ffi::Array<ffi::Any> input = Sample();
  ffi::Any kept = ffi::StructuralMutate(
      input, [](ffi::Array<ffi::Any> a, ffi::StructuralMutatorObj* m) {
        ffi::Expected<ffi::UnchangedOr<ffi::Any>> r = m->DefaultMutateExpected(a);
        CHECK(r.is_ok());
        return std::move(r).value().ValueOrUnchanged(ffi::AnyView(a));
      });
  CHECK(kept.same_as(input));  // nothing changed anywhere: the input itself comes back
  ffi::StructuralMutate(ffi::Array<ffi::Any>{ffi::Any(1)},
                        [](ffi::Array<ffi::Any> a, ffi::StructuralMutatorObj* m) {
                          ffi::Expected<ffi::UnchangedOr<ffi::Any>> r = WantsAnInt(m, a);
                          CHECK(r.is_err());
                          CHECK(r.error().message() ==
                                "structural mutate result does not match the declared type");
                          CHECK(m->VarRemapSetExpected(ffi::Any(1), ffi::Any(2)).is_err());
                          return a;
                        });
}

void test_errors_propagate() {
  CHECK_THROWS(ffi::StructuralMap<ffi::WalkOrder::kPostOrder>(Sample(),
                                                              [](int64_t) -> int64_t {
                                                                TVM_FFI_THROW(ValueError) << "boom";
                                                              }),
               "ValueError", "boom");
  CHECK_THROWS(ffi::StructuralMutate(Sample(),
                                     [](int64_t v, ffi::StructuralMutatorObj* m) {
                                       m->VarRemapSet(ffi::Any(v), ffi::Any(1));
                                       return v;
                                     }),
               "TypeError", "Variable-remap key must be an object-backed value");
  ffi::List<ffi::Any> cyclic{ffi::Any(1)};
  cyclic.push_back(cyclic);
  CHECK_THROWS(ffi::StructuralMap<ffi::WalkOrder::kPostOrder>(cyclic, [](int64_t v) { return v; }),
               "ValueError", "cycle detected");
  cyclic.clear();
  // A callback that mutates its own value again recurses until the C stack bound.
  CHECK_THROWS(ffi::StructuralMutate(ffi::Any(1),
                                     [](int64_t v, ffi::StructuralMutatorObj* m) {
                                       return m->Mutate(ffi::Any(v)).ValueOrUnchanged(ffi::Any(v));
                                     }),
               "RecursionError", "structural mutation nested too deeply");
}

int main() {
  RUN(test_walk_orders_and_skip);
  RUN(test_walk_interrupt_and_regions);
  RUN(test_reference_spellings);
  RUN(test_visit_callbacks_own_descent);
  RUN(test_map_copy_on_write);
  RUN(test_map_in_place_when_moved);
  RUN(test_mutate_callbacks_and_mutator);
  RUN(test_unchanged_or_and_expected_hooks);
  RUN(test_errors_propagate);
  return CHECK_MAIN_RESULT();
}
