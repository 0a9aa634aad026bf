// shape-mismatch / dtype-mismatch: a struct info annotation that provably contradicts the value
// it annotates.
//
// Invariants:
//  - Error on a binding annotation (`y: R.Tensor((2, 5), "float32") = R.matmul(...)`: TVM's
//    parser rejects it, "Invalid annotation", when the base check fails at level 0) and on an
//    R.match_cast that can never succeed. Ranges: the whole annotation; the match_cast target.
//  - dtype-mismatch when the first difference is the dtype, shape-mismatch otherwise (rank, a
//    dim, the number of tuple fields, the kind).
//  - Vaguer annotations, unknown dtypes and unprovable symbolic dims are silent (types::CheckBase
//    says kFailL0 only for provable contradictions).
//  - Fix (binding annotations, preferred, when the value's struct info is fully known): write it,
//    in the user's spelling where the annotation's structure allows.
//  - Returned values are return-annotation-mismatch (check/return_annotation.cc).
#include "check/check.h"

namespace tvmls::analysis::check {
namespace {

const char* CodeOf(const types::BaseCheckDetail& check) {
  return check.reason.rfind("dtype", 0) == 0 ? "dtype-mismatch" : "shape-mismatch";
}

class AnnotationCheck : public Check {
 public:
  void OnBindingAnnotation(const BindingAnnotation& b, Sink& sink) override {
    if (b.declared.IsUnknown() || b.value.IsUnknown()) return;
    arith::Facts none;
    types::BaseCheckDetail check = types::CheckBase(b.declared, b.value, b.facts ? *b.facts : none);
    if (check.result != types::BaseCheck::kFailL0) return;
    std::string inferred = types::Print(b.value, b.print);
    Diagnostic& d = sink.Add(b.annotation_range, Severity::kError, CodeOf(check),
                             "annotation " + types::Print(b.declared, b.print) +
                                 " contradicts the value's inferred struct info " + inferred + " (" +
                                 check.reason + ")");
    d.related.push_back({b.value_range, "value inferred as " + inferred});
    if (auto fix = AnnotationFix("Annotate with the inferred struct info " + inferred, b.annotation_range, b.value,
                                 b.print, b.respell)) {
      d.fixes.push_back(std::move(*fix));
    }
  }

  void OnMatchCast(const MatchCast& m, Sink& sink) override {
    if (m.target.IsUnknown() || m.value.IsUnknown()) return;
    arith::Facts none;
    types::BaseCheckDetail check = types::CheckBase(m.target, m.value, m.facts ? *m.facts : none);
    if (check.result != types::BaseCheck::kFailL0) return;
    sink.Add(m.target_range, Severity::kError, CodeOf(check),
             "R.match_cast can never succeed: the value is " + types::Print(m.value, m.print) + " and the target " +
                 types::Print(m.target, m.print) + " (" + check.reason + ")");
  }
};

}  // namespace

std::unique_ptr<Check> MakeAnnotationCheck() { return std::make_unique<AnnotationCheck>(); }

}  // namespace tvmls::analysis::check
