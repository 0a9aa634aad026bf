// Checks: one unit per family of diagnostics, fed by the lowering.
//
// Lowering (model/lower_*.cc) turns syntax into the semantic model. While it walks a function it
// reports what it found as events: plain structs in the model's terms (relative byte ranges,
// struct info, buffer declarations, facts), never syntax nodes. Each check is a class in a file
// of its own under check/ that overrides the events it needs and decides, alone, whether there is
// something to say: its code, severity, message, related locations and fixes. A new check is one
// new file plus one line in MakeChecks (check/checks.cc).
//
// Why events rather than a pass over a stored model: the model is kept for every function of a
// 100k-line file, and most of what checks read (every buffer access, the facts at each
// allocation) is needed only while the function is lowered. Events cost nothing to keep.
//
// Invariants every check keeps:
//  - Ranges in events and in diagnostics are relative to the function's start (model/model.h).
//  - A check emits only the codes listed for it in check/codes.cc, and keeps the severity policy
//    of check/diagnostic.h: error = provably wrong, warning = may, unknown = silent.
//  - At most one preferred fix per position across a diagnostic's fixes.
//  - A check keeps state for one function only: a fresh set is made for each function lowered.
#ifndef TVMLS_ANALYSIS_CHECK_CHECK_H_
#define TVMLS_ANALYSIS_CHECK_CHECK_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "arith/expr.h"
#include "arith/facts.h"
#include "check/diagnostic.h"
#include "model/model.h"
#include "model/pipeline.h"
#include "types/struct_info.h"

namespace tvmls::analysis::check {

/// Where a check's diagnostics go: the function's diagnostics (relative ranges).
class Sink {
 public:
  explicit Sink(FunctionModel* fn) : fn_(fn) {}
  /// Appends a diagnostic and returns it for related locations and fixes (valid until the next
  /// Add).
  Diagnostic& Add(TextRange range, Severity severity, const char* code, std::string message);
  /// The diagnostic `index` of this function (for fixes added once more is known).
  Diagnostic& At(size_t index) { return fn_->diagnostics[index]; }
  size_t size() const { return fn_->diagnostics.size(); }
  /// Adds a related location of the last diagnostic whose range is relative to the module
  /// function `callee` (the analyzer rebases it when the file's diagnostics are assembled).
  void AddRelatedInCallee(const std::string& callee, TextRange range, std::string message);
  /// Adds a fix to the last diagnostic whose edits are all relative to `callee`; the analyzer
  /// rebases them, and drops the fix unless this is the callee's only caller.
  void AddFixInCallee(const std::string& callee, Fix fix);

 private:
  FunctionModel* fn_;
};

// ------------------------------------------------------------------------------------- events

/// Edits that rewrite an annotation to `info` in the user's spelling (the dims and dtype that
/// differ, each as written); nullopt when the annotation's structure does not allow it.
using Respell = std::function<std::optional<std::vector<TextEdit>>(const types::StructInfo& info)>;

/// The fix that writes `value` as the annotation at `annotation_range` (preferred): respelled
/// when `respell` can, else the whole annotation replaced by TVM's spelling. nullopt when
/// `value` is not fully known (it could not be written).
std::optional<Fix> AnnotationFix(std::string title, TextRange annotation_range, const types::StructInfo& value,
                                 const types::PrintOptions& print, const Respell& respell);

/// `R.memory.alloc_storage(size, index, scope, dtype)` or `R.vm.alloc_storage(shape, index,
/// dtype, scope)`, as the lowering records it. Arguments that are not literals are nullopt;
/// `*_given` says whether the argument was written at all.
struct StorageAlloc {
  int id = -1;               // the same storage in every TensorView
  std::string name;          // the variable bound to it ("" when none)
  TextRange size_range;      // the size / shape argument
  bool memory_op = true;     // R.memory (true) or R.vm (false)
  std::optional<arith::Expr> size;  // product of the size argument's dims
  bool scope_given = false;
  std::optional<std::string> scope;
  bool dtype_given = false;
  std::optional<std::string> dtype;
};

/// `R.memory.alloc_tensor(storage, offset, shape, dtype)` (or R.vm) on a known storage.
struct TensorView {
  const StorageAlloc* storage = nullptr;
  TextRange shape_range;               // the shape argument
  std::optional<arith::Expr> offset;   // bytes; 0 when not given
  std::optional<arith::Expr> elements; // product of the shape's dims
  std::optional<std::string> dtype;
  const arith::Facts* facts = nullptr; // what holds at the allocation
  int64_t assumed_upper_bound = 0;     // the setting (0: none)
  /// Where a precondition `R.assert_op(...)` would go (the start of the statement's line, or of
  /// the dataflow block around it) and that line's indentation; nullopt when nowhere.
  std::optional<uint32_t> assert_at;
  std::string assert_indent;
  /// When the function is pure (and not forced pure), the edit that marks it impure: an assert
  /// is impure, so a fix that adds one needs it too.
  std::optional<TextEdit> impure_edit;
};

/// `return value` in a Relax function whose return annotation is known.
struct Return {
  TextRange value_range;
  types::StructInfo value;
  types::StructInfo annotation;
  TextRange annotation_range;
  const arith::Facts* facts = nullptr;
  types::PrintOptions print;
  Respell respell;
};

/// A pure Relax binding that nothing reads, decided by the lowering's name resolution.
struct UnusedBinding {
  std::string name;
  TextRange definition;
};

/// What a TIR index expression reaches over the loops around it: its smallest and largest value,
/// both attained by some iteration that executes it (guards `T.where`, `if` and
/// `T.if_then_else` applied). Absent when the lowering cannot tell exactly.
struct IndexReach {
  arith::Expr min;
  arith::Expr max;
  std::string loops;     // the loop variables involved: "i in [0, 128), j in [0, 4)"
  TextRange loop_range;  // the header of the innermost loop involved (empty when none)
  arith::Facts facts;    // what holds of the symbolic values there (guards on them)
};

/// Where an access sits relative to the allocation of a buffer that TVM's default lowering
/// resizes: PlanAndUpdateBufferAllocationLocation moves an `alloc_buffer` (a block's, the root
/// block's) down to the lowest common scope (loop or block) of its loads and stores, and
/// CompactBufferAllocation (strict) rebuilds its shape from the region one instance of that scope
/// accesses, the loops around the scope fixed (but the thread loops its storage scope spans),
/// each extent at most the declared one, the origin at least 0.
struct CompactedAccess {
  uint32_t alloc = 0;          // identifies the allocation within the function
  std::vector<uint32_t> path;  // the loops and blocks between the allocation and the access, outermost first
};

/// `B[i, j]` on a buffer with a known shape, in a PrimFunc.
struct BufferAccess {
  const BufferDecl* buffer = nullptr;
  std::string name;       // as spelled at the access
  TextRange index_range;  // from the first index to the last (the subscript when none)
  struct Index {
    TextRange range;
    std::optional<int64_t> value;  // a constant index
    std::string text;              // as written
    std::optional<IndexReach> reach;
    /// With `compacted` and `reach`: within(n) is what the index reaches when the loops outside
    /// the allocation and the first n scopes of the path are fixed (their variables symbolic),
    /// the loops below relaxed; absent for n past the path. Computed on each call (a check asks
    /// only for the accesses it judges); empty when `reach` is absent or the buffer not compacted.
    std::function<std::optional<IndexReach>(size_t n)> within;
  };
  std::vector<Index> indices;
  /// A buffer declared by `T.alloc_buffer` / `T.sblock_alloc_buffer`, which TVM's lowering resizes.
  std::optional<CompactedAccess> compacted;
  /// A region (`A[0:4, j]`) rather than a point: only the arity is checked.
  bool region = false;
  /// Fewer indices than the rank are a region in the current era (`A[0]` of a 3-D buffer).
  bool partial_allowed = false;
};

/// A block iterator `vi = T.axis.spatial(dom, binding)` (or reduce, remap, S/R shorthands).
struct BlockIter {
  std::string name;
  char kind = 'S';                     // 'S' spatial, 'R' reduce, 'O' other (scan, opaque)
  TextRange name_range;
  TextRange domain_range;              // the domain argument ("" for remap)
  std::optional<arith::Expr> dom_min;  // the domain [dom_min, dom_end)
  std::optional<arith::Expr> dom_end;
  bool domain_is_literal = false;      // an integer literal extent: a fix can rewrite it
  std::string binding_text;
  std::optional<IndexReach> reach;     // of the binding, under the block's T.where
};

/// A block that writes out `T.reads(...)` or `T.writes(...)` (TVM takes a list as written and
/// infers only a list the block leaves out), with the loads and stores that belong to those
/// lists (model/block_regions.h says which: not the block's own buffers, not views, not T.where
/// or bindings, not the regions themselves). Reported when the block ends.
struct BlockRegions {
  std::string block;      // the block's name ("" when not a string literal)
  TextRange block_range;  // `T.block("name")` / `T.sblock("name")`
  struct List {
    bool given = false;     // written out
    bool complete = false;  // every entry names a buffer tvmls knows (not a view): an absent buffer is absent
    TextRange range;        // the `T.reads(...)` call
    struct Entry {
      std::string buffer;
      TextRange range;  // `C[vi, 0:16]`
      std::string text;
    };
    std::vector<Entry> entries;  // in order
    /// Where an entry is appended, and the text that goes before it (", " or ""); nullopt
    /// when the list's form does not allow a clean insertion (splat, comprehension).
    std::optional<uint32_t> append_at;
    std::string separator;
  };
  List reads, writes;
  /// One dimension of an access compared with the region the list declares for its buffer:
  /// what `index - region_end` (above) and `region_start - index` (below) reach over the
  /// iterations that execute the access (check::IndexReach; absent when not known).
  struct Dim {
    size_t dim = 0;
    TextRange index_range;  // the index (of an access) or the region entry (of a nested block)
    std::string index_text;
    std::optional<IndexReach> above;
    std::optional<IndexReach> below;
  };
  struct Access {
    std::string buffer;
    bool write = false;
    TextRange range;          // the subscript `C[vi, vj]`, or a nested block's region entry
    std::string text;         // as written
    std::string inner_block;  // a nested block's region entry: that block's name ("" for an access)
    /// The entry to append when the access is missing: the subscript as written, when it is one
    /// point whose indices use only this block's iterators and names bound outside the block.
    std::optional<std::string> region_text;
    bool named = false;  // the list names the buffer (or the access is exempt from naming it)
    int entry = -1;      // the list's only entry for the buffer (bounds compared), else -1
    std::vector<Dim> dims;  // the dimensions compared with the entry
  };
  std::vector<Access> accesses;
};

/// A loop variable used where TVM's well-formedness rejects it.
struct LoopVarUse {
  enum class Kind {
    kInBlock,    // inside a block with iterators, not in its bindings or T.where
    kAfterLoop,  // after the loop that binds it (no other definition in scope)
  };
  Kind kind = Kind::kInBlock;
  std::string name;
  TextRange range;
  std::string block;                       // kInBlock: the block's name
  TextRange loop_range;                    // the loop's header
  std::optional<std::string> replacement;  // kInBlock: the block iterator bound exactly to it
};

/// `axis_separators=[...]` of a buffer declaration with a known rank, every separator constant.
struct AxisSeparators {
  const BufferDecl* buffer = nullptr;
  std::vector<int64_t> values;
  std::vector<TextRange> item_ranges;
  TextRange list_range;
  /// `, axis_separators=[...]` with the comma that joins it to its neighbour: deleting it
  /// removes the keyword cleanly (empty when the separators were not a keyword).
  TextRange keyword_removal;
};

/// A call of something impure in a Relax function: an impure operator, a PrimFunc that writes
/// its buffers, an impure Relax function.
struct ImpureCall {
  TextRange callee_range;
  std::string what;  // "operator relax.memory.kill_tensor", "call of PrimFunc `f` (it writes ...)"
  bool is_kill = false;
  /// Inside a dataflow block: the block's `with` keyword.
  std::optional<TextRange> dataflow_keyword;
  /// When the statement is exactly this call (optionally bound to a name): the whole lines it
  /// takes, the text that re-inserts it after the block (`insert_after_block`, at the block's
  /// indentation), the dataflow variables it reads and the name it binds ("" when none).
  std::optional<TextRange> statement_lines;
  TextEdit insert_after_block;
  std::set<std::string> reads_dataflow_vars;
  std::string binds;
  /// The function is pure and not forced pure (relax.force_pure): its name, the decorator (empty
  /// when none) and the edit that marks it impure (nullopt when there is no decorator to edit).
  bool function_pure = false;
  std::string function_name;
  TextRange decorator_range;
  std::optional<TextEdit> impure_edit;
};

/// The end of a dataflow block: its outputs, and every name used inside dataflow blocks so far.
struct DataflowEnd {
  const std::set<std::string>* outputs = nullptr;
  const std::set<std::string>* used_in_dataflow = nullptr;
};

/// `R.memory.kill_tensor(x)` / `kill_storage` / `R.vm.kill_object` whose argument is a constant.
struct KillOfConstant {
  TextRange argument_range;
  std::string op;        // as written after the alias: "memory.kill_tensor"
  std::string argument;  // its text, at most 60 bytes
};

/// An argument of a call into a PrimFunc: its range and struct info; for a scalar input, its
/// value as an integer expression when it is one (`T.int64(3)`, `n`).
struct PrimArgument {
  TextRange range;
  types::StructInfo info;
  std::optional<arith::Expr> scalar;
};

/// `R.call_tir(cls.f, (inputs...), out_sinfo, tir_vars)` (and call_tir_inplace, call_tir_with_grad,
/// the classic era's spellings) where `cls.f` is a PrimFunc of the module with a complete
/// signature.
struct CallTir {
  std::string callee;               // "f"
  const FunctionModel* function = nullptr;
  TextRange callee_range;           // `cls.f`
  TextRange arguments_range;        // the argument tuple (empty when absent)
  std::vector<PrimArgument> inputs;
  /// The outputs that take a parameter (none for call_tir_inplace, whose outputs alias inputs),
  /// each with its annotation's range.
  std::vector<PrimArgument> outputs;
  std::vector<arith::Expr> tir_values;  // trailing integer arguments (tir_vars)
  const arith::Facts* facts = nullptr;
  types::PrintOptions print;
};

/// `cls.f(args...)` where `cls.f` is a PrimFunc with a complete signature and the call passes
/// exactly its number of arguments, positionally.
struct PrimFuncCall {
  std::string callee;
  const FunctionModel* function = nullptr;
  std::vector<PrimArgument> arguments;
  const arith::Facts* facts = nullptr;
  types::PrintOptions print;
};

/// `y: R.Tensor(...) = value`: a binding with a struct info annotation (both known).
struct BindingAnnotation {
  TextRange annotation_range;
  types::StructInfo declared;
  TextRange value_range;
  types::StructInfo value;
  const arith::Facts* facts = nullptr;
  types::PrintOptions print;
  Respell respell;
};

/// `R.match_cast(value, target)` (both known).
struct MatchCast {
  TextRange target_range;
  types::StructInfo target;
  types::StructInfo value;
  const arith::Facts* facts = nullptr;
  types::PrintOptions print;
};

/// A call of a registered operator (`R.nn.conv2d(...)`, or a Python operator on Relax values
/// that lowers to one, `x + y`): what binding the arguments and running the op's inference
/// (ops/registry.h) found wrong, each at the argument at fault.
struct OpCall {
  std::string spelling;  // "R.nn.conv2d", "R.add"
  struct Problem {
    TextRange range;
    std::string message;
  };
  std::vector<Problem> argument_problems;  // missing, unknown or duplicate arguments
  std::vector<Problem> inference_errors;   // provable conflicts (shapes, axes, dtypes, ...)
};

/// `R.<name>(...)` where `<name>` is neither an operator nor another name of the Relax namespace;
/// `T.<name>` (called or not) where the TIR name table (vocab/script_names.h) has no row for
/// `<name>` in the file's era.
struct UnknownOp {
  TextRange callee_range;
  std::string spelling;  // "R.nn.not_an_op", "T.expp"
  /// A `T.` name that only the other era has: that era, as "classic (`tir`)" or "current
  /// (`tirx`)"; "" when no era has it.
  std::string other_era;
};

/// `t[i]` with a constant index on a value known to be a tuple.
struct TupleIndex {
  TextRange index_range;
  int64_t index = 0;
  types::StructInfo tuple;
  types::PrintOptions print;
};

/// `cls.f(args...)` where `cls.f` is a Relax function of the module with a complete signature.
struct RelaxFunctionCall {
  std::string callee;
  TextRange call_range;
  size_t parameters = 0;
  /// Positional arguments only, without splats; otherwise the arity is not known.
  bool arity_known = false;
  size_t given = 0;
  struct Argument {
    TextRange range;
    types::StructInfo value;
    std::string parameter;
    types::StructInfo declared;  // as annotated
    types::StructInfo expected;  // with symbolic dims bound by the arguments before it
  };
  std::vector<Argument> arguments;
  const arith::Facts* facts = nullptr;
  types::PrintOptions print;
};

/// What name resolution and the scoping rules of TVM's parser found wrong in a function (the
/// lowering resolves names; the well-formedness check words the result).
struct ScopeProblem {
  enum class Kind {
    kMissingReturn,          // `range`: the function's name
    kOutputOutsideDataflow,  // `range`: `R.output`
    kIfInDataflow,           // `range`: the `if` keyword
    kSymbolicRedeclared,     // `range`: `T.int32()`; `detail`: the dtype it redeclares ("int32")
    kParamIsSymbolicVar,     // `range`: a parameter, or a string dim naming an earlier one;
                             // `related`: the other of the two
    kDataflowVarEscape,      // `range`: the use; `related`: the definition; `insert_output`
    kUndefinedName,          // `range`: the use
    kUsedBeforeDefinition,   // `range`: the use
    kBranchOnly,             // `range`: the use; `detail`: why; `notes`: where it was bound
    kUndefinedGlobal,        // `range`: `cls.f`; `detail`: the module's name
    kSymbolicInSignature,    // `range`: the use in the signature
    kSymbolicNotDefined,     // `range`: the use; `related`: the declaration `n = T.int64()`
    kSymbolicNotDeclared,    // `range`: the use; `declare_at`/`declare_indent`: where to declare
    kUndefinedInPrimFunc,    // `range`: the use
  };
  Kind kind = Kind::kUndefinedName;
  TextRange range;
  std::string name;      // the name at fault (the function's name for kMissingReturn)
  std::string function;  // the function's name
  std::string detail;
  TextRange related;
  std::vector<RelatedLocation> notes;
  /// kDataflowVarEscape: the insertion that adds the name to the block's R.output (nullopt when
  /// the block has none).
  std::optional<TextEdit> insert_output;
  /// kSymbolicNotDeclared: the start of the body's first line and its indentation.
  std::optional<uint32_t> declare_at;
  std::string declare_indent;
};

/// What TVM's Relax and TIR parsers and IR builders reject about a function's statements,
/// decorator and attributes (python/tvm/script/parser/{relax,tir}/parser.py,
/// src/script/ir_builder/{relax,tir}/ir.cc and utils.h in v0.23; python/tvm/{relax,tirx}/script/
/// parser/parser.py and the builders beside them in the current era): the lowering finds it,
/// check/parser_rules.cc words it.
struct ParserRule {
  enum class Kind {
    kMultipleReturn,              // `range`: the later `return`; `related`: the first
    kStatementAfterOutput,        // `range`: the statement; `related`: the block's R.output;
                                  // `detail`: "output" when the statement is another R.output
    kUnboundValue,                // `range`: the expression; `detail`: its struct info;
                                  // `insert_at`: the statement's start (for `_ = `)
    kPrivateGlobalSymbol,         // `range`: the "global_symbol" key; `related`: `private=True`
    kDuplicateFuncAttr,           // `range`: the later key; `related`: the earlier; `detail`: key
    kInlinePrimFunc,              // `range`: the nested PrimFunc's name
    kMissingParameterAnnotation,  // `range`: the parameter; `detail`: its name
    kChainedAssignment,           // `range`: the second target of `a = b = value`; `related`:
                                  // the first; `edits`: the fix that splits it (empty: none)
    kInvalidAnnotation,           // `range`: the R.Tensor argument at fault; `detail`: why
    kIfBranchMismatch,            // `range`: the `else` branch's last target; `related`: the
                                  // `if` branch's; `detail`: the name the `if` branch binds
    kOutputNotInBlock,            // `range`: the R.output argument; `related`: its definition;
                                  // `detail`: its name
    kBlockAttrConflict,           // `range`: the later key of T.block_attr; `related`: the
                                  // earlier; `detail`: the key
  };
  Kind kind = Kind::kMultipleReturn;
  TextRange range;
  TextRange related;
  std::string detail;
  uint32_t insert_at = 0;
  std::vector<TextEdit> edits;
};

// ------------------------------------------------------------------------------------- checks

class Check {
 public:
  virtual ~Check() = default;
  virtual void OnTensorView(const TensorView&, Sink&) {}
  virtual void OnReturn(const Return&, Sink&) {}
  virtual void OnUnusedBinding(const UnusedBinding&, Sink&) {}
  virtual void OnBufferAccess(const BufferAccess&, Sink&) {}
  virtual void OnAxisSeparators(const AxisSeparators&, Sink&) {}
  virtual void OnBlockIter(const BlockIter&, Sink&) {}
  virtual void OnLoopVarUse(const LoopVarUse&, Sink&) {}
  virtual void OnBlockRegions(const BlockRegions&, Sink&) {}
  virtual void OnImpureCall(const ImpureCall&, Sink&) {}
  virtual void OnDataflowEnd(const DataflowEnd&, Sink&) {}
  virtual void OnKillOfConstant(const KillOfConstant&, Sink&) {}
  virtual void OnCallTir(const CallTir&, Sink&) {}
  virtual void OnPrimFuncCall(const PrimFuncCall&, Sink&) {}
  virtual void OnBindingAnnotation(const BindingAnnotation&, Sink&) {}
  virtual void OnMatchCast(const MatchCast&, Sink&) {}
  virtual void OnOpCall(const OpCall&, Sink&) {}
  virtual void OnUnknownOp(const UnknownOp&, Sink&) {}
  virtual void OnTupleIndex(const TupleIndex&, Sink&) {}
  virtual void OnRelaxFunctionCall(const RelaxFunctionCall&, Sink&) {}
  virtual void OnScopeProblem(const ScopeProblem&, Sink&) {}
  virtual void OnParserRule(const ParserRule&, Sink&) {}
  /// The function is lowered: last chance to complete what depends on all of it.
  virtual void OnFunctionEnd(Sink&) {}
};

/// Fresh instances of every check, in a fixed order (check/checks.cc).
std::vector<std::unique_ptr<Check>> MakeChecks();

/// The checks of one function, called by the lowering.
class Checks {
 public:
  explicit Checks(FunctionModel* fn) : checks_(MakeChecks()), sink_(fn) {}
  template <typename Event>
  void Report(void (Check::*handler)(const Event&, Sink&), const Event& event) {
    for (const auto& c : checks_) ((*c).*handler)(event, sink_);
  }
  void End() {
    for (const auto& c : checks_) c->OnFunctionEnd(sink_);
  }

 private:
  std::vector<std::unique_ptr<Check>> checks_;
  Sink sink_;
};

/// A module defines two functions of one name (TVM's IRModule keeps one): redefined-name at the
/// second definition's name (absolute range). Module-level, so the analyzer asks for it while it
/// puts a module's functions together (check/well_formed.cc).
Diagnostic DuplicateModuleFunction(TextRange name_range, const std::string& module, const std::string& function);

/// A positional argument of a macro decorator that TVM rejects (model/discovery.h,
/// Discovery::macro_arguments): bad-op-arguments at its absolute range (check/parser_rules.cc).
Diagnostic MacroDecoratorArgument(TextRange argument, const std::string& spelling);

/// An `@R.rewriter` class (`module`, its functions lowered; `other_definitions`: class-level
/// names that are not Relax or TIR functions): invalid-rewriter errors at absolute ranges, what
/// PatternMatchingRewriter::FromModule rejects (check/rewriter.cc).
std::vector<Diagnostic> RewriterModule(const ModuleModel& module, const std::set<std::string>& other_definitions,
                                       const types::PrintOptions& print);

/// pass-order warnings of one pipeline (check/pass_order.cc): each pass placed after a pass
/// that broke what it needs (vocab/passes.h), at the pass's constructor call (absolute ranges),
/// naming the pass that broke it, with a fix that moves it before that pass when the moved order
/// has fewer such problems. Silent across passes tvmls does not know.
std::vector<Diagnostic> PassOrder(const Pipeline& pipeline);

/// The checks of one function, made at the first event (a function without events, or a
/// signature lowered alone, costs nothing). The lowering's handle on the checks.
class LazyChecks {
 public:
  explicit LazyChecks(FunctionModel* fn) : fn_(fn) {}
  Checks& operator()() {
    if (!checks_) checks_.emplace(fn_);
    return *checks_;
  }
  /// The function is lowered: the checks that saw events complete their diagnostics.
  void End() {
    if (checks_) checks_->End();
  }

 private:
  FunctionModel* fn_;
  std::optional<Checks> checks_;
};

}  // namespace tvmls::analysis::check

#endif  // TVMLS_ANALYSIS_CHECK_CHECK_H_
