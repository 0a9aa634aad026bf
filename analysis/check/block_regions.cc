// block-access-undeclared / block-access-outside-region: the loads and stores of a TIR block
// against the `T.reads(...)` / `T.writes(...)` it writes out.
//
// What TVM does with these lists (v0.23 src/script/ir_builder/tir/frame.cc and
// src/tir/ir/script/script_complete.cc; HEAD src/tirx/script/builder/frame.cc and
// src/tirx/ir/script/script_complete.cc): a block that leaves a list out gets it inferred from
// its body (GetBlockAccessRegion); a list that is written out is kept exactly as written, and
// nothing compares it with the body: not the parser, not verify_well_formed (which only checks
// the variables used in the regions). Everything after trusts the lists: the schedule's
// dependence analysis (BlockScope, compute_at/inline, cache_read/write, reorder, blockize),
// buffer_access_lca_detector (where a reduction's output is allocated), CompactBufferAllocation
// (sizes a compacted buffer from the regions of opaque accesses), the software pipeline. An
// access the lists do not cover is therefore not rejected, and not always wrong at run time
// (an unscheduled function lowered as is runs correctly), but every transformation that reads
// the lists works from a false picture. Both codes are warnings for that reason: legal to TVM,
// and wrong as soon as a schedule or pass relies on the lists.
//
// Which accesses belong to which block is model/block_regions.h (TVM's detector: a block's own
// buffers, views, T.where, bindings and pointer arguments are in no list; a nested block's
// written-out entries count as accesses of the block around it; a reduction block (T.init) need
// not list the buffers it writes among its reads; buffers loaded inside a list's own indices,
// `T.reads(A[IA[vi]])`, need no entry).
//
// Invariants:
//  - block-access-undeclared (warning): a load (store) of a buffer that the block's written-out
//    T.reads (T.writes) does not name at all, when every entry of that list names a buffer tvmls
//    knows (an unknown name or a view might be the same memory: silent). One diagnostic per
//    block, list and buffer, at its first access; related: the list. Fix (preferred) when every
//    such access is the same single point written with the block's iterators and names bound
//    outside the block, and the list can take one more entry: append that subscript.
//  - block-access-outside-region (warning): an access whose index provably leaves the only
//    region the list declares for its buffer, for some iteration that executes it (what
//    `index - end` or `start - index` reaches, check::IndexReach with the guards in scope; a
//    nested block's entry the same way). Silent when not proved, when the list names the buffer
//    more than once (a union), or for dimensions a region leaves whole. Range: the index (the
//    nested entry); related: the region entry.
//  - Not checked: a store indexed by a reduction iterator (scans do it; see block_iters.cc),
//    regions wider than the accesses (TVM accepts over-approximation), entries no access uses.
#include "check/check.h"

#include <map>

namespace tvmls::analysis::check {
namespace {

class BlockRegionsCheck : public Check {
 public:
  void OnBlockRegions(const BlockRegions& e, Sink& sink) override {
    std::string block = e.block.empty() ? "the block" : "block \"" + e.block + "\"";
    // block-access-undeclared: grouped by list and buffer, in order of first access.
    std::vector<std::pair<bool, std::string>> order;
    std::map<std::pair<bool, std::string>, std::vector<const BlockRegions::Access*>> missing;
    for (const BlockRegions::Access& a : e.accesses) {
      const BlockRegions::List& list = a.write ? e.writes : e.reads;
      if (a.named || !list.complete) continue;
      auto key = std::make_pair(a.write, a.buffer);
      if (!missing.count(key)) order.push_back(key);
      missing[key].push_back(&a);
    }
    for (const auto& key : order) Undeclared(e, block, missing[key], sink);
    for (const BlockRegions::Access& a : e.accesses) {
      if (a.named && a.entry >= 0) Outside(e, block, a, sink);
    }
  }

 private:
  static const char* ListName(bool write) { return write ? "T.writes" : "T.reads"; }

  static void Undeclared(const BlockRegions& e, const std::string& block,
                         const std::vector<const BlockRegions::Access*>& accesses, Sink& sink) {
    const BlockRegions::Access& first = *accesses.front();
    const BlockRegions::List& list = first.write ? e.writes : e.reads;
    const char* verb = first.write ? "writes" : "reads";
    std::string what = first.inner_block.empty()
                           ? "`" + first.text + "`"
                           : "`" + first.text + "` (the " + ListName(first.write) + " of its nested block \"" +
                                 first.inner_block + "\")";
    std::string more = accesses.size() > 1 ? " and " + std::to_string(accesses.size() - 1) + " more" : "";
    Diagnostic& d = sink.Add(first.range, Severity::kWarning, "block-access-undeclared",
                             block + " " + verb + " " + what + more + ", but its " + ListName(first.write) +
                                 " does not name `" + first.buffer +
                                 "`: TVM keeps the list as written, so schedules and passes will not see this access");
    d.related.push_back({list.range, std::string("the ") + ListName(first.write) + " of " + block});
    std::optional<std::string> text = first.region_text;
    for (const BlockRegions::Access* a : accesses) {
      if (!a->region_text || a->region_text != text) text.reset();
    }
    if (text && list.append_at) {
      Fix fix;
      fix.title = "Add `" + *text + "` to " + ListName(first.write);
      fix.preferred = true;
      fix.edits.push_back({TextRange{*list.append_at, *list.append_at}, list.separator + *text});
      d.fixes.push_back(std::move(fix));
    }
  }

  static void Outside(const BlockRegions& e, const std::string& block, const BlockRegions::Access& a, Sink& sink) {
    const BlockRegions::List& list = a.write ? e.writes : e.reads;
    if (a.entry < 0 || static_cast<size_t>(a.entry) >= list.entries.size()) return;
    const BlockRegions::List::Entry& entry = list.entries[a.entry];
    for (const BlockRegions::Dim& dim : a.dims) {
      const IndexReach* r = nullptr;
      const char* side = "";
      if (dim.above && dim.above->facts.ProveLessEqual(1, dim.above->max) == arith::Tri::kProved) {
        r = &*dim.above;
        side = "past its end";
      } else if (dim.below && dim.below->facts.ProveLessEqual(1, dim.below->max) == arith::Tri::kProved) {
        r = &*dim.below;
        side = "before its start";
      } else {
        continue;
      }
      std::string where = r->loops.empty() ? "" : " (" + r->loops + ")";
      std::string who = a.inner_block.empty() ? "`" + a.text + "`"
                                              : "nested block \"" + a.inner_block + "\"'s " + ListName(a.write) +
                                                    " entry `" + a.text + "`";
      Diagnostic& d = sink.Add(dim.index_range, Severity::kWarning, "block-access-outside-region",
                               who + " leaves the region `" + entry.text + "` that the " + ListName(a.write) +
                                   " of " + block + " declares: on dimension " + std::to_string(dim.dim) + ", `" +
                                   dim.index_text + "` goes up to " + r->max.ToString() + " " + side + where);
      d.related.push_back({entry.range, std::string("the region in ") + ListName(a.write)});
      if (!r->loop_range.empty()) d.related.push_back({r->loop_range, "the loop"});
      return;
    }
  }
};

}  // namespace

std::unique_ptr<Check> MakeBlockRegionsCheck() { return std::make_unique<BlockRegionsCheck>(); }

}  // namespace tvmls::analysis::check
