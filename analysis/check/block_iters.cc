// block-iter-domain-mismatch: block iterators against their bindings.
//
// Invariants:
//  - block-iter-domain-mismatch (warning): the binding of `vi = T.axis.spatial(dom, binding)`
//    provably reaches a value outside the domain [min, end) for some iteration that runs the
//    block (T.where and enclosing guards applied; what it reaches is attained, see
//    check::IndexReach). TVM's parser accepts it (verify_well_formed does not look at domains),
//    but the domain is a promise schedule primitives rely on. Range: the domain; related: the
//    loop. Fix (preferred) when the domain is an integer literal, the binding never goes below 0
//    and its largest value is a constant: the domain becomes that value + 1.
//  - No check on a store indexed by a reduction iterator: a scan (`A[vi, vk] = A[vi, vk - 1] +
//    ...` with vk reduce) does that legitimately (TVM's tests write it), and the iterator does
//    carry the order there; only schedule primitives that need a reduction block refuse it.
#include "check/check.h"

namespace tvmls::analysis::check {
namespace {

class BlockIterCheck : public Check {
 public:
  void OnBlockIter(const BlockIter& it, Sink& sink) override {
    if (!it.reach || !it.dom_min || !it.dom_end) return;
    const IndexReach& r = *it.reach;
    std::string reached;
    if (r.facts.ProveLessEqual(*it.dom_end, r.max) == arith::Tri::kProved) {
      reached = r.max.ToString();
    } else if (r.facts.ProveLess(r.min, *it.dom_min) == arith::Tri::kProved) {
      reached = r.min.ToString();
    } else {
      return;
    }
    std::string where = r.loops.empty() ? "" : " (" + r.loops + ")";
    Diagnostic& d = sink.Add(it.domain_range, Severity::kWarning, "block-iter-domain-mismatch",
                             "block iterator `" + it.name + "` is bound to `" + it.binding_text + "`, which reaches " +
                                 reached + " outside its domain [" + it.dom_min->ToString() + ", " +
                                 it.dom_end->ToString() + ")" + where);
    if (!r.loop_range.empty()) d.related.push_back({r.loop_range, "the loop"});
    std::optional<int64_t> hi = r.max.AsConst();
    if (it.domain_is_literal && hi && *hi >= 0 && r.facts.ProveLessEqual(0, r.min) == arith::Tri::kProved) {
      Fix fix;
      fix.title = "Widen the domain of `" + it.name + "` to " + std::to_string(*hi + 1);
      fix.preferred = true;
      fix.edits.push_back({it.domain_range, std::to_string(*hi + 1)});
      d.fixes.push_back(std::move(fix));
    }
  }
};

}  // namespace

std::unique_ptr<Check> MakeBlockIterCheck() { return std::make_unique<BlockIterCheck>(); }

}  // namespace tvmls::analysis::check
