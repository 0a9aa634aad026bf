// Pass order: pass-order (warning) on a pass of a pipeline placed after a pass that broke what
// it needs.
//
// Invariants:
//  - The needs, breaks and establishments are the rows of vocab/passes.h, read from TVM's
//    source; a pass without a row (or a step that is not a pass constructor call) may establish
//    anything, so nothing before it counts against anything after it.
//  - Warning, not error: the module a pipeline runs on is unknown (a module without dataflow
//    blocks is not harmed by KillAfterLastUse before ToNonDataflow).
//  - One diagnostic per pass and broken property, at the pass's constructor call, with the
//    breaking pass as related location. Fix (preferred): move the pass before the one that broke
//    its need (the constructor calls from there to it rotate, so a statement chain keeps its
//    variables), offered only when the moved pipeline has fewer pass-order problems.
#include <algorithm>

#include "check/check.h"
#include "vocab/passes.h"

namespace tvmls::analysis::check {
namespace {

struct Problem {
  size_t step = 0;     // the pass whose need is broken
  size_t breaker = 0;  // the pass that broke it
  vocab::PassProperty property = vocab::kPureDataflowBlocks;
};

// The problems of a pipeline whose steps are the passes `names`, in order.
std::vector<Problem> Simulate(const std::vector<const std::string*>& names) {
  std::vector<Problem> out;
  uint32_t broken = 0;
  size_t breaker[32] = {};
  for (size_t i = 0; i < names.size(); ++i) {
    const vocab::PassInfo* info = vocab::FindPass(*names[i]);
    if (info == nullptr) {
      broken = 0;
      continue;
    }
    for (uint32_t bit = 0; bit < 32; ++bit) {
      uint32_t mask = 1u << bit;
      if ((info->needs & broken & mask) != 0) out.push_back({i, breaker[bit], static_cast<vocab::PassProperty>(mask)});
    }
    broken &= ~info->establishes;
    if ((info->breaks_while & broken) == 0) {
      for (uint32_t bit = 0; bit < 32; ++bit) {
        if ((info->breaks & (1u << bit)) == 0) continue;
        broken |= 1u << bit;
        breaker[bit] = i;
      }
    }
  }
  return out;
}

// The pipeline's order with step `from` moved to `to` (< from).
std::vector<const std::string*> Moved(std::vector<const std::string*> names, size_t from, size_t to) {
  std::rotate(names.begin() + static_cast<long>(to), names.begin() + static_cast<long>(from),
              names.begin() + static_cast<long>(from) + 1);
  return names;
}

}  // namespace

std::vector<Diagnostic> PassOrder(const Pipeline& pipeline) {
  const std::vector<PipelineStep>& steps = pipeline.steps;
  std::vector<const std::string*> names;
  for (const PipelineStep& s : steps) names.push_back(&s.pass);
  std::vector<Problem> problems = Simulate(names);
  std::vector<Diagnostic> out;
  for (const Problem& p : problems) {
    const PipelineStep& step = steps[p.step];
    const PipelineStep& breaker = steps[p.breaker];
    Diagnostic d;
    d.range = step.range;
    d.severity = Severity::kWarning;
    d.code = "pass-order";
    d.message = "`" + step.pass + "` runs after `" + breaker.pass + "`, which " +
                vocab::PropertyBrokenText(p.property) + "; " + step.pass + " " +
                vocab::PropertyNeededText(p.property);
    d.related.push_back({breaker.range, "`" + breaker.pass + "` runs here"});
    if (Simulate(Moved(names, p.step, p.breaker)).size() < problems.size()) {
      Fix f;
      f.title = "Move `" + step.pass + "` before `" + breaker.pass + "`";
      f.preferred = true;
      for (size_t k = p.breaker; k <= p.step; ++k) {
        const PipelineStep& now = k == p.breaker ? step : steps[k - 1];
        f.edits.push_back({steps[k].range, now.text});
      }
      d.fixes.push_back(std::move(f));
    }
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace tvmls::analysis::check
