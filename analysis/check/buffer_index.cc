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
//  - Compacted buffers (check::CompactedAccess: every `T.alloc_buffer`/`T.sblock_alloc_buffer`,
//    in a block, the root block or the function; not parameters, match_buffer or decl_buffer):
//    TVM's default lowering moves the allocation to the lowest scope common to its loads and
//    stores (PlanAndUpdateBufferAllocationLocation), and CompactBufferAllocation (is_strict=True in
//    every pipeline) rebuilds each dimension from what one instance of that scope accesses, loops
//    around it fixed except the thread loops its storage scope spans (threadIdx for shared,
//    threadIdx.x for warp, blockIdx and threadIdx for global): origin max(0, min), extent at most
//    the declared one. So a negative index is still an error, but reaching past the end is one
//    only when, with the loops
//    around that common scope fixed, the index alone spans more values than the extent, or it
//    (a constant too) reaches that far above the least value another index over loops attains
//    there (judged at the end of the function, once every access is known). Accesses tvmls does
//    not see only lower the common scope it computes, which relaxes fewer loops, and only raise
//    the least value: sound.
//  - Range: the indices (arity) or the index at fault (bounds); related: the declared shape, and
//    the innermost loop involved.
#include <functional>
#include <map>

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
    if (a.compacted) NoteAccess(a);
    for (size_t k = 0; k < rank; ++k) {
      if (!a.indices[k].value) {
        if (a.indices[k].reach && !b.view) CheckReach(a, k, declared, sink);
        continue;
      }
      const std::optional<int64_t>& idx = a.indices[k].value;
      std::optional<int64_t> dim = (*b.shape)[k].AsConst();
      if (!idx || !dim || (*idx >= 0 && *idx < *dim)) continue;
      if (*idx >= 0 && a.compacted) {  // past the end: judged with the other accesses
        pending_.push_back(Pending{a.compacted->alloc, a.indices[k].range, a.indices[k].text, a.name, declared, k,
                                   *dim, b.shape_range, {}, *idx});
        continue;
      }
      Diagnostic& d = sink.Add(a.indices[k].range, Severity::kError, "buffer-index-out-of-bounds",
                               "index " + std::to_string(*idx) + " is out of bounds for dimension " +
                                   std::to_string(k) + " of buffer `" + a.name + "` (extent " +
                                   std::to_string(*dim) + ")");
      if (!b.shape_range.empty()) d.related.push_back({b.shape_range, declared});
    }
  }

  // Compacted buffers: an index past the end is wrong only when, within one instance of the
  // lowest scope common to every access of the allocation, it alone spans more values than the
  // extent, or it reaches that far above the least value another access there attains.
  void OnFunctionEnd(Sink& sink) override {
    for (const Pending& p : pending_) {
      const size_t fixed = common_.at(p.alloc).size();
      const std::optional<IndexReach> within = p.within ? p.within(fixed) : std::nullopt;
      const IndexReach* w = within ? &*within : nullptr;
      if (w == nullptr && !p.value) continue;
      const arith::Expr max = w ? w->max : arith::Expr(*p.value);
      const arith::Facts facts = w ? w->facts : arith::Facts{};
      if (w != nullptr && facts.ProveLessEqual(p.dim, w->max - w->min) == arith::Tri::kProved) {
        Report(p, w->min, max, w->loops, w->loop_range, nullptr, sink);
        continue;
      }
      for (Other& o : others_) {
        if (o.alloc != p.alloc || o.k != p.k || o.range == p.range) continue;
        const std::optional<IndexReach>& ow = o.Within(fixed);
        if (!ow) continue;
        if (facts.ProveLessEqual(p.dim, max - ow->min) != arith::Tri::kProved) continue;
        Report(p, ow->min, max, ow->loops, ow->loop_range, &o, sink);
        break;
      }
    }
    pending_.clear();
    others_.clear();
    common_.clear();
  }

 private:
  // An index past the end of a compacted buffer, judged at the end of the function.
  struct Pending {
    uint32_t alloc = 0;
    TextRange range;
    std::string text, name, declared;
    size_t k = 0;
    arith::Expr dim;
    TextRange shape_range;
    std::function<std::optional<IndexReach>(size_t)> within;  // BufferAccess::Index::within
    std::optional<int64_t> value;                              // a constant index
  };
  // An index over loops of a compacted buffer: the least value it attains bounds the origin.
  struct Other {
    uint32_t alloc = 0;
    size_t k = 0;
    TextRange range;
    std::string text;
    std::function<std::optional<IndexReach>(size_t)> within;  // BufferAccess::Index::within

    // within(fixed), computed once: every pending index of the allocation asks with the same `fixed`.
    const std::optional<IndexReach>& Within(size_t fixed) {
      if (!cached || cached_fixed != fixed) {
        cached = within(fixed);
        cached_fixed = fixed;
      }
      return *cached;
    }
    std::optional<std::optional<IndexReach>> cached;
    size_t cached_fixed = 0;
  };

  // `p` spans [min, max] in one instance (with `other`, the access attaining min).
  static void Report(const Pending& p, const arith::Expr& min, const arith::Expr& max, const std::string& loops,
                     TextRange loop_range, const Other* other, Sink& sink) {
    std::string what = other ? "`" + p.text + "` and `" + other->text + "` span" : "`" + p.text + "` spans";
    std::string where = loops.empty() ? "" : " (" + loops + ")";
    Diagnostic& d = sink.Add(p.range, Severity::kError, "buffer-index-out-of-bounds",
                             what + " [" + min.ToString() + ", " + max.ToString() + "] on dimension " +
                                 std::to_string(p.k) + " of buffer `" + p.name + "` (extent " + p.dim.ToString() +
                                 ") within one instance of the scope that allocates it" + where + ": " +
                                 (max - min + 1).ToString() + " values, more than TVM's buffer compaction keeps");
    if (!p.shape_range.empty()) d.related.push_back({p.shape_range, p.declared});
    if (other != nullptr) d.related.push_back({other->range, "the access at " + min.ToString()});
    if (!loop_range.empty()) d.related.push_back({loop_range, "the loop"});
  }

  // The scopes common to every access of the allocation so far, and the indices over loops.
  void NoteAccess(const BufferAccess& a) {
    const CompactedAccess& c = *a.compacted;
    for (size_t k = 0; k < a.indices.size(); ++k) {
      if (a.indices[k].within) others_.push_back(Other{c.alloc, k, a.indices[k].range, a.indices[k].text, a.indices[k].within, {}, 0});
    }
    auto [it, first] = common_.emplace(c.alloc, c.path);
    if (first) return;
    std::vector<uint32_t>& common = it->second;
    size_t n = 0;
    while (n < common.size() && n < c.path.size() && common[n] == c.path[n]) ++n;
    common.resize(n);
  }

  // An index over loops: what it reaches against the extent of dimension k.
  void CheckReach(const BufferAccess& a, size_t k, const std::string& declared, Sink& sink) {
    const BufferDecl& b = *a.buffer;
    const IndexReach& r = *a.indices[k].reach;
    const arith::Expr& dim = (*b.shape)[k];
    const bool over = r.facts.ProveLessEqual(dim, r.max) == arith::Tri::kProved;
    const bool under = !(over && !a.compacted) && r.facts.ProveLess(r.min, 0) == arith::Tri::kProved;
    if (over && a.compacted && !under) {
      pending_.push_back(Pending{a.compacted->alloc, a.indices[k].range, a.indices[k].text, a.name, declared, k, dim,
                                 b.shape_range, a.indices[k].within, std::nullopt});
      return;
    }
    if (!over && !under) return;
    std::string reached = under ? r.min.ToString() : r.max.ToString();
    std::string where = r.loops.empty() ? "" : " (" + r.loops + ")";
    Diagnostic& d = sink.Add(a.indices[k].range, Severity::kError, "buffer-index-out-of-bounds",
                             "`" + a.indices[k].text + "` reaches " + reached + " on dimension " + std::to_string(k) +
                                 " of buffer `" + a.name + "` (extent " + dim.ToString() + ")" + where);
    if (!b.shape_range.empty()) d.related.push_back({b.shape_range, declared});
    if (!r.loop_range.empty()) d.related.push_back({r.loop_range, "the loop"});
  }

  std::vector<Pending> pending_;
  std::vector<Other> others_;
  std::map<uint32_t, std::vector<uint32_t>> common_;
};

}  // namespace

std::unique_ptr<Check> MakeBufferIndexCheck() { return std::make_unique<BufferIndexCheck>(); }

}  // namespace tvmls::analysis::check
