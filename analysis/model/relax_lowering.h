// The Relax lowering's class, shared by its four files: lower_relax.cc (signature, decorator,
// attributes, names and symbols), lower_relax_statements.cc (statements, blocks, dataflow,
// branches, returns, assignments), lower_relax_values.cc (names, subscripts, attributes,
// operators) and lower_relax_calls.cc (calls of operators and module functions, purity,
// memory, call_tir). Internal to model/: everything else calls LowerRelaxSignature /
// LowerRelaxBody (model/lower_internal.h).
//
// One pass over the body in program order, as TVM's parser does: bindings get struct info from
// the op registry (ops/registry.h) or from their annotation, dataflow blocks scope their
// variables, facts (arith/facts.h) accumulate from shape variables, attributes and asserts.
// What the checks need is reported as events (check/check.h) at the statement it concerns:
// storage views, impure calls, annotations, call_tir sites, op calls, scope problems. The
// lowering itself emits no diagnostics.
#ifndef TVMLS_ANALYSIS_MODEL_RELAX_LOWERING_H_
#define TVMLS_ANALYSIS_MODEL_RELAX_LOWERING_H_

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "check/check.h"
#include "model/annotation.h"
#include "model/lower.h"
#include "model/lower_internal.h"
#include "model/syntax_util.h"
#include "ops/registry.h"
#include "vocab/dtype.h"
#include "vocab/script_names.h"

namespace tvmls::analysis::relax_lowering {

using types::StructInfo;

inline std::string Quote(const std::string& s) { return "`" + s + "`"; }

inline bool IsStructInfoParam(const char* name) {
  return std::strcmp(name, "out_sinfo") == 0 || std::strcmp(name, "sinfo_args") == 0 ||
         std::strcmp(name, "out_ty") == 0 || std::strcmp(name, "ty_args") == 0;
}

// The dataflow block being lowered. At namespace scope, not nested in RelaxLowering: clang
// cannot use a nested class's default member initializers (optional::emplace) before the
// enclosing class is complete.
struct DataflowState {
  TSNode with_stmt{};
  TSNode output_call{};
  std::vector<std::string> bound;  // names bound in the block, in order
  std::set<std::string> outputs;
};

class RelaxLowering {
 public:
  RelaxLowering(TSNode def, std::string_view text, const Aliases& aliases, FunctionModel* fn,
                const ModuleContext* ctx)
      : text_(text), aliases_(aliases), fn_(fn), ctx_(ctx), base_(ts_node_start_byte(def)) {
    def_ = def;
    func_ = Is(def, "decorated_definition") ? Field(def, "definition") : def;
    print_.current_era = aliases.current_era_printing();
  }

  void Signature();

  void Body();

 private:
  struct VarEntry {
    StructInfo info;
    bool dataflow = false;
    bool constant = false;
    int symbol = -1;
    int storage = -1;
  };
  struct SymVar {
    TextRange def;
    std::string dtype = "int64";
    bool bound = false;  // defined by the signature or a match_cast
    int symbol = -1;
  };
  struct Value {
    StructInfo info = StructInfo::Unknown();
    ops::Literal literal;
    bool constant = false;
    std::string var;
    int storage = -1;
  };
  bool in_body_ = false;             // annotation problems are reported by the body's lowering only
  std::set<uint32_t> annotation_problems_;  // where they were reported (an annotation may be read twice)
  std::vector<int> removable_;  // symbols bound to provably pure values (unused-binding)
  std::map<int, int> joined_with_;  // else-branch symbol -> then-branch symbol of a joined name
  struct Escaped {
    TextRange def;
    TSNode output_call{};
  };

  // A string dim of a parameter annotation names an earlier parameter (`n: R.Prim("int64"),
  // x: R.Tensor(["n"])`): allowed for an int64 R.Prim in the current era; an R.Prim of another
  // dtype is not a shape dim (invalid-annotation); anything else collides with the symbolic
  // variable TVM makes of the dim (redefined-name).
  void ParamInStringDim(const std::string& name, const VarEntry& param, TextRange where);

  TextRange Rel(TSNode n) const;
  TextRange Rel(TextRange r) const { return {r.begin - base_, r.end - base_}; }

  AnnotationContext AnnCtx(bool allow_strings);

  // A scope problem of this function for the well-formedness check (check/well_formed.cc).
  check::ScopeProblem Problem(check::ScopeProblem::Kind kind, TextRange range, std::string name) const;
  void ReportScope(const check::ScopeProblem& p) { checks().Report(&check::Check::OnScopeProblem, p); }
  // A parser rule broken in this function (check/parser_rules.cc).
  void ReportRule(check::ParserRule::Kind kind, TextRange range, TextRange related = {}, std::string detail = "");
  // The statement follows the R.output of the dataflow block it is in: reported when it emits a
  // binding (an assignment or call of Relax values).
  void AfterOutput(TSNode stmt);
  // Whether a nested definition is decorated `@T.prim_func`.
  bool IsPrimFuncDefinition(TSNode stmt) const;
  // An `if` statement's condition and branches (IfStatement counts the depth around them).
  void IfBranches(TSNode stmt);


  // ---------------------------------------------------------------- decorator and attributes

  void ReadDecorator();
  // The decorator's `private=True` keyword argument, or a null node.
  TSNode PrivateKeyword();

  // The fix that makes the function impure: `@R.function` -> `@R.function(pure=False)`.
  std::optional<TextEdit> ImpureDecoratorEdit();

  void FuncAttr(const CallArgs& args);

  // ---------------------------------------------------------------- names and symbols

  void PrescanNames(TSNode body);

  void CollectTargets(TSNode left, std::set<std::string>* out);

  void DefineSymVar(const std::string& name, TextRange where, bool bound);

  // `insertable`: the inlay hint may be inserted as an annotation (not for unpacking targets).
  // Where symbolic variable `name` is spelled in `where` (absolute: an identifier, or a string
  // literal holding a dim expression such as `"n * 2"`), as relative ranges: the identifier, or
  // every whole-word occurrence of the name inside the string's quotes. Never empty (the whole
  // range when the name is not found in it).
  std::vector<TextRange> SymVarSpellings(const std::string& name, TextRange where) const;

  // Records the spellings of `name` in `where` (absolute) as references of its symbol.
  void AddSymVarReferences(const std::string& name, TextRange where, bool skip_first = false);

  void Define(TSNode name_node, const StructInfo& info, Symbol::Kind kind, bool annotated,
              bool constant = false, int storage = -1, bool insertable = true);

  // ---------------------------------------------------------------- statements

  void Block(TSNode block);

  void Statement(TSNode stmt);

  void CallStatement(TSNode call);

  void Output(TSNode call);

  void WithStatement(TSNode stmt);

  void IfStatement(TSNode stmt);

  // `with R.dataflow():`
  bool IsDataflowWith(TSNode stmt) const;
  // The block's last statement that may bind, looking into a trailing dataflow block and past
  // R.output and symbolic declarations (`n = T.int64()`); null when none.
  TSNode LastStatement(TSNode block);
  // LastStatement when it is `name = value` (or annotated) with one plain name, else null.
  TSNode LastAssignment(TSNode block);
  // The name the block binds last: LastAssignment's, or a trailing `if`'s when both its branches
  // bind the same name last; "" when none.
  std::string LastBound(TSNode block);

  void ReturnStatement(TSNode stmt);

  void Assignment(TSNode assign);

  // `2`, `-2.5`, `True`: a Python number or bool literal.
  static bool IsNumberLiteral(TSNode n);

  void CheckAnnotation(TSNode ann, const StructInfo& declared, const Value& v, TSNode rhs);

  // SpelledAnnotationEdits (annotation.h), in this function's coordinates.
  std::optional<std::vector<TextEdit>> SpelledAnnotationEdits(TSNode ann, const StructInfo& declared,
                                                              const StructInfo& inferred);

  // ---------------------------------------------------------------- values

  void Use(TSNode ident);

  void UseSymVar(const std::string& name, TextRange where);

  bool IsOuterName(const std::string& name) const;

  Value Identifier(TSNode n);

  Value LowerValue(TSNode n);

  Value Subscript(TSNode n);

  // `cls.f` as a value (not called).
  Value Attribute(TSNode n);

  bool IsModuleRef(const std::string& name) const;

  // A reference to module function `name` through `node` (`cls.f`). Returns the callee.
  const FunctionModel* GlobalRef(TSNode node, const std::string& name, bool report = true);

  Value BinaryOp(TSNode n);

  // ---------------------------------------------------------------- calls

  Value Call(TSNode call);

  Value RelaxCall(TSNode call, TSNode callee, const std::vector<std::string>& path, const CallArgs& args);

  // `R.TupleGetItem(t, i)` as TVM's parser builds it: field i of t's tuple struct info (an index
  // out of range is reported like `t[i]`); unknown when t is not a known tuple or i no integer.
  Value TupleGetItem(const CallArgs& args);

  // `R.ShapeExpr([2, n])`: R.Shape([2, n]) when every value is an integer expression, else unknown.
  Value ShapeExpr(const CallArgs& args);

  // An argument value: shapes (`R.shape([m])`, tuples) keep their literal view.

  Value MatchCast(TSNode call, const CallArgs& args);

  // Facts from an assert condition: `a <= b`, `a < b`, `a >= b`, `a > b`, `a == b`, `and`.
  void AddFacts(TSNode cond);

  // ---------------------------------------------------------------- purity

  // True when every call in `value` is a Relax operator registered as pure (R.match_cast aside:
  // its binding asserts a shape even when unused). Calls of anything else (module functions,
  // Python values, unknown names) are not provably pure.
  bool ProvablyPure(TSNode value) const;

  // Bindings of pure values whose variable nothing reads: a hint, faded by editors. The model's
  // references are the evidence; as a guard against constructs whose uses it does not record, a
  // name spelled as an identifier anywhere in the function other than where a symbol is defined
  // is taken as used.
  void FinishUnused();

  // Reports an impure call to the checks, with what their fixes need to know.
  void Impure(TSNode callee, const std::string& what, TSNode call);

  // When the current statement is exactly `call` (optionally bound to a name): its lines, the
  // edit that re-inserts it after the dataflow block, the dataflow variables it reads and the
  // name it binds.
  void StatementOfCall(TSNode call, check::ImpureCall* c);

  // ---------------------------------------------------------------- memory

  static std::optional<arith::Expr> Product(const ops::Literal& lit);
  static std::optional<arith::Expr> ShapeProduct(const Value& v);
  static std::optional<std::string> DTypeArg(const ops::Literal& lit);

  // Records the storage; its id goes with the value (Value::storage) to later alloc_tensor calls.
  int AllocStorage(bool memory_op, const std::vector<TSNode>& nodes, const std::vector<Value>& lowered,
                   const std::vector<ops::ArgValue>& values);

  void AllocTensor(const std::vector<TSNode>& nodes, const std::vector<Value>& lowered,
                   const std::vector<ops::ArgValue>& values);

 public:
  void Finish();

 private:
  // ---------------------------------------------------------------- call_tir

  // Checks the arguments of R.call_tir(cls.f, args, out_sinfo, tir_vars) against f's buffers.
  void CallTir(const ops::OpInfo& op, const std::vector<TSNode>& nodes, const std::vector<Value>& lowered,
               const std::vector<ops::ArgValue>& values);

  std::optional<arith::Expr> LiteralOf(TSNode n);

  // ---------------------------------------------------------------- direct calls

  Value GlobalCall(TSNode call, TSNode callee_node, const std::string& name, const CallArgs& args);



 private:
  std::string_view text_;
  const Aliases& aliases_;
  FunctionModel* fn_;
  const ModuleContext* ctx_;
  uint32_t base_;
  TSNode def_{};
  TSNode func_{};
  TSNode decorator_{};
  TSNode current_stmt_{};
  // The last `name = value` whose value is a known Relax value (TVM emits it as a binding).
  TSNode last_emitting_assignment_{};
  types::PrintOptions print_;
  bool pure_ = true;
  bool force_pure_ = false;
  bool saw_return_ = false;
  TSNode first_return_{};  // the first `return` outside `if` branches
  int if_depth_ = 0;        // `if` statements around the current statement
  std::map<std::string, TextRange> attr_keys_;  // R.func_attr keys so far, where (relative)
  std::map<std::string, VarEntry> env_;
  std::map<std::string, SymVar> symvars_;
  std::map<std::string, Escaped> escaped_;
  std::set<std::string> assigned_anywhere_;
  // Names bound inside an `if` that are not visible after it: why, and where they were bound.
  struct BranchNote {
    std::string why;
    std::vector<RelatedLocation> related;
  };
  std::map<std::string, BranchNote> branch_only_;
  std::set<std::string> module_aliases_;
  std::optional<DataflowState> dataflow_;
  // Storages in call order (Value::storage indexes them); stable addresses for the checks.
  std::vector<std::unique_ptr<check::StorageAlloc>> storages_;
  std::set<std::string> used_after_;
  std::vector<std::pair<std::string, TextRange>> signature_uses_;
  std::set<std::string> reported_unbound_;
  arith::Facts facts_;
  // The checks of this function (check/check.h), made at the first event.
  check::LazyChecks checks{fn_};
};

}  // namespace tvmls::analysis::relax_lowering

#endif  // TVMLS_ANALYSIS_MODEL_RELAX_LOWERING_H_
