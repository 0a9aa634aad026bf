// invalid-axis-separators: `axis_separators` of a TIR buffer that FlattenBuffer rejects (TVM bug
// 4: caught only deep inside the pass).
//
// Invariants:
//  - Error: what the Buffer constructor rejects since v0.18: a negative separator, one beyond the
//    rank, a decreasing pair. Range: the separator at fault.
//  - Warning (only when there is no error, and never on a 0-d buffer, where TVM's own
//    set_axis_separator writes `[0]`): a separator that leaves a physical axis without logical
//    axes (`[0]`, a repeat, `[rank]`): TVM <= 0.17 fails in FlattenBuffer, newer TVM builds an
//    extent-1 axis.
//  - Symbolic separators are silent (the lowering sends only all-constant lists).
//  - Fixes: sort (preferred, for a decreasing pair of in-range separators); drop the offending
//    separators, or remove the keyword when none remain.
#include <algorithm>

#include "check/check.h"
#include "types/struct_info.h"

namespace tvmls::analysis::check {
namespace {

std::string PrintList(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::vector<Fix> Fixes(const AxisSeparators& a, int64_t rank, bool offer_sort) {
  std::vector<Fix> fixes;
  if (offer_sort) {
    std::vector<int64_t> sorted = a.values;
    std::sort(sorted.begin(), sorted.end());
    Fix f;
    f.title = "Sort axis_separators to " + PrintList(sorted);
    f.preferred = true;
    f.edits.push_back({a.list_range, PrintList(sorted)});
    fixes.push_back(std::move(f));
  }
  std::vector<int64_t> kept;
  for (int64_t s : a.values) {
    if (s > 0 && s < rank && (kept.empty() || s > kept.back())) kept.push_back(s);
  }
  Fix drop;
  drop.preferred = !offer_sort;
  if (kept.empty() && !a.keyword_removal.empty()) {
    drop.title = "Remove axis_separators";
    drop.edits.push_back({a.keyword_removal, ""});
  } else {
    drop.title = "Drop the offending axis separators: " + PrintList(kept);
    drop.edits.push_back({a.list_range, PrintList(kept)});
  }
  fixes.push_back(std::move(drop));
  return fixes;
}

class AxisSeparatorsCheck : public Check {
 public:
  void OnAxisSeparators(const AxisSeparators& a, Sink& sink) override {
    const BufferDecl& decl = *a.buffer;
    if (!decl.shape || a.values.empty()) return;
    const std::vector<int64_t>& seps = a.values;
    const int64_t rank = static_cast<int64_t>(decl.shape->size());
    const std::string who = decl.name.empty() ? std::string("the buffer") : "buffer `" + decl.name + "`";
    const std::string rank_text = " (rank " + std::to_string(rank) + ")";
    auto add = [&](size_t i, Severity severity, std::string msg, bool offer_sort) {
      Diagnostic& d = sink.Add(a.item_ranges[i], severity, "invalid-axis-separators", std::move(msg));
      if (!decl.shape_range.empty()) {
        d.related.push_back({decl.shape_range, who + " has shape " + types::PrintShape(*decl.shape)});
      }
      d.fixes = Fixes(a, rank, offer_sort);
    };
    // Errors: the constructor's rule (v0.18+): non-negative, non-decreasing, <= rank.
    bool error = false;
    for (size_t i = 0; i < seps.size(); ++i) {
      std::string msg;
      if (seps[i] < 0) {
        msg = "axis_separators[" + std::to_string(i) + "] = " + std::to_string(seps[i]) +
              " is negative; separators must be within 0.." + std::to_string(rank) + rank_text;
      } else if (seps[i] > rank) {
        msg = "axis_separators[" + std::to_string(i) + "] = " + std::to_string(seps[i]) +
              " is beyond the rank of " + who + rank_text +
              "; separators must be non-decreasing and within 0.." + std::to_string(rank);
      } else if (i > 0 && seps[i] < seps[i - 1]) {
        msg = "axis_separators must be non-decreasing, but axis_separators[" +
              std::to_string(i - 1) + "] = " + std::to_string(seps[i - 1]) + " > axis_separators[" +
              std::to_string(i) + "] = " + std::to_string(seps[i]);
      }
      if (msg.empty()) continue;
      error = true;
      bool sortable = i > 0 && seps[i] < seps[i - 1] && seps[i] >= 0 && seps[i] <= rank;
      add(i, Severity::kError, std::move(msg), sortable);
    }
    // `[0]` on a 0-d buffer is what TVM's own set_axis_separator writes: not worth a warning.
    if (error || rank == 0) return;
    // Warnings: legal since v0.18 but a physical axis is left without logical axes.
    for (size_t i = 0; i < seps.size(); ++i) {
      std::string msg;
      if (i == 0 && seps[0] == 0) {
        msg = "axis_separators[0] = 0 leaves the first physical axis of " + who +
              " without input axes; TVM <= 0.17 rejects this in FlattenBuffer, newer TVM makes an "
              "extent-1 axis";
      } else if (i > 0 && seps[i] == seps[i - 1]) {
        msg = "axis_separators[" + std::to_string(i) + "] repeats " + std::to_string(seps[i]) +
              ", leaving a physical axis of " + who + " without input axes";
      } else if (i + 1 == seps.size() && seps[i] == rank) {
        msg = "separator " + std::to_string(seps[i]) + " leaves the last physical axis of " + who +
              rank_text +
              " without input axes; TVM <= 0.17 fails in FlattenBuffer ('Last output axis must "
              "contain at least one input axis'), newer TVM produces an extent-1 axis";
      }
      if (!msg.empty()) add(i, Severity::kWarning, std::move(msg), false);
    }
  }
};

}  // namespace

std::unique_ptr<Check> MakeAxisSeparatorsCheck() { return std::make_unique<AxisSeparatorsCheck>(); }

}  // namespace tvmls::analysis::check
