// The accesses of TIR blocks against their written-out `T.reads` / `T.writes`, for the PrimFunc
// lowering (lower_prim*.cc): it tells the tracker where blocks start and end, which buffers are
// declared and which subscripts it meets; the tracker reports check::BlockRegions at each block's
// end. Internal to the lowering (not part of the model's interface).
//
// Which accesses belong to which list mirrors TVM's region detection (BlockReadWriteDetector in
// src/tir/analysis/block_access_region_detector.cc, which the parser's ScriptComplete runs for
// the lists a block leaves out):
//  - A load or store belongs to the innermost block around it, unless that block declares the
//    buffer (alloc_buffer, match_buffer, decl_buffer inside it): such buffers are in no list of
//    that block or of any block around it. Views (`data=`, `strides=`, `elem_offset=`) and
//    `T.Buffer(...)` objects made in the body are never judged (TVM tells buffers apart by object,
//    not by memory).
//  - When that block leaves the list out, TVM infers it from the accesses, and the block around
//    it then sees them: the access passes on to the enclosing block (a block with T.init and an
//    inferred T.reads stops reads: TVM drops the written buffers from them).
//  - A nested block's written-out entries are accesses of the enclosing block (TVM relaxes the
//    inner block's regions over the loops between).
//  - Reads of a buffer the block writes (its T.writes names it, or it stores to it when T.writes
//    is inferred) are dropped: TVM's detector leaves them out of a reduction block's reads, and
//    the write already orders the block against the buffer's other readers and writers.
//  - Not accesses: T.reads / T.writes themselves, bindings, T.where, match_buffer sources,
//    subscripts with a slice, arguments of T.address_of / T.tvm_access_ptr (pointers: TVM
//    counts them as opaque or reads, tvmls says nothing), partial subscripts (regions).
//  - Opaque blocks (no iterators, the root among them) are never judged, though their lists
//    take the accesses inside them as any block's do: TVM's own primitives emit opaque blocks
//    whose lists are empty or partial on purpose (loop_partition's `*_partition` blocks,
//    `T.reads()` / `T.writes()` around nested blocks), and CompactBufferAllocation reads an
//    opaque block's lists as the extent its opaque accesses are meant to have, "even if they
//    are not compatible with actual buffer accesses" (its test, test_compact_buffer_region.py).
#ifndef TVMLS_ANALYSIS_MODEL_BLOCK_REGIONS_H_
#define TVMLS_ANALYSIS_MODEL_BLOCK_REGIONS_H_

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "arith/expr.h"
#include "check/check.h"
#include "model/model.h"

namespace tvmls::analysis {

/// What the tracker asks of the lowering, at the point of the call.
struct BlockRegionHooks {
  std::string_view text;
  uint32_t base = 0;  // the function's start: ranges are relative to it
  const Aliases* aliases = nullptr;
  /// The expression at a node in terms of the loops in scope (nullopt: not followed).
  std::function<std::optional<arith::Expr>(TSNode)> resolve;
  /// What `e` reaches over the loops and guards in scope; for an expression over no loop, the
  /// constant itself when every guard in scope is known true; else nullopt.
  std::function<std::optional<check::IndexReach>(const arith::Expr&)> reach;
  /// Whether the name, used at the current point, would mean the same in the innermost block's
  /// T.reads: one of its iterators, or a name bound outside every loop and block (not a buffer).
  std::function<bool(const std::string&)> region_name_ok;
  std::function<void(const check::BlockRegions&)> report;
};

class BlockRegionTracker {
 public:
  explicit BlockRegionTracker(BlockRegionHooks hooks) : h_(std::move(hooks)) {}

  /// A buffer declared at the current point (parameters before the body).
  void Declare(const BufferDecl& b);
  /// A block starts: `call` is `T.block(...)`, `body` its suite; its iterators and T.where are in
  /// scope. `has_iters`: the block has iterators (an opaque block is never judged).
  void EnterBlock(TSNode call, TSNode body, bool has_iters);
  /// The innermost block ends: reports it when it writes out a list that has accesses.
  void ExitBlock();
  /// A subscript of the body outside regions, bindings, T.where and match_buffer arguments.
  void Access(TSNode subscript);

 private:
  struct BufferInfo {
    size_t depth = 0;  // blocks open at the declaration
    bool judged = true;
    size_t rank = 0;
    bool rank_known = false;
    std::vector<arith::Expr> shape;
  };
  // One interval per dimension; nullopt ends: not known (or the whole extent).
  struct Interval {
    std::optional<arith::Expr> lo, hi;
    TextRange range;
    std::string text;
  };
  // A region entry (or an access: one point per dimension). No dims: the whole buffer.
  struct Entry {
    std::string buffer;
    TextRange range;
    std::string text;
    std::vector<Interval> dims;
  };
  struct ListState {
    check::BlockRegions::List list;
    std::vector<Entry> entries;
  };
  struct Block {
    check::BlockRegions event;
    ListState reads, writes;
    bool judged = false;  // has iterators
    bool has_init = false;
    std::set<std::string> index_buffers;  // loaded inside the lists' own indices
    std::set<std::string> written;        // buffers stored anywhere inside
  };

  void ParseList(TSNode call, ListState* out, std::set<std::string>* index_buffers);
  std::optional<Entry> ParseEntry(TSNode item, std::set<std::string>* index_buffers);
  // Attributes an access (or a nested block's entry) of `buffer` to the blocks below `from`
  // (exclusive), innermost first, for reads or writes.
  void Attribute(const Entry& what, bool write, size_t from, TextRange range, const std::string& text,
                 const std::string& inner_block, const std::optional<std::string>& region_text);
  std::optional<std::string> RegionText(TSNode subscript, const std::vector<TSNode>& indices) const;
  bool PointerArgument(TSNode n) const;
  std::string TirName(TSNode call) const;
  TextRange Rel(TSNode n) const;

  BlockRegionHooks h_;
  std::map<std::string, BufferInfo> buffers_;
  std::vector<Block> blocks_;
};

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_MODEL_BLOCK_REGIONS_H_
