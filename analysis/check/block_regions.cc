// missing-read-region / missing-write-region: a block's explicit T.reads / T.writes that do not
// name a buffer its body accesses.
//
// Invariants:
//  - Only when the block writes the annotation (TVM infers both when absent). Accesses directly
//    in the block (nested blocks have their own), buffers the block allocates, declares or
//    matches excluded, match_buffer sources excluded. An annotation argument tvmls cannot read
//    counts as naming every buffer. A read of a buffer the block writes is an update (the
//    reduction pattern `B[i] = B[i] + ...`; TVM's printer leaves such reads out of T.reads) and
//    needs no read region.
//  - Warning: TVM's parser accepts it, but schedules and analyses trust the regions (the
//    reduction analysis rejects an unlisted write: "is written in the block but is not in the
//    block's signature").
//  - Once per buffer and annotation, at the first access. Range: the access; related: the
//    block. Fix (preferred) when the annotation's argument list can take one more region: the
//    access as written is added.
#include <set>

#include "check/check.h"

namespace tvmls::analysis::check {
namespace {

class BlockRegionCheck : public Check {
 public:
  void OnBlockRegions(const BlockRegions& b, Sink& sink) override {
    std::set<std::string> reported_reads, reported_writes, stored;
    for (const BlockRegions::Access& a : b.accesses) {
      if (a.store) stored.insert(a.buffer);
    }
    for (const BlockRegions::Access& a : b.accesses) {
      const BlockRegions::Annotation& ann = a.store ? b.writes : b.reads;
      std::set<std::string>& reported = a.store ? reported_writes : reported_reads;
      if (!ann.present || ann.covers_all || ann.buffers.count(a.buffer)) continue;
      if (!a.store && (b.writes.buffers.count(a.buffer) || stored.count(a.buffer))) continue;  // an update
      if (!reported.insert(a.buffer).second) continue;
      const char* code = a.store ? "missing-write-region" : "missing-read-region";
      const char* what = a.store ? "T.writes" : "T.reads";
      std::string block = b.block.empty() ? "the block" : "block \"" + b.block + "\"";
      Diagnostic& d = sink.Add(a.range, Severity::kWarning, code,
                               std::string(a.store ? "writes" : "reads") + " buffer `" + a.buffer + "`, which " +
                                   what + " of " + block + " does not list");
      d.related.push_back({b.block_range, "the block"});
      if (ann.insert_at) {
        Fix fix;
        fix.title = std::string("Add `") + a.text + "` to " + what;
        fix.preferred = true;
        fix.edits.push_back({TextRange{*ann.insert_at, *ann.insert_at}, (ann.insert_needs_comma ? ", " : "") + a.text});
        d.fixes.push_back(std::move(fix));
      }
    }
  }
};

}  // namespace

std::unique_ptr<Check> MakeBlockRegionCheck() { return std::make_unique<BlockRegionCheck>(); }

}  // namespace tvmls::analysis::check
