// Pass order: pass-order (warning) on a pass of a pipeline placed after a pass that broke what
// it needs.
//
// Invariants:
//  - The needs, breaks and establishments are the rows of vocab/passes.h, read from TVM's
//    source; a pass without a row (or a step that is not a pass constructor call) may establish
//    anything, so nothing before it counts against anything after it.
//  - Steps in branches (model/pipeline.h: `if x: passes.append(...)`) may or may not run: a
//    need is broken only when it is broken on every way the branches can go that runs the pass
//    (a "must" analysis over the steps' branches: a breaker counts when it runs whenever the
//    pass does, a step in another branch that may run between them may establish it again, a
//    step in an excluded arm does not run).
//  - Warning, not error: the module a pipeline runs on is unknown (a module without dataflow
//    blocks is not harmed by KillAfterLastUse before ToNonDataflow).
//  - One diagnostic per pass and broken property, at the pass's constructor call, with the
//    breaking pass as related location. Fix (preferred): move the pass before the one that broke
//    its need (the texts of the steps from there to it rotate, so a statement chain keeps its
//    variables and a list built by appends its statements), offered only when the moved
//    pipeline has fewer pass-order problems, every step in between sits where any pass could
//    (PipelineStep::movable) in the same branches, and moving is a fix for that property.
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

// Whether every branch `outer` sits in is one `inner` sits in too (what runs at `outer` runs
// whenever `inner` does).
bool Within(const PipelineCond& inner, const PipelineCond& outer) {
  return std::includes(inner.begin(), inner.end(), outer.begin(), outer.end());
}

// Whether the two sit in different arms of one choice (never both run).
bool Exclusive(const PipelineCond& a, const PipelineCond& b) {
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i].first == b[j].first) {
      if (a[i].second != b[j].second) return true;
      ++i, ++j;
    } else if (a[i].first < b[j].first) {
      ++i;
    } else {
      ++j;
    }
  }
  return false;
}

// The problems of a pipeline whose steps are `steps`, in order.
std::vector<Problem> Simulate(const std::vector<const PipelineStep*>& steps) {
  std::vector<Problem> out;
  for (size_t j = 0; j < steps.size(); ++j) {
    const vocab::PassInfo* need = vocab::FindPass(steps[j]->pass);
    if (need == nullptr || need->needs == 0) continue;
    uint32_t must = 0, may = 0;  // broken on every way there, on some
    size_t breaker[32] = {};
    for (size_t k = 0; k < j; ++k) {
      if (Exclusive(steps[k]->cond, steps[j]->cond)) continue;
      bool always = Within(steps[j]->cond, steps[k]->cond);
      const vocab::PassInfo* info = vocab::FindPass(steps[k]->pass);
      if (info == nullptr) {  // may establish anything
        must = 0;
        if (always) may = 0;
        continue;
      }
      uint32_t now_must = must & ~info->establishes, now_may = may & ~info->establishes;
      uint32_t broke = 0;
      if ((info->breaks_while & may) == 0) {
        broke = info->breaks;
        now_must |= broke;
        now_may |= broke;
      } else if ((info->breaks_while & must) != info->breaks_while) {
        now_may |= info->breaks;
      }
      if (always) {
        must = now_must;
        may = now_may;
        for (uint32_t bit = 0; bit < 32; ++bit) {
          if ((broke & (1u << bit)) != 0) breaker[bit] = k;
        }
      } else {
        must &= now_must;
        may |= now_may;
      }
    }
    for (uint32_t bit = 0; bit < 32; ++bit) {
      uint32_t mask = 1u << bit;
      if ((need->needs & must & mask) != 0) out.push_back({j, breaker[bit], static_cast<vocab::PassProperty>(mask)});
    }
  }
  return out;
}

// The pipeline's order with step `from` moved to `to` (< from).
std::vector<const PipelineStep*> Moved(std::vector<const PipelineStep*> steps, size_t from, size_t to) {
  std::rotate(steps.begin() + static_cast<long>(to), steps.begin() + static_cast<long>(from),
              steps.begin() + static_cast<long>(from) + 1);
  return steps;
}

// Whether the texts of steps `from`..`to` may rotate: each sits where any pass could, in the
// same branches, and no text is there twice.
bool Rotatable(const std::vector<PipelineStep>& steps, size_t from, size_t to) {
  for (size_t k = from; k <= to; ++k) {
    if (!steps[k].movable || steps[k].cond != steps[to].cond) return false;
    for (size_t m = from; m < k; ++m) {
      if (steps[m].range.end > steps[k].range.begin && steps[k].range.end > steps[m].range.begin) return false;
    }
  }
  return true;
}

}  // namespace

std::vector<Diagnostic> PassOrder(const Pipeline& pipeline) {
  const std::vector<PipelineStep>& steps = pipeline.steps;
  std::vector<const PipelineStep*> order;
  for (const PipelineStep& s : steps) order.push_back(&s);
  std::vector<Problem> problems = Simulate(order);
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
    if (vocab::PropertyMoveFixes(p.property) && Rotatable(steps, p.breaker, p.step) &&
        Simulate(Moved(order, p.step, p.breaker)).size() < problems.size()) {
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
