// return-annotation-mismatch: the value a Relax function returns provably contradicts its return
// annotation (rank, a dim, dtype, kind, number of tuple fields).
//
// Invariants:
//  - Information, never more by default: relax::Function's constructor keeps an annotation the
//    body's struct info does not refine, and nothing checks the returned value at run time, so
//    TVM accepts the module and callers see the annotation. A project raises the severity in its
//    configuration.
//  - Only a provable contradiction (types::CheckBase says kFailL0) is reported; vaguer
//    annotations and unprovable symbolic dims are silent.
//  - Fix (preferred, only when the returned struct info is fully known): write it as the
//    annotation, in the user's spelling where the annotation's structure allows.
#include "check/check.h"

namespace tvmls::analysis::check {
namespace {

class ReturnAnnotationCheck : public Check {
 public:
  void OnReturn(const Return& r, Sink& sink) override {
    if (r.annotation.IsUnknown() || r.value.IsUnknown()) return;
    arith::Facts none;
    types::BaseCheckDetail check = types::CheckBase(r.annotation, r.value, r.facts ? *r.facts : none);
    if (check.result != types::BaseCheck::kFailL0) return;
    std::string annotated = types::Print(r.annotation, r.print);
    std::string returned = types::Print(r.value, r.print);
    Diagnostic& d = sink.Add(r.value_range, Severity::kInformation, "return-annotation-mismatch",
                             "returned value is " + returned + " but the function is annotated to return " +
                                 annotated + " (" + check.reason + "); TVM keeps the annotation, so callers see " +
                                 annotated);
    d.related.push_back({r.annotation_range, "return annotation"});
    if (auto fix = AnnotationFix("Change the return annotation to " + returned, r.annotation_range, r.value, r.print,
                                 r.respell)) {
      d.fixes.push_back(std::move(*fix));
    }
  }
};

}  // namespace

std::unique_ptr<Check> MakeReturnAnnotationCheck() { return std::make_unique<ReturnAnnotationCheck>(); }

}  // namespace tvmls::analysis::check
