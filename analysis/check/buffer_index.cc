// buffer-index-arity / buffer-index-out-of-bounds: a TIR buffer access `B[i, j]` against the
// buffer's declared shape.
//
// Invariants:
//  - Arity: more indices than the rank is an error; fewer is an error unless the era reads it as
//    a region (the current era's `A[0]` on a 3-D buffer). A 1-index access to a multi-dim buffer
//    is the flattened form only for `T.Buffer(..., data=...)` aliases, which are declared 1-D.
//  - Bounds: a constant index against a constant extent; an index over loops when what it reaches
//    (check::IndexReach: attained over the iterations that execute it, guards applied) is
//    provably >= the extent or < 0 under the facts there. Anything not proved is silent, and so
//    are views (`data=`, `strides=`, `elem_offset=`) for loop-dependent indices. Regions
//    (`A[0:4]`, T.reads/T.writes) are not points: bounds are not checked.
//  - Range: the indices (arity) or the index at fault (bounds); related: the declared shape, and
//    the innermost loop involved.
#include "check/check.h"
#include "types/struct_info.h"

namespace tvmls::analysis::check {
namespace {

class BufferIndexCheck : public Check {
 public:
  void OnBufferAccess(const BufferAccess& a, Sink& sink) override {
    const BufferDecl& b = *a.buffer;
    if (!b.shape) return;
    const size_t rank = b.shape->size();
    const size_t count = a.indices.size();
    std::string declared = "`" + a.name + "` declared with shape " + types::PrintShape(*b.shape);
    if (count > rank || (count < rank && !a.partial_allowed)) {
      Diagnostic& d = sink.Add(a.index_range, Severity::kError, "buffer-index-arity",
                               "buffer `" + a.name + "` has " + std::to_string(rank) + " dimension" +
                                   (rank == 1 ? "" : "s") + " but is indexed with " + std::to_string(count) +
                                   " ind" + (count == 1 ? "ex" : "ices"));
      if (!b.name_range.empty()) d.related.push_back({b.shape_range.empty() ? b.name_range : b.shape_range, declared});
      return;
    }
    if (a.region || count != rank) return;
    for (size_t k = 0; k < rank; ++k) {
      if (!a.indices[k].value) {
        if (a.indices[k].reach && !b.view) CheckReach(a, k, declared, sink);
        continue;
      }
      const std::optional<int64_t>& idx = a.indices[k].value;
      std::optional<int64_t> dim = (*b.shape)[k].AsConst();
      if (!idx || !dim || (*idx >= 0 && *idx < *dim)) continue;
      Diagnostic& d = sink.Add(a.indices[k].range, Severity::kError, "buffer-index-out-of-bounds",
                               "index " + std::to_string(*idx) + " is out of bounds for dimension " +
                                   std::to_string(k) + " of buffer `" + a.name + "` (extent " +
                                   std::to_string(*dim) + ")");
      if (!b.shape_range.empty()) d.related.push_back({b.shape_range, declared});
    }
  }

 private:
  // An index over loops: what it reaches against the extent of dimension k.
  static void CheckReach(const BufferAccess& a, size_t k, const std::string& declared, Sink& sink) {
    const BufferDecl& b = *a.buffer;
    const IndexReach& r = *a.indices[k].reach;
    const arith::Expr& dim = (*b.shape)[k];
    std::string reached;
    if (r.facts.ProveLessEqual(dim, r.max) == arith::Tri::kProved) {
      reached = r.max.ToString();
    } else if (r.facts.ProveLess(r.min, 0) == arith::Tri::kProved) {
      reached = r.min.ToString();
    } else {
      return;
    }
    std::string where = r.loops.empty() ? "" : " (" + r.loops + ")";
    Diagnostic& d = sink.Add(a.indices[k].range, Severity::kError, "buffer-index-out-of-bounds",
                             "`" + a.indices[k].text + "` reaches " + reached + " on dimension " + std::to_string(k) +
                                 " of buffer `" + a.name + "` (extent " + dim.ToString() + ")" + where);
    if (!b.shape_range.empty()) d.related.push_back({b.shape_range, declared});
    if (!r.loop_range.empty()) d.related.push_back({r.loop_range, "the loop"});
  }
};

}  // namespace

std::unique_ptr<Check> MakeBufferIndexCheck() { return std::make_unique<BufferIndexCheck>(); }

}  // namespace tvmls::analysis::check
