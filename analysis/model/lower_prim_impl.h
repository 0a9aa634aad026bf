// The PrimFunc lowering's class, shared by its three files: lower_prim.cc (the entry points
// LowerPrimSignature / LowerPrimBody, the signature, parameters and buffers, the walk over the
// body and buffer accesses), lower_prim_loops.cc (loops, blocks and their iterators, loop
// variables used where TVM rejects them) and lower_prim_reach.cc (guards, what an index reaches
// under the loops and guards in scope, compaction's state). Internal to model/: everything else
// calls LowerPrimSignature / LowerPrimBody (model/lower_internal.h).
#ifndef TVMLS_ANALYSIS_MODEL_LOWER_PRIM_IMPL_H_
#define TVMLS_ANALYSIS_MODEL_LOWER_PRIM_IMPL_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arith/iter_range.h"

#include "check/check.h"
#include "model/annotation.h"
#include "model/block_regions.h"
#include "model/lower.h"
#include "model/lower_internal.h"
#include "model/syntax_util.h"

namespace tvmls::analysis::prim_lowering {

// A buffer-creating function (T.match_buffer, T.alloc_buffer, ...; lower_prim.cc has the table):
// the positional index of its `shape`, `dtype` and `scope` (match_buffer takes the param first).
struct BufferCtor {
  const char* name;
  BufferDecl::Origin origin;
  int shape_pos;
  int dtype_pos;
  int scope_pos;
};

class PrimLowering {
 public:
  // Lowers the PrimFunc at `def` (a function or decorated definition) of `text` into `fn`;
  // ranges in `fn` are relative to the start of `def`.
  PrimLowering(TSNode def, std::string_view text, const Aliases& aliases, FunctionModel* fn);
  // What callers see: fn->prim (parameters, their buffers, the match_buffer prologue, stores,
  // return value, completeness) and fn->signature_hash.
  void Signature();
  // What TVM's TIR parser and IR builder reject (check/parser_rules.cc): `T.func_attr` with a
  // key given twice or with "global_symbol" in a `@T.prim_func(private=True)`, and `a = b = c`.
  void ParserRules();
  // `private=True` in the function's `@T.prim_func(...)` decorator (null when absent).
  TSNode PrivateKeyword() const;
  // After Signature: the parser rules, the parameters' symbols, then the walk over the body.
  void Body();
  // After Body: the checks that saw events complete their diagnostics.
  void Finish() { checks.End(); }

 private:
  // ------------------------------------------------------------ loops, blocks and guards
  //
  // While the body is walked, frames_ holds what is in scope: loop variables (the iteration
  // space of arith/iter_range.h, under internal names unique in the function), block iterators
  // (their bindings resolved to loop variables), names bound to values tvmls does not follow,
  // and the guards (`if`, `T.where`, `T.if_then_else`) that hold there.

  // The loops (one per target) and blocks around the walk, outermost first, for
  // check::CompactedAccess; var: the loop's internal name ("" for a block or an unfollowed loop).
  struct Scope {
    uint32_t id = 0;
    std::string var;
    int thread_rank = -1;  // a thread-bound loop: ThreadScope's rank (blockIdx 0, threadIdx 1)
    int thread_dim = -1;   // and dimension (x 0, y 1, z 2)
  };
  // Buffers TVM's lowering resizes (check::CompactedAccess): the declaration's offset, the
  // scopes_ around it and its storage rank (StorageRank).
  struct Allocation {
    uint32_t id = 0;
    size_t depth = 0;
    int storage_rank = 0;
  };
  // A name in scope: a followed loop variable, a block iterator, or a name bound to what tvmls
  // does not follow (kOpaque).
  struct ScopedVar {
    enum class Kind { kLoop, kBlockIter, kOpaque };
    Kind kind = Kind::kOpaque;
    arith::Expr value;       // kLoop: the internal variable; kBlockIter: the resolved binding
    TextRange loop_range;    // kLoop: the loop's header (relative)
    size_t block_level = 0;  // loops: the blocks with iterators around the loop
    bool is_loop = false;    // bound by a `for` (followed or not)
  };
  // The conjunction of `g >= 0` for every g; unknown when the condition could not be read.
  struct Guard {
    bool known = false;
    std::vector<arith::Expr> conjuncts;
  };
  // What one scope (the body, a loop, a branch, a block) binds, and the guards that hold in it.
  struct Frame {
    std::map<std::string, ScopedVar> vars;
    std::vector<Guard> guards;
  };
  // A block being walked: its name, the buffers it allocates or matches, its iterators' kinds,
  // and its frame.
  struct RegionFrame {
    std::string block;
    std::set<std::string> locals;
    std::map<std::string, char> kinds;
    size_t frame = 0;
  };
  // The walk's state at an access to a compacted buffer, copied once per access so that
  // check::BufferAccess::Index::within can be computed when a check asks, after the walk moved on:
  // computing it for every scope level of every index made the lowering 13% slower.
  struct WithinState {
    arith::IterSpace space;
    std::vector<Guard> guards;
    std::vector<Scope> scopes;
    Allocation alloc;
    std::map<std::string, std::string> display;  // of the variables of `space` only
    std::map<std::string, TextRange> headers;    // likewise
  };

  // ------------------------------------------------------------ lower_prim.cc
  // Parameters, buffers, the walk over the body and buffer accesses.

  // The range of `n` relative to the function's start (empty for a null node).
  TextRange Rel(TSNode n) const;
  // The absolute range `r` relative to the function's start.
  TextRange Rel(TextRange r) const { return {r.begin - base_, r.end - base_}; }
  // The kind of a parameter annotated `ann` (handle, T.Buffer, scalar dtype); a T.Buffer's
  // declaration goes to fn->prim.buffers; anything else clears fn->prim.complete.
  void ClassifyParam(TSNode ann, PrimSignature::Param* param);
  // `B = T.match_buffer(...)` / `B: T.Buffer(...) = ...`: the target identifier and the call.
  bool AssignedCall(TSNode stmt, TSNode* target, TSNode* call);
  // The buffer `call` (a `ctor` call, assigned to `target` or null) declares: shape, dtype,
  // scope, whether it is a view; hovers on its dims and dtype; reports its axis separators.
  BufferDecl MakeBuffer(TSNode target, TSNode call, const CallArgs& args, const BufferCtor& ctor);
  // Reports `axis_separators=[...]` (all constant) to the checks.
  void CheckAxisSeparators(const BufferDecl& decl, const CallArgs& args);
  // The range that deletes the keyword argument `k` with the comma joining it to its neighbour:
  // the comma before it, or (first argument) the comma and spaces after it.
  TextRange KeywordRemoval(TSNode k) const;
  // A symbol for the named buffer `b`, in scope for accesses and block regions from here (and
  // no longer compacted under an earlier declaration of its name).
  void AddBufferSymbol(const BufferDecl& b);
  // Walks the body: buffer declarations, accesses, stores.
  void Walk(TSNode node);
  // Returns whether to descend into n.
  bool Visit(TSNode n);
  // `target = T.<buffer constructor>(...)` in the body: the buffer and its symbol (reusing a
  // parameter's match_buffer from Signature); a T.alloc_buffer is compacted (compacted_).
  void DeclareFromCall(TSNode target, TSNode call);
  // Reports `sub` (`A[i, j]`, A a declared buffer of known shape) to the checks: each index's
  // value or reach, and its compaction; `region_only` for T.reads/T.writes (arity only).
  void CheckAccess(TSNode sub, bool region_only);

  // ------------------------------------------------------------ lower_prim_loops.cc
  // Loops, blocks and their iterators; loop variables used where TVM rejects them.

  // The innermost binding of `name` in frames_, else null.
  const ScopedVar* Lookup(const std::string& name) const;
  // `range(a)`, `range(a, b)`, `range(a, b, step)`, T.serial/parallel/vectorized/unroll/
  // thread_binding (start, stop=None, ...): the domain of one loop variable.
  std::optional<arith::IterDomain> RangeDomain(TSNode start, TSNode stop, TSNode step);
  // The domains of the targets of `for ... in <iter>`, one per target; entries are nullopt for
  // loops tvmls does not follow.
  std::vector<std::optional<arith::IterDomain>> LoopDomains(TSNode iter, size_t targets);
  // A `for` loop: its targets as loop variables (with their domains when followed) in a new
  // frame and scope, then its body and else clause. Returns false.
  bool VisitFor(TSNode n);
  // `x = value` in the body: x is a value tvmls does not follow until the enclosing frame ends.
  void BindLets(TSNode left);
  // The rank and dimension of `T.thread_binding(..., thread="threadIdx.x")` (ThreadScope::Create),
  // {-1, -1} for another loop.
  std::pair<int, int> ThreadOf(TSNode right) const;
  // The statements of a suite (a `block` node), comments left out.
  static std::vector<TSNode> Statements(TSNode suite);
  // The expression of a one-expression statement (`T.where(...)`, `x = ...`), else null.
  static TSNode StatementExpr(TSNode stmt);
  // `T.<name>(...)` at `n`: the name, else "".
  std::string TirCall(TSNode n) const;
  // `vi = T.axis.spatial(...)`-like: walks its arguments as bindings (loop variables allowed).
  bool VisitAxis(TSNode assign);
  // Declares the block iterators of the assignment `assign` in the innermost frame.
  void DeclareAxis(TSNode assign, RegionFrame* block, std::vector<check::BlockIter>* iters);
  // `with T.block(...)` / `T.sblock(...)`: its iterators (reported with their reach) and
  // T.where guards in a new frame, then its body. False for another `with`.
  bool VisitWith(TSNode n);
  // Whether `name` here means the same in the innermost block's T.reads: one of its iterators,
  // or a name no loop, block or assignment of the body binds (parameters, shape variables).
  bool MeansTheSameInRegion(const std::string& name) const;
  // A loop variable where TVM's well-formedness rejects it.
  void CheckLoopVarUse(TSNode n, const std::string& name);
  // Names the body binds other than as loop targets (parameters, assignments, `with ... as`,
  // comprehensions, nested definitions, buffers): a loop variable's name among them is not
  // judged after its loop.
  void CollectNonLoopNames();

  // ------------------------------------------------------------ lower_prim_reach.cc
  // Guards, and what an index reaches under the loops and guards in scope (with the state an
  // access to a compacted buffer keeps for the checks).

  // The expression at `node` in terms of the loop variables in scope; nullopt when it mentions
  // something tvmls does not follow (a let-bound name, a call it does not read, a buffer load).
  // Names bound nowhere in the body are symbolic constants (parameters, shape variables).
  std::optional<arith::Expr> Resolve(TSNode node);
  // A condition as a conjunction of `g >= 0`: comparisons, `and`, `not` of one comparison,
  // T.likely, True/False.
  Guard ReadCondition(TSNode c);
  // The negation of a guard of one conjunct; unknown for any other guard.
  static Guard Negate(const Guard& g);
  // `assert c`: walks it; what follows in the frame runs where c holds. Returns false.
  bool VisitAssert(TSNode n);
  // Walks `body` with `guard` holding.
  void WalkGuarded(TSNode body, Guard guard);
  // A `while` loop: its body with nothing known, then its else clause. Returns false.
  bool VisitGuarded(TSNode n, TSNode condition, TSNode body);
  // `if`: the consequence where the condition holds, `else` where it does not (unknown after an
  // `elif`). Returns false.
  bool VisitIf(TSNode n);
  // T.if_then_else / T.Select: each branch under its side of the condition; T.where: a guard of
  // the block (read when the block starts), its loop variables allowed.
  bool VisitGuardCall(TSNode n);
  // What the index `e` reaches over the loops in scope, under the guards in scope.
  // With `relaxed`, only those loop variables range; the others are symbolic values.
  std::optional<check::IndexReach> ReachOf(const arith::Expr& e, const std::set<std::string>* relaxed = nullptr) const;
  // ReachOf over a given state: `space` the loop domains, `guards` the guards in scope,
  // `display`/`headers` the written name and header of each loop variable of `space`.
  static std::optional<check::IndexReach> Reach(const arith::Expr& e, const arith::IterSpace& all,
                                                const std::vector<const Guard*>& guards,
                                                const std::map<std::string, std::string>& display,
                                                const std::map<std::string, TextRange>& headers,
                                                const std::set<std::string>* relaxed);
  // The walk's state here for an access to the buffer allocated at `a`.
  std::shared_ptr<const WithinState> SnapshotForWithin(const Allocation& a) const;
  // check::BufferAccess::Index::within for `e`: what it reaches with the loops outside
  // scopes[alloc.depth + n] fixed (n the scopes of the path fixed), except the thread loops that
  // CompactBufferAllocation relaxes for the buffer's storage scope, which range everywhere.
  static std::function<std::optional<check::IndexReach>(size_t)> WithinOf(const arith::Expr& e,
                                                                           std::shared_ptr<const WithinState> state);
  // TVM's StorageScope rank of a scope: global 0, shared 1, warp 2, local 3; 4 for the others
  // (special memories no thread loop is relaxed for).
  static int StorageRank(const std::string& scope);
  // CanRelaxStorageUnderThread (s_tir/schedule/utils.h): warp memory relaxes threadIdx.x only;
  // otherwise a thread loop is relaxed when the storage rank is at most its rank (blockIdx 0;
  // threadIdx and vthread 1).
  static bool RelaxesThread(int storage_rank, const Scope& loop);
  // ReachOf, and for an expression over no loop the constant itself when nothing guards it.
  std::optional<check::IndexReach> ReachOrPoint(const arith::Expr& e);
  // Every guard in scope is known and has no conjunct (nothing restricts the point).
  bool GuardsKnownTrue() const;

  // ------------------------------------------------------------ state

  static constexpr int64_t kEnumerationLimit = 4096;
  std::vector<Frame> frames_;
  arith::IterSpace space_;                              // loop variables in scope (internal names)
  std::map<std::string, std::string> display_;          // internal name -> as written
  std::map<std::string, TextRange> headers_;            // internal name -> loop header
  int renames_ = 0;
  std::map<std::string, std::vector<TextRange>> loop_names_;  // loop targets seen, their headers
  std::set<std::string> non_loop_names_;
  bool give_up_after_loop_ = false;
  size_t block_level_ = 0;  // blocks with iterators around the walk
  int binding_depth_ = 0;   // inside bindings and T.where
  int match_depth_ = 0;     // inside T.match_buffer's arguments
  std::vector<RegionFrame> regions_;
  std::vector<Scope> scopes_;  // around the walk, outermost first
  uint32_t scope_ids_ = 0;
  std::map<std::string, Allocation> compacted_;  // by buffer name
  std::vector<std::optional<arith::Expr>> iter_values_;  // DeclareAxis: the resolved bindings

  std::string_view text_;
  const Aliases& aliases_;
  FunctionModel* fn_;
  uint32_t base_;
  TSNode def_;
  TSNode func_;
  AnnotationContext ctx_;
  std::map<std::string, int> buffers_;  // buffer name -> symbol
  std::map<std::string, int> vars_;     // scalar and handle parameter name -> symbol
  std::map<std::string, BufferDecl> buffer_decls_;
  std::set<uint32_t> declared_calls_;
  int region_depth_ = 0;
  check::LazyChecks checks{fn_};  // the checks of this function (check/check.h)
  BlockRegionTracker block_regions_{BlockRegionHooks{
      text_, base_, &aliases_, [this](TSNode n) { return Resolve(n); },
      [this](const arith::Expr& e) { return ReachOrPoint(e); },
      [this](const std::string& name) { return MeansTheSameInRegion(name); },
      [this](const check::BlockRegions& event) { checks().Report(&check::Check::OnBlockRegions, event); }}};
};

}  // namespace tvmls::analysis::prim_lowering

#endif  // TVMLS_ANALYSIS_MODEL_LOWER_PRIM_IMPL_H_
