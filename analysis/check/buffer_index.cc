// buffer-index-arity / buffer-index-out-of-bounds: a TIR buffer access `B[i, j]` against the
// buffer's declared shape.
//
// Invariants:
//  - Arity: more indices than the rank is an error; fewer is an error unless the era reads it as
//    a region (the current era's `A[0]` on a 3-D buffer). A 1-index access to a multi-dim buffer
//    is the flattened form only for `T.Buffer(..., data=...)` aliases, which are declared 1-D.
//  - Bounds: only a constant index against a constant extent; anything symbolic is silent (loop
//    ranges are not considered yet). Regions (`A[0:4]`) are not points: bounds are not checked.
//  - Range: the indices (arity) or the index at fault (bounds); related: the declared shape.
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
};

}  // namespace

std::unique_ptr<Check> MakeBufferIndexCheck() { return std::make_unique<BufferIndexCheck>(); }

}  // namespace tvmls::analysis::check
