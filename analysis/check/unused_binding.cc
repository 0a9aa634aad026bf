// unused-binding: a pure Relax binding whose variable nothing reads (hint, tag Unnecessary, so
// editors fade it).
//
// Invariants:
//  - Which bindings are unused is the lowering's name resolution (no reference, the name spelled
//    nowhere else in the function, and not joined with a used binding of the other branch); this
//    check only words it.
//  - Hint severity: TVM accepts unused bindings (dead-code elimination removes them).
#include "check/check.h"

namespace tvmls::analysis::check {
namespace {

class UnusedBindingCheck : public Check {
 public:
  void OnUnusedBinding(const UnusedBinding& b, Sink& sink) override {
    sink.Add(b.definition, Severity::kHint, "unused-binding", "`" + b.name + "` is never used");
  }
};

}  // namespace

std::unique_ptr<Check> MakeUnusedBindingCheck() { return std::make_unique<UnusedBindingCheck>(); }

}  // namespace tvmls::analysis::check
