// Relax function lowering.
//
// One pass over the body in program order, as TVM's parser does: bindings get struct info from
// the op registry (ops/registry.h) or from their annotation, dataflow blocks scope their
// variables, facts (arith/facts.h) accumulate from shape variables, attributes and asserts.
// What the checks need is reported as events (check/check.h) at the statement it concerns:
// storage views, impure calls, annotations, call_tir sites, op calls, scope problems. The
// lowering itself emits no diagnostics.
#include <algorithm>
#include <cstring>

#include "check/check.h"
#include "model/annotation.h"
#include "model/lower.h"
#include "model/lower_internal.h"
#include "model/syntax_util.h"
#include "ops/registry.h"
#include "vocab/dtype.h"
#include "vocab/script_names.h"

namespace tvmls::analysis {

namespace {

using types::StructInfo;

std::string Quote(const std::string& s) { return "`" + s + "`"; }

bool IsStructInfoParam(const char* name) {
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

  void Signature() {
    RelaxSignature& sig = fn_->relax;
    ReadDecorator();
    TSNode params = Field(func_, "parameters");
    std::string canon = sig.pure ? "pure;" : "impure;";
    for (TSNode p : NamedChildren(params)) {
      if (Is(p, "comment")) continue;
      TSNode name = Is(p, "identifier") ? p : Field(p, "name");
      TSNode ann = Field(p, "annotation");
      sig.param_names.emplace_back(TextOf(name, text_));
      StructInfo info = StructInfo::Unknown();
      if (!ts_node_is_null(ann)) {
        AnnotationContext actx = AnnCtx(true);
        info = LowerAnnotation(ann, actx);
      } else {
        sig.complete = false;
      }
      canon += sig.param_names.back() + ":" + types::Print(info) + ";";
      sig.params.push_back(std::move(info));
    }
    TSNode ret = Field(func_, "return_type");
    if (!ts_node_is_null(ret)) {
      AnnotationContext actx = AnnCtx(true);
      sig.ret = LowerAnnotation(ret, actx);
    }
    canon += "->" + types::Print(sig.ret);
    canon += sig.complete ? "" : ";incomplete";
    fn_->signature_hash = HashString(canon);
  }

  void Body() {
    fn_->diagnostics.clear();
    fn_->symbols.clear();
    fn_->hovers.clear();
    fn_->inlays.clear();
    fn_->dataflow_blocks.clear();
    fn_->dependencies.clear();
    fn_->outer_lookups.clear();
    fn_->calls.clear();
    const RelaxSignature& sig = fn_->relax;
    pure_ = sig.pure;
    // Parameters: variables, and the symbolic variables their annotations define.
    TSNode params = Field(func_, "parameters");
    size_t index = 0;
    for (TSNode p : NamedChildren(params)) {
      if (Is(p, "comment")) continue;
      TSNode name = Is(p, "identifier") ? p : Field(p, "name");
      TSNode ann = Field(p, "annotation");
      if (!ts_node_is_null(ann)) {
        AnnotationContext actx = AnnCtx(true);
        actx.on_var = [&](const std::string& v, TextRange where, bool bare) {
          if (!bare) {
            signature_uses_.emplace_back(v, where);
          } else if (symvars_.count(v)) {
            DefineSymVar(v, {}, true);
            AddSymVarReferences(v, where);  // `"n"` again in another parameter
          } else {
            std::vector<TextRange> at = SymVarSpellings(v, where);
            DefineSymVar(v, at[0], true);
          }
        };
        LowerAnnotation(ann, actx);
      }
      StructInfo info = index < sig.params.size() ? sig.params[index] : StructInfo::Unknown();
      ++index;
      if (info.kind == types::Kind::kPrim && info.prim_value) {
        std::set<std::string> vars;
        info.prim_value->CollectVars(&vars);
        for (const std::string& var : vars) {
          if (symvars_.count(var)) symvars_[var].dtype = info.dtype.empty() ? "int64" : info.dtype;
        }
      }
      if (info.kind == types::Kind::kPrim && info.dtype.find("int") != std::string::npos &&
          !info.prim_value) {
        DefineSymVar(std::string(TextOf(name, text_)), Rel(name), true);  // n: R.Prim("int64")
      }
      Define(name, info, Symbol::Kind::kRelaxParam, /*annotated=*/true);
    }
    TSNode ret = Field(func_, "return_type");
    if (!ts_node_is_null(ret)) {
      AnnotationContext actx = AnnCtx(true);
      actx.on_var = [&](const std::string& v, TextRange where, bool) { signature_uses_.emplace_back(v, where); };
      LowerAnnotation(ret, actx);
    }
    // Variables the signature uses in expressions (or the return annotation names) but no
    // parameter defines: TVM's "Symbolic Var ... is not defined".
    for (const auto& [v, where] : signature_uses_) {
      if (symvars_.count(v)) {
        AddSymVarReferences(v, where);
        continue;
      }
      if (env_.count(v) || IsOuterName(v)) continue;
      ReportScope(Problem(check::ScopeProblem::Kind::kSymbolicInSignature, Rel(where), v));
      DefineSymVar(v, SymVarSpellings(v, where)[0], true);
      AddSymVarReferences(v, where, /*skip_first=*/true);
    }
    TSNode body = Field(func_, "body");
    PrescanNames(body);
    saw_return_ = false;
    Block(body);
    if (!saw_return_ && !ts_node_is_null(body) && ts_node_named_child_count(body) > 0) {
      ReportScope(Problem(check::ScopeProblem::Kind::kMissingReturn, Rel(Field(func_, "name")), fn_->name));
    }
  }

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
  std::vector<int> removable_;  // symbols bound to provably pure values (unused-binding)
  std::map<int, int> joined_with_;  // else-branch symbol -> then-branch symbol of a joined name
  struct Escaped {
    TextRange def;
    TSNode output_call{};
  };

  TextRange Rel(TSNode n) const {
    if (ts_node_is_null(n)) return {};
    return {ts_node_start_byte(n) - base_, ts_node_end_byte(n) - base_};
  }
  TextRange Rel(TextRange r) const { return {r.begin - base_, r.end - base_}; }

  AnnotationContext AnnCtx(bool allow_strings) {
    AnnotationContext a;
    a.text = text_;
    a.aliases = &aliases_;
    a.allow_string_dims = allow_strings;
    return a;
  }

  // A scope problem of this function for the well-formedness check (check/well_formed.cc).
  check::ScopeProblem Problem(check::ScopeProblem::Kind kind, TextRange range, std::string name) const {
    check::ScopeProblem p;
    p.kind = kind;
    p.range = range;
    p.name = std::move(name);
    p.function = fn_->name;
    return p;
  }
  void ReportScope(const check::ScopeProblem& p) { checks().Report(&check::Check::OnScopeProblem, p); }


  // ---------------------------------------------------------------- decorator and attributes

  void ReadDecorator() {
    if (!Is(def_, "decorated_definition")) return;
    for (TSNode d : NamedChildren(def_)) {
      if (!Is(d, "decorator")) continue;
      TSNode v = Field(d, "value");
      TSNode call = Is(v, "call") ? v : TSNode{};
      auto path = DottedPath(Is(v, "call") ? Field(v, "function") : v, text_);
      if (!path || path->size() != 2 || !IsAlias(aliases_.relax, *path) || (*path)[1] != "function") {
        continue;
      }
      decorator_ = d;
      if (ts_node_is_null(call)) continue;
      CallArgs args = ArgsOf(call, text_);
      TSNode pure = Keyword(args, "pure");
      if (!ts_node_is_null(pure) && Is(pure, "false")) fn_->relax.pure = false;
    }
  }

  // The fix that makes the function impure: `@R.function` -> `@R.function(pure=False)`.
  std::optional<TextEdit> ImpureDecoratorEdit() {
    if (ts_node_is_null(decorator_)) {
      ReadDecorator();
      if (ts_node_is_null(decorator_)) return std::nullopt;
    }
    TSNode v = Field(decorator_, "value");
    if (!Is(v, "call")) return TextEdit{Rel(TextRange{ts_node_end_byte(v), ts_node_end_byte(v)}), "(pure=False)"};
    CallArgs args = ArgsOf(v, text_);
    TSNode pure = Keyword(args, "pure");
    if (!ts_node_is_null(pure)) return TextEdit{Rel(pure), "False"};
    TSNode list = args.list;
    uint32_t close = ts_node_end_byte(list) - 1;
    bool empty = args.positional.empty() && args.keywords.empty();
    return TextEdit{Rel(TextRange{close, close}), empty ? "pure=False" : ", pure=False"};
  }

  void FuncAttr(const CallArgs& args) {
    if (args.positional.empty()) return;
    TSNode dict = Unparen(args.positional[0]);
    if (!Is(dict, "dictionary")) return;
    for (TSNode pair : NamedChildren(dict)) {
      if (!Is(pair, "pair")) continue;
      auto key = StringValue(Field(pair, "key"), text_);
      TSNode value = Unparen(Field(pair, "value"));
      if (!key) continue;
      if (*key == "relax.force_pure") {
        force_pure_ = Is(value, "true") || (Is(value, "integer") && TextOf(value, text_) != "0") ||
                      TextOf(value, text_).find("True") != std::string_view::npos;
      } else if (*key == "tir_var_upper_bound" && Is(value, "dictionary")) {
        for (TSNode p : NamedChildren(value)) {
          if (!Is(p, "pair")) continue;
          auto var = StringValue(Field(p, "key"), text_);
          if (var) AddSymVarReferences(*var, RangeOf(Field(p, "key")));  // the name in quotes
          AnnotationContext actx = AnnCtx(false);
          arith::Expr bound = LowerDim(Field(p, "value"), actx);
          if (var && bound.AsConst()) facts_.AddRange(*var, {0, *bound.AsConst()});
        }
      } else if (*key == "tir_non_negative_var" && (Is(value, "list") || Is(value, "tuple"))) {
        for (TSNode v : NamedChildren(value)) {
          auto var = StringValue(v, text_);
          if (!var) continue;
          AddSymVarReferences(*var, RangeOf(v));
          facts_.AddNonNegative(*var);
        }
      }
    }
  }

  // ---------------------------------------------------------------- names and symbols

  void PrescanNames(TSNode body) {
    ForEachNode(body, [&](TSNode n) {
      if (Is(n, "assignment")) {
        CollectTargets(Field(n, "left"), &assigned_anywhere_);
      } else if (Is(n, "function_definition")) {
        assigned_anywhere_.insert(std::string(TextOf(Field(n, "name"), text_)));
        return false;
      }
      return !Is(n, "call") && !Is(n, "string");
    });
  }

  void CollectTargets(TSNode left, std::set<std::string>* out) {
    if (Is(left, "identifier")) {
      out->insert(std::string(TextOf(left, text_)));
    } else if (Is(left, "pattern_list") || Is(left, "tuple_pattern") || Is(left, "expression_list") ||
               Is(left, "tuple") || Is(left, "list") || Is(left, "list_pattern") ||
               Is(left, "parenthesized_expression")) {
      for (TSNode c : NamedChildren(left)) CollectTargets(c, out);
    }
  }

  void DefineSymVar(const std::string& name, TextRange where, bool bound) {
    auto it = symvars_.find(name);
    if (it != symvars_.end()) {
      if (bound) it->second.bound = true;
      return;
    }
    SymVar v;
    v.def = where;
    v.bound = bound;
    v.symbol = static_cast<int>(fn_->symbols.size());
    Symbol s;
    s.kind = Symbol::Kind::kSymbolicVar;
    s.name = name;
    s.definition = where;
    s.detail = name + ": T.int64 (symbolic shape variable)";
    fn_->symbols.push_back(std::move(s));
    facts_.AddNonNegative(name);
    symvars_[name] = v;
  }

  // `insertable`: the inlay hint may be inserted as an annotation (not for unpacking targets).
  // Where symbolic variable `name` is spelled in `where` (absolute: an identifier, or a string
  // literal holding a dim expression such as `"n * 2"`), as relative ranges: the identifier, or
  // every whole-word occurrence of the name inside the string's quotes. Never empty (the whole
  // range when the name is not found in it).
  std::vector<TextRange> SymVarSpellings(const std::string& name, TextRange where) const {
    std::vector<TextRange> out;
    std::string_view s = where.end <= text_.size() && where.begin <= where.end
                             ? text_.substr(where.begin, where.size())
                             : std::string_view{};
    size_t quote = s.find_first_of("\"'");
    if (s != name && quote != std::string_view::npos) {
      auto word = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
               (static_cast<unsigned char>(c) & 0x80) != 0;
      };
      for (size_t i = quote + 1; i < s.size();) {
        if (!word(s[i])) {
          ++i;
          continue;
        }
        size_t j = i;
        while (j < s.size() && word(s[j])) ++j;
        if (s.substr(i, j - i) == name) {
          uint32_t b = where.begin + static_cast<uint32_t>(i);
          out.push_back(Rel(TextRange{b, b + static_cast<uint32_t>(name.size())}));
        }
        i = j;
      }
    }
    if (out.empty()) out.push_back(Rel(where));
    return out;
  }

  // Records the spellings of `name` in `where` (absolute) as references of its symbol.
  void AddSymVarReferences(const std::string& name, TextRange where, bool skip_first = false) {
    auto it = symvars_.find(name);
    if (it == symvars_.end()) return;
    std::vector<TextRange> at = SymVarSpellings(name, where);
    Symbol& s = fn_->symbols[it->second.symbol];
    for (size_t i = skip_first ? 1 : 0; i < at.size(); ++i) s.references.push_back(at[i]);
  }

  void Define(TSNode name_node, const StructInfo& info, Symbol::Kind kind, bool annotated,
              bool constant = false, int storage = -1, bool insertable = true) {
    std::string name(TextOf(name_node, text_));
    VarEntry e;
    e.info = info;
    e.dataflow = dataflow_.has_value() && kind == Symbol::Kind::kRelaxVar;
    e.constant = constant;
    e.storage = storage;
    e.symbol = static_cast<int>(fn_->symbols.size());
    Symbol s;
    s.kind = kind;
    s.name = name;
    s.definition = Rel(name_node);
    s.detail = name + (info.IsUnknown() ? "" : ": " + types::Print(info, print_));
    fn_->symbols.push_back(std::move(s));
    if (!annotated && !info.IsUnknown() && kind == Symbol::Kind::kRelaxVar && name != "_") {
      fn_->inlays.push_back({Rel(name_node).end, ": " + types::Print(info, print_), insertable});
    }
    env_[name] = std::move(e);
    escaped_.erase(name);
    if (dataflow_) dataflow_->bound.push_back(name);
  }

  // ---------------------------------------------------------------- statements

  void Block(TSNode block) {
    for (TSNode stmt : NamedChildren(block)) Statement(stmt);
  }

  void Statement(TSNode stmt) {
    if (Is(stmt, "assignment") || Is(stmt, "augmented_assignment")) {
      current_stmt_ = stmt;
      if (Is(stmt, "assignment")) Assignment(stmt);
    } else if (Is(stmt, "expression_statement")) {
      std::vector<TSNode> kids = NamedChildren(stmt);
      if (kids.size() != 1) return;
      TSNode e = kids[0];
      current_stmt_ = stmt;
      if (Is(e, "assignment")) {
        Assignment(e);
      } else if (Is(e, "call")) {
        CallStatement(e);
      } else if (!Is(e, "string")) {
        LowerValue(e);
      }
    } else if (Is(stmt, "with_statement")) {
      WithStatement(stmt);
    } else if (Is(stmt, "if_statement")) {
      IfStatement(stmt);
    } else if (Is(stmt, "return_statement")) {
      current_stmt_ = stmt;
      ReturnStatement(stmt);
    } else if (Is(stmt, "decorated_definition") || Is(stmt, "function_definition")) {
      TSNode f = Is(stmt, "decorated_definition") ? Field(stmt, "definition") : stmt;
      TSNode name = Field(f, "name");
      if (!ts_node_is_null(name)) {
        Define(name, StructInfo::Callable(std::nullopt, StructInfo::Unknown(), true),
               Symbol::Kind::kRelaxVar, true);
      }
    }
  }

  void CallStatement(TSNode call) {
    auto path = DottedPath(Field(call, "function"), text_);
    if (path && path->size() == 2 && IsAlias(aliases_.relax, *path)) {
      const std::string& f = (*path)[1];
      if (f == "output") {
        Output(call);
        return;
      }
      if (f == "func_attr") {
        FuncAttr(ArgsOf(call, text_));
        return;
      }
    }
    LowerValue(call);
  }

  void Output(TSNode call) {
    TSNode callee = Field(call, "function");
    if (!dataflow_) {
      ReportScope(Problem(check::ScopeProblem::Kind::kOutputOutsideDataflow, Rel(callee), ""));
      return;
    }
    dataflow_->output_call = call;
    CallArgs args = ArgsOf(call, text_);
    for (TSNode a : args.positional) {
      if (!Is(a, "identifier")) continue;
      std::string name(TextOf(a, text_));
      Use(a);
      dataflow_->outputs.insert(name);
    }
  }

  void WithStatement(TSNode stmt) {
    // `with R.dataflow():`
    TSNode clause{};
    for (TSNode c : NamedChildren(stmt)) {
      if (Is(c, "with_clause")) clause = c;
    }
    bool is_dataflow = false;
    for (TSNode item : NamedChildren(clause)) {
      TSNode v = Field(item, "value");
      if (Is(v, "call")) {
        auto path = DottedPath(Field(v, "function"), text_);
        if (path && path->size() == 2 && IsAlias(aliases_.relax, *path) && (*path)[1] == "dataflow") {
          is_dataflow = true;
        }
      }
    }
    TSNode body = Field(stmt, "body");
    if (!is_dataflow || dataflow_) {
      Block(body);
      return;
    }
    dataflow_.emplace();
    dataflow_->with_stmt = stmt;
    DataflowBlock block;
    block.range = Rel(stmt);
    block.header = block.range;
    for (TSNode c : Children(stmt)) {
      if (Is(c, ":")) {
        block.header.end = Rel(c).end;
        break;
      }
    }
    fn_->dataflow_blocks.push_back(block);
    Block(body);
    DataflowState state = std::move(*dataflow_);
    dataflow_.reset();
    checks().Report(&check::Check::OnDataflowEnd, check::DataflowEnd{&state.outputs, &used_after_});
    for (const std::string& name : state.bound) {
      auto it = env_.find(name);
      if (it == env_.end() || !it->second.dataflow) continue;
      if (state.outputs.count(name)) {
        it->second.dataflow = false;
        continue;
      }
      Escaped e;
      e.def = fn_->symbols[it->second.symbol].definition;
      e.output_call = state.output_call;
      escaped_[name] = e;
      env_.erase(it);
    }
  }

  void IfStatement(TSNode stmt) {
    if (dataflow_) {
      ReportScope(Problem(check::ScopeProblem::Kind::kIfInDataflow, Rel(ts_node_child(stmt, 0)), ""));
    }
    LowerValue(Field(stmt, "condition"));
    auto saved_env = env_;
    arith::Facts saved_facts = facts_;
    Block(Field(stmt, "consequence"));
    auto then_env = env_;
    env_ = saved_env;
    facts_ = saved_facts;
    TSNode alt = Field(stmt, "alternative");
    if (!ts_node_is_null(alt)) Block(Field(alt, "body"));
    auto else_env = env_;
    env_ = saved_env;
    facts_ = saved_facts;
    // Only the name both branches bind last is visible after the if (TVM's branch result).
    std::string then_last = LastBound(Field(stmt, "consequence"));
    std::string else_last = ts_node_is_null(alt) ? "" : LastBound(Field(alt, "body"));
    auto where = [&](const VarEntry& e, const char* branch) -> std::vector<RelatedLocation> {
      if (e.symbol < 0) return {};
      return {{fn_->symbols[static_cast<size_t>(e.symbol)].definition,
               Quote(fn_->symbols[static_cast<size_t>(e.symbol)].name) + " bound in the " + branch + " branch"}};
    };
    auto last_of = [](const std::string& last) {
      return last.empty() ? std::string("nothing") : Quote(last);
    };
    for (auto& [name, e] : then_env) {
      auto it = else_env.find(name);
      auto old = saved_env.find(name);
      bool new_then = old == saved_env.end() || old->second.symbol != e.symbol;
      if (it == else_env.end()) {
        if (new_then) {
          branch_only_[name] = {Quote(name) + " is bound only in the `if` branch; after an `if`, only the "
                                "name both branches bind last is visible (TVM makes it the `if`'s "
                                "value)",
                                where(e, "`if`")};
        }
        continue;
      }
      bool new_else = old == saved_env.end() || old->second.symbol != it->second.symbol;
      if ((new_then || new_else) && !(name == then_last && name == else_last)) {
        std::vector<RelatedLocation> related = where(e, "`if`");
        for (RelatedLocation& r : where(it->second, "`else`")) related.push_back(std::move(r));
        branch_only_[name] = {Quote(name) + " is bound in both branches, but only the last binding of "
                              "each branch is visible after an `if`, and only when both branches "
                              "bind the same name last (here the `if` branch binds " +
                                  last_of(then_last) + " last and the `else` branch " +
                                  last_of(else_last) + ")",
                              std::move(related)};
        continue;
      }
      if (new_then && new_else) {
        VarEntry joined = e;
        joined.info = types::Join(e.info, it->second.info, facts_);
        joined_with_[it->second.symbol] = e.symbol;  // uses of the joined name use both
        if (it->second.symbol >= 0 && e.symbol >= 0) fn_->symbols[it->second.symbol].same_as = e.symbol;
        env_[name] = joined;
      } else if (new_then || new_else) {
        branch_only_[name] = {Quote(name) + " is rebound in only one branch; after an `if`, only the "
                              "name both branches bind last is visible",
                              where(new_then ? e : it->second, new_then ? "`if`" : "`else`")};
      }
    }
    for (auto& [name, e] : else_env) {
      if (!then_env.count(name)) {
        branch_only_[name] = {Quote(name) + " is bound only in the `else` branch; after an `if`, only "
                              "the name both branches bind last is visible (TVM makes it the `if`'s "
                              "value)",
                              where(e, "`else`")};
      }
    }
  }

  std::string LastBound(TSNode block) {
    std::vector<TSNode> stmts = NamedChildren(block);
    for (auto it = stmts.rbegin(); it != stmts.rend(); ++it) {
      if (Is(*it, "comment")) continue;
      TSNode a = *it;
      if (Is(a, "expression_statement") && !NamedChildren(a).empty()) a = NamedChildren(a)[0];
      if (Is(a, "assignment") && Is(Field(a, "left"), "identifier")) {
        return std::string(TextOf(Field(a, "left"), text_));
      }
      return "";
    }
    return "";
  }

  void ReturnStatement(TSNode stmt) {
    saw_return_ = true;
    std::vector<TSNode> kids = NamedChildren(stmt);
    if (kids.empty()) return;
    TSNode value = kids[0];
    if (dataflow_ && Is(value, "identifier")) dataflow_->outputs.insert(std::string(TextOf(value, text_)));
    Value v = LowerValue(value);
    fn_->returns.push_back({Rel(value), v.info});
    const StructInfo& ret = fn_->relax.ret;
    if (ret.IsUnknown() || v.info.IsUnknown()) return;
    TSNode ret_node = Field(func_, "return_type");
    check::Return r;
    r.value_range = Rel(value);
    r.value = v.info;
    r.annotation = ret;
    r.annotation_range = Rel(ret_node);
    r.facts = &facts_;
    r.print = print_;
    r.respell = [&](const StructInfo& info) { return SpelledAnnotationEdits(ret_node, ret, info); };
    checks().Report(&check::Check::OnReturn, r);
  }

  void Assignment(TSNode assign) {
    TSNode left = Field(assign, "left");
    TSNode right = Field(assign, "right");
    TSNode ann = Field(assign, "annotation");
    if (ts_node_is_null(right)) return;
    if (Is(right, "assignment")) return;  // a = b = c: rejected by TVM's parser; not modelled
    TSNode rhs = Unparen(right);
    // n = T.int64()
    if (Is(left, "identifier") && Is(rhs, "call")) {
      auto path = DottedPath(Field(rhs, "function"), text_);
      if (path && path->size() == 2 && IsAlias(aliases_.tir, *path) && vocab::IsKnownDType((*path)[1])) {
        CallArgs args = ArgsOf(rhs, text_);
        if (args.positional.empty()) {
          std::string name(TextOf(left, text_));
          auto it = symvars_.find(name);
          if (it != symvars_.end()) {
            fn_->symbols[it->second.symbol].references.push_back(Rel(left));
            if (it->second.bound && it->second.dtype == "int64" && (*path)[1] != "int64" &&
                vocab::IsIntDType((*path)[1])) {
              check::ScopeProblem p = Problem(check::ScopeProblem::Kind::kSymbolicRedeclared, Rel(rhs), name);
              p.detail = (*path)[1];
              ReportScope(std::move(p));
            }
          } else {
            DefineSymVar(name, Rel(left), false);
            symvars_[name].dtype = (*path)[1];
          }
          return;
        }
      }
    }
    // cls = Module
    if (Is(left, "identifier") && Is(rhs, "identifier") && !ctx_->module_name.empty() &&
        TextOf(rhs, text_) == ctx_->module_name) {
      module_aliases_.insert(std::string(TextOf(left, text_)));
      return;
    }
    // The annotation is read first (its uses come first in the text), except for R.match_cast,
    // whose pattern defines the variables the annotation then uses.
    bool match_cast = false;
    if (Is(rhs, "call")) {
      auto p = DottedPath(Field(rhs, "function"), text_);
      match_cast = p && p->size() == 2 && IsAlias(aliases_.relax, *p) && (*p)[1] == "match_cast";
    }
    StructInfo declared = StructInfo::Unknown();
    auto lower_annotation = [&]() {
      if (ts_node_is_null(ann)) return;
      AnnotationContext actx = AnnCtx(false);
      actx.on_var = [&](const std::string& name, TextRange where, bool) { UseSymVar(name, where); };
      declared = LowerAnnotation(ann, actx);
    };
    if (!match_cast) lower_annotation();
    Value v = LowerValue(rhs);
    if (match_cast) lower_annotation();
    // Current era (TVM after 0.23): a number under an `R.Prim(...)` annotation becomes a
    // PrimValue of the annotation's dtype, not an R.const tensor. Classic-era files keep R.const.
    if (declared.kind == types::Kind::kPrim && aliases_.current && IsNumberLiteral(rhs)) {
      v.info = declared;
    }
    if (Is(left, "identifier")) {
      StructInfo info = v.info;
      bool annotated = !ts_node_is_null(ann);
      if (annotated) {
        CheckAnnotation(ann, declared, v, rhs);
        // TVM: a call's annotation replaces its inferred type; other values keep theirs.
        if (!declared.IsUnknown() && (Is(rhs, "call") || v.info.IsUnknown())) info = declared;
      }
      Define(left, info, Symbol::Kind::kRelaxVar, annotated, v.constant, v.storage);
      if (v.storage >= 0) storages_[static_cast<size_t>(v.storage)]->name = std::string(TextOf(left, text_));
      if (!match_cast && TextOf(left, text_)[0] != '_' && ProvablyPure(rhs)) {
        removable_.push_back(static_cast<int>(fn_->symbols.size()) - 1);
      }
      return;
    }
    // a, b = tuple_value
    std::vector<TSNode> targets;
    if (Is(left, "pattern_list") || Is(left, "expression_list") || Is(left, "tuple") ||
        Is(left, "tuple_pattern")) {
      for (TSNode c : NamedChildren(left)) {
        if (!Is(c, "comment")) targets.push_back(c);
      }
    }
    for (size_t i = 0; i < targets.size(); ++i) {
      if (!Is(targets[i], "identifier")) continue;
      StructInfo info = StructInfo::Unknown();
      if (v.info.kind == types::Kind::kTuple && i < v.info.fields.size()) info = v.info.fields[i];
      Define(targets[i], info, Symbol::Kind::kRelaxVar, false, false, -1, /*insertable=*/false);
    }
  }

  // `2`, `-2.5`, `True`: a Python number or bool literal.
  static bool IsNumberLiteral(TSNode n) {
    n = Unparen(n);
    if (Is(n, "unary_operator")) n = Unparen(Field(n, "argument"));
    return Is(n, "integer") || Is(n, "float") || Is(n, "true") || Is(n, "false");
  }

  void CheckAnnotation(TSNode ann, const StructInfo& declared, const Value& v, TSNode rhs) {
    if (declared.IsUnknown() || v.info.IsUnknown()) return;
    check::BindingAnnotation b;
    b.annotation_range = Rel(ann);
    b.declared = declared;
    b.value_range = Rel(rhs);
    b.value = v.info;
    b.facts = &facts_;
    b.print = print_;
    b.respell = [&](const StructInfo& info) { return SpelledAnnotationEdits(ann, declared, info); };
    checks().Report(&check::Check::OnBindingAnnotation, b);
  }

  // SpelledAnnotationEdits (annotation.h), in this function's coordinates.
  std::optional<std::vector<TextEdit>> SpelledAnnotationEdits(TSNode ann, const StructInfo& declared,
                                                              const StructInfo& inferred) {
    std::optional<std::vector<TextEdit>> edits =
        analysis::SpelledAnnotationEdits(ann, text_, declared, inferred);
    if (edits) {
      for (TextEdit& e : *edits) e.range = Rel(e.range);
    }
    return edits;
  }

  // ---------------------------------------------------------------- values

  void Use(TSNode ident) {
    std::string name(TextOf(ident, text_));
    if (dataflow_) used_after_.insert(name);
    auto it = env_.find(name);
    if (it != env_.end() && it->second.symbol >= 0) {
      fn_->symbols[it->second.symbol].references.push_back(Rel(ident));
    }
  }

  void UseSymVar(const std::string& name, TextRange where) {
    auto it = symvars_.find(name);
    if (it != symvars_.end()) {
      AddSymVarReferences(name, where);
      if (!it->second.bound && reported_unbound_.insert(name).second) {
        check::ScopeProblem p = Problem(check::ScopeProblem::Kind::kSymbolicNotDefined, Rel(where), name);
        p.related = it->second.def;
        ReportScope(std::move(p));
      }
      return;
    }
    if (env_.count(name)) return;  // a Relax variable of Prim/Shape type
    if (IsOuterName(name)) return;
    check::ScopeProblem p = Problem(check::ScopeProblem::Kind::kSymbolicNotDeclared, Rel(where), name);
    std::vector<TSNode> stmts = NamedChildren(Field(func_, "body"));
    if (!stmts.empty()) {
      p.declare_at = LineStart(text_, ts_node_start_byte(stmts[0])) - base_;
      p.declare_indent = IndentOf(text_, ts_node_start_byte(stmts[0]));
    }
    ReportScope(std::move(p));
    // Report once.
    DefineSymVar(name, SymVarSpellings(name, where)[0], true);
    AddSymVarReferences(name, where, /*skip_first=*/true);
  }

  bool IsOuterName(const std::string& name) const {
    if (ctx_->star_import) return true;
    bool python = ctx_->python_names && ctx_->python_names->count(name);
    fn_->outer_lookups[name] = python;
    if (python) return true;
    if (IsPythonBuiltin(name)) return true;
    if (aliases_.relax.count(name) || aliases_.tir.count(name) || aliases_.ir.count(name) ||
        aliases_.tvm.count(name)) {
      return true;
    }
    if (name == ctx_->module_name) return true;
    return false;
  }

  Value Identifier(TSNode n) {
    Value v;
    std::string name(TextOf(n, text_));
    auto it = env_.find(name);
    if (it != env_.end()) {
      Use(n);
      v.info = it->second.info;
      v.var = name;
      v.constant = it->second.constant;
      v.storage = it->second.storage;
      return v;
    }
    auto sv = symvars_.find(name);
    if (sv != symvars_.end()) {
      UseSymVar(name, RangeOf(n));
      v.info = StructInfo::Prim(sv->second.dtype);
      v.literal.kind = ops::Literal::Kind::kExpr;
      v.literal.expr = arith::Expr::Var(name);
      return v;
    }
    auto esc = escaped_.find(name);
    if (esc != escaped_.end()) {
      check::ScopeProblem p = Problem(check::ScopeProblem::Kind::kDataflowVarEscape, Rel(n), name);
      p.related = esc->second.def;
      if (!ts_node_is_null(esc->second.output_call)) {
        CallArgs args = ArgsOf(esc->second.output_call, text_);
        uint32_t close = ts_node_end_byte(args.list) - 1;
        bool empty = args.positional.empty();
        // A trailing comma inside R.output(a, ) keeps working: insert before ')'.
        std::string_view inside = TextOf(args.list, text_);
        bool trailing_comma = inside.size() >= 2 && inside.substr(0, inside.size() - 1).find_last_not_of(" \n\t") != std::string_view::npos &&
                              inside[inside.substr(0, inside.size() - 1).find_last_not_of(" \n\t")] == ',';
        p.insert_output = TextEdit{Rel(TextRange{close, close}), (empty || trailing_comma ? "" : ", ") + name};
      }
      ReportScope(std::move(p));
      return v;
    }
    if (auto note = branch_only_.find(name); note != branch_only_.end() && !IsOuterName(name)) {
      check::ScopeProblem p = Problem(check::ScopeProblem::Kind::kBranchOnly, Rel(n), name);
      p.detail = note->second.why;
      p.notes = note->second.related;
      ReportScope(std::move(p));
      return v;
    }
    if (IsOuterName(name) || name == "_") return v;
    if (module_aliases_.count(name)) return v;
    if (assigned_anywhere_.count(name)) {
      ReportScope(Problem(check::ScopeProblem::Kind::kUsedBeforeDefinition, Rel(n), name));
      return v;
    }
    ReportScope(Problem(check::ScopeProblem::Kind::kUndefinedName, Rel(n), name));
    return v;
  }

  Value LowerValue(TSNode n) {
    n = Unparen(n);
    Value v;
    if (ts_node_is_null(n)) return v;
    if (Is(n, "identifier")) return Identifier(n);
    if (Is(n, "integer")) {
      if (auto i = IntValue(n, text_)) {
        v.literal.kind = ops::Literal::Kind::kInt;
        v.literal.int_value = *i;
        v.literal.expr = arith::Expr(*i);
        v.info = StructInfo::Tensor({}, "int32");
        v.constant = true;
      }
      return v;
    }
    if (Is(n, "float")) {
      v.literal.kind = ops::Literal::Kind::kFloat;
      v.literal.float_value = std::strtod(std::string(TextOf(n, text_)).c_str(), nullptr);
      v.info = StructInfo::Tensor({}, "float32");
      v.constant = true;
      return v;
    }
    if (Is(n, "true") || Is(n, "false")) {
      v.literal.kind = ops::Literal::Kind::kBool;
      v.literal.bool_value = Is(n, "true");
      v.info = StructInfo::Tensor({}, "bool");
      v.constant = true;
      return v;
    }
    if (Is(n, "none")) {
      v.literal.kind = ops::Literal::Kind::kNone;
      return v;
    }
    if (Is(n, "string")) {
      if (auto s = StringValue(n, text_)) {
        v.literal.kind = ops::Literal::Kind::kString;
        v.literal.string_value = *s;
      }
      v.info = StructInfo::Object();
      return v;
    }
    if (Is(n, "unary_operator")) {
      Value a = LowerValue(Field(n, "argument"));
      std::string_view op = TextOf(Field(n, "operator"), text_);
      if (op == "-" && a.literal.kind == ops::Literal::Kind::kInt) {
        a.literal.int_value = -a.literal.int_value;
        a.literal.expr = -a.literal.expr;
        return a;
      }
      if (op == "-" && a.literal.kind == ops::Literal::Kind::kExpr) {
        a.literal.expr = -a.literal.expr;
        return a;
      }
      if (op == "-" && a.literal.kind == ops::Literal::Kind::kFloat) {
        a.literal.float_value = -a.literal.float_value;
        return a;
      }
      return v;
    }
    if (Is(n, "tuple") || Is(n, "list") || Is(n, "expression_list")) {
      v.literal.kind = ops::Literal::Kind::kList;
      std::vector<StructInfo> fields;
      for (TSNode c : NamedChildren(n)) {
        if (Is(c, "comment")) continue;
        Value item = LowerValue(c);
        fields.push_back(item.info);
        v.literal.items.push_back(item.literal);
      }
      v.info = StructInfo::Tuple(std::move(fields));
      return v;
    }
    if (Is(n, "binary_operator")) return BinaryOp(n);
    if (Is(n, "comparison_operator") || Is(n, "boolean_operator") || Is(n, "not_operator")) {
      for (TSNode c : NamedChildren(n)) LowerValue(c);
      return v;
    }
    if (Is(n, "call")) return Call(n);
    if (Is(n, "subscript")) return Subscript(n);
    if (Is(n, "attribute")) return Attribute(n);
    if (Is(n, "dictionary")) {
      for (TSNode p : NamedChildren(n)) {
        if (Is(p, "pair")) LowerValue(Field(p, "value"));
      }
      return v;
    }
    if (Is(n, "conditional_expression") || Is(n, "keyword_argument")) {
      for (TSNode c : NamedChildren(n)) LowerValue(c);
    }
    return v;
  }

  Value Subscript(TSNode n) {
    Value v;
    TSNode value = Field(n, "value");
    // metadata["relax.expr.Constant"][0]
    std::string_view head = TextOf(value, text_);
    if (head.rfind("metadata", 0) == 0) {
      v.constant = true;
      v.info = StructInfo::Unknown();
      return v;
    }
    Value base = LowerValue(value);
    std::vector<TSNode> idx;
    TSTreeCursor c = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&c)) {
      do {
        const char* field = ts_tree_cursor_current_field_name(&c);
        if (field != nullptr && std::strcmp(field, "subscript") == 0) idx.push_back(ts_tree_cursor_current_node(&c));
      } while (ts_tree_cursor_goto_next_sibling(&c));
    }
    ts_tree_cursor_delete(&c);
    if (idx.size() == 1 && base.info.kind == types::Kind::kTuple) {
      if (auto i = IntValue(idx[0], text_)) {
        int64_t size = static_cast<int64_t>(base.info.fields.size());
        if (*i >= 0 && *i < size) v.info = base.info.fields[*i];
        checks().Report(&check::Check::OnTupleIndex, check::TupleIndex{Rel(idx[0]), *i, base.info, print_});
        return v;
      }
    }
    for (TSNode i : idx) LowerValue(i);
    return v;
  }

  // `cls.f` as a value (not called).
  Value Attribute(TSNode n) {
    Value v;
    auto path = DottedPath(n, text_);
    if (path && path->size() == 2 && IsModuleRef((*path)[0])) {
      GlobalRef(n, (*path)[1]);
      return v;
    }
    TSNode obj = Field(n, "object");
    if (Is(obj, "identifier") && !path) LowerValue(obj);
    if (path && !path->empty() && !IsAlias(aliases_.relax, *path) && !IsAlias(aliases_.tir, *path)) {
      TSNode head = n;
      while (Is(head, "attribute")) head = Field(head, "object");
      if (Is(head, "identifier")) {
        std::string name(TextOf(head, text_));
        if (env_.count(name)) Use(head);
      }
    }
    return v;
  }

  bool IsModuleRef(const std::string& name) const {
    return module_aliases_.count(name) > 0 ||
           (!ctx_->module_name.empty() && name == ctx_->module_name);
  }

  // A reference to module function `name` through `node` (`cls.f`). Returns the callee.
  const FunctionModel* GlobalRef(TSNode node, const std::string& name, bool report = true) {
    auto it = ctx_->functions.find(name);
    if (it == ctx_->functions.end()) {
      if (report && !ctx_->extern_globals.count(name)) {
        fn_->dependencies[name] = 0;
        check::ScopeProblem p = Problem(check::ScopeProblem::Kind::kUndefinedGlobal, Rel(node), name);
        p.detail = ctx_->module_name;
        ReportScope(std::move(p));
      }
      return nullptr;
    }
    fn_->dependencies[name] = it->second->signature_hash;
    if (report) fn_->calls.emplace_back(name, Rel(node));
    return it->second;
  }

  Value BinaryOp(TSNode n) {
    static const std::pair<const char*, const char*> kOps[] = {
        {"+", "add"}, {"-", "subtract"}, {"*", "multiply"}, {"/", "divide"},
        {"//", "floor_divide"}, {"%", "floor_mod"}, {"**", "power"}};
    std::string_view op = TextOf(Field(n, "operator"), text_);
    Value a = LowerValue(Field(n, "left"));
    Value b = LowerValue(Field(n, "right"));
    Value v;
    auto a_int = a.literal.AsExpr(), b_int = b.literal.AsExpr();
    bool a_sym = a.literal.kind == ops::Literal::Kind::kExpr || a.literal.kind == ops::Literal::Kind::kInt;
    bool b_sym = b.literal.kind == ops::Literal::Kind::kExpr || b.literal.kind == ops::Literal::Kind::kInt;
    if (a_sym && b_sym && a_int && b_int && (a.var.empty() && b.var.empty())) {
      v.literal.kind = ops::Literal::Kind::kExpr;
      if (op == "+") v.literal.expr = *a_int + *b_int;
      else if (op == "-") v.literal.expr = *a_int - *b_int;
      else if (op == "*") v.literal.expr = *a_int * *b_int;
      else if (op == "//") v.literal.expr = arith::Expr::FloorDiv(*a_int, *b_int);
      else if (op == "%") v.literal.expr = arith::Expr::FloorMod(*a_int, *b_int);
      else v.literal.kind = ops::Literal::Kind::kOther;
      if (v.literal.kind == ops::Literal::Kind::kExpr) v.info = StructInfo::Prim("int64");
      return v;
    }
    if (!a.info.IsTensor() || !b.info.IsTensor()) return v;
    for (const auto& [sym, name] : kOps) {
      if (op != sym) continue;
      const ops::OpInfo* info = ops::FindOp(name);
      if (info == nullptr || info->params.size() < 2) return v;
      std::vector<ops::ArgValue> args(info->params.size());
      args[0].present = true;
      args[0].info = a.info;
      args[0].literal = a.literal;
      args[1].present = true;
      args[1].info = b.info;
      args[1].literal = b.literal;
      ops::InferContext ictx;
      ictx.facts = &facts_;
      ops::InferResult r = ops::Infer(*info, args, ictx);
      if (!r.errors.empty()) {
        check::OpCall c;
        c.spelling = std::string("R.") + name;
        for (const ops::InferError& e : r.errors) {
          TSNode at = e.param == 0 ? Field(n, "left") : e.param == 1 ? Field(n, "right") : n;
          c.inference_errors.push_back({Rel(at), e.message});
        }
        checks().Report(&check::Check::OnOpCall, c);
      }
      v.info = r.info;
      if (!v.info.IsUnknown()) fn_->hovers.push_back({Rel(n), types::Print(v.info, print_)});
    }
    return v;
  }

  // ---------------------------------------------------------------- calls

  Value Call(TSNode call) {
    Value v;
    TSNode callee = Field(call, "function");
    auto path = DottedPath(callee, text_);
    CallArgs args = ArgsOf(call, text_);
    if (path && path->size() >= 2 && IsAlias(aliases_.relax, *path)) return RelaxCall(call, callee, *path, args);
    if (path && path->size() == 2 && IsModuleRef((*path)[0])) return GlobalCall(call, callee, (*path)[1], args);
    if (path && path->size() >= 2 && IsAlias(aliases_.tir, *path)) {
      // T.int64(5), T.float32(1.0): a PrimValue.
      const std::string& f = (*path)[1];
      if (path->size() == 2 && vocab::IsKnownDType(f) && args.positional.size() == 1) {
        Value inner = LowerValue(args.positional[0]);
        v.literal = inner.literal;
        v.info = StructInfo::Prim(f);
        return v;
      }
      for (TSNode a : args.positional) LowerValue(a);
      return v;
    }
    // Anything else (Python helpers, local functions): arguments are still uses.
    if (Is(callee, "identifier")) {
      Value f = LowerValue(callee);
      (void)f;
    } else if (!path) {
      LowerValue(callee);
    } else if (!path->empty()) {
      TSNode head = callee;
      while (Is(head, "attribute")) head = Field(head, "object");
      if (Is(head, "identifier") && env_.count(std::string(TextOf(head, text_)))) Use(head);
    }
    for (TSNode a : args.positional) LowerValue(a);
    for (const auto& kw : args.keywords) LowerValue(kw.second);
    return v;
  }

  Value RelaxCall(TSNode call, TSNode callee, const std::vector<std::string>& path, const CallArgs& args) {
    Value v;
    std::string sub = Join(path, 1);
    if (sub == "output") {
      Output(call);
      return v;
    }
    if (sub == "match_cast") return MatchCast(call, args);
    if (sub == "func_attr") {
      FuncAttr(args);
      return v;
    }
    if (sub == "ExternFunc") {
      v.info = StructInfo::Callable(std::nullopt, StructInfo::Unknown(), false);
      return v;
    }
    // Builder names, annotations, frames, devices (the name table, vocab/script_names.h): not
    // operators, and not unknown ones either.
    if (vocab::IsRelaxNonOperator(sub)) {
      for (TSNode a : args.positional) LowerValue(a);
      return v;
    }
    const ops::OpInfo* op = ops::FindOp(sub);
    if (op == nullptr) {
      checks().Report(&check::Check::OnUnknownOp, check::UnknownOp{Rel(callee), "R." + sub});
      for (TSNode a : args.positional) LowerValue(a);
      for (const auto& kw : args.keywords) LowerValue(kw.second);
      return v;
    }
    std::vector<std::string> keyword_names;
    for (const auto& kw : args.keywords) keyword_names.push_back(kw.first);
    ops::Binding binding =
        ops::BindArguments(*op, static_cast<int>(args.positional.size()), keyword_names, args.splat);
    auto arg_node = [&](int index) -> TSNode {
      if (index < 0) return TSNode{};
      if (index < static_cast<int>(args.positional.size())) return args.positional[index];
      size_t k = static_cast<size_t>(index) - args.positional.size();
      return k < args.keyword_nodes.size() ? args.keyword_nodes[k] : TSNode{};
    };
    bool bad_args = !binding.problems.empty();
    if (bad_args) {
      check::OpCall c;
      c.spelling = "R." + sub;
      for (const ops::Binding::Problem& p : binding.problems) {
        TSNode at = arg_node(p.arg);
        if (Is(at, "keyword_argument")) at = Field(at, "name");
        c.argument_problems.push_back({Rel(ts_node_is_null(at) ? callee : at), p.message});
      }
      checks().Report(&check::Check::OnOpCall, c);
    }
    std::vector<ops::ArgValue> values(op->params.size());
    std::vector<TSNode> nodes(op->params.size());
    std::vector<Value> lowered(op->params.size());
    for (size_t i = 0; i < op->params.size(); ++i) {
      int a = i < binding.arg_of_param.size() ? binding.arg_of_param[i] : -1;
      TSNode node = arg_node(a);
      if (Is(node, "keyword_argument")) node = Field(node, "value");
      nodes[i] = node;
      if (ts_node_is_null(node)) continue;
      values[i].present = true;
      if (IsStructInfoParam(op->params[i].name)) {
        AnnotationContext actx = AnnCtx(false);
        actx.on_var = [&](const std::string& name, TextRange where, bool) { UseSymVar(name, where); };
        TSNode inner = Unparen(node);
        std::vector<TSNode> items;
        if (Is(inner, "list") || Is(inner, "tuple")) {
          for (TSNode c : NamedChildren(inner)) {
            if (!Is(c, "comment")) items.push_back(c);
          }
        }
        // TVM: a list of one struct info is that struct info; several make a Tuple.
        values[i].annotation = LowerAnnotation(items.size() == 1 ? items[0] : node, actx);
        continue;
      }
      lowered[i] = LowerValue(node);
      values[i].info = lowered[i].info;
      values[i].literal = lowered[i].literal;
      values[i].var = lowered[i].var;
    }
    // Positional arguments not bound to any parameter are still uses.
    for (size_t i = 0; i < args.positional.size(); ++i) {
      bool bound = false;
      for (int a : binding.arg_of_param) bound = bound || a == static_cast<int>(i);
      if (!bound) LowerValue(args.positional[i]);
    }
    fn_->hovers.push_back({Rel(callee), ops::Signature(*op, print_.current_era), op->doc});
    if (!op->pure) {
      std::string opname = op->name;
      Impure(callee, opname.rfind("script.", 0) == 0 ? "R." + sub : "operator " + opname, call);
    }
    std::string name = op->name;
    if (name == "relax.memory.kill_tensor" || name == "relax.memory.kill_storage" ||
        name == "relax.vm.kill_object") {
      if (!nodes.empty() && !ts_node_is_null(nodes[0]) && lowered[0].constant) {
        checks().Report(&check::Check::OnKillOfConstant,
                        check::KillOfConstant{Rel(nodes[0]), sub, std::string(TextOf(nodes[0], text_).substr(0, 60))});
      }
    }
    if (bad_args) return v;
    ops::InferContext ictx;
    ictx.facts = &facts_;
    ops::InferResult r = ops::Infer(*op, values, ictx);
    if (!r.errors.empty()) {
      check::OpCall c;
      c.spelling = "R." + sub;
      for (const ops::InferError& e : r.errors) {
        TSNode at = e.param >= 0 && e.param < static_cast<int>(nodes.size()) && !ts_node_is_null(nodes[e.param])
                        ? nodes[e.param]
                        : callee;
        c.inference_errors.push_back({Rel(at), e.message});
      }
      checks().Report(&check::Check::OnOpCall, c);
    }
    v.info = r.info;
    const std::string script = op->script;
    if (script == "const") v.constant = true;
    // Literal views of the helpers whose value is a literal: R.shape([..]), R.dtype("f32"),
    // R.str("s"), R.prim_value(v).
    if ((script == "shape" || script == "dtype" || script == "str" || script == "prim_value") &&
        !lowered.empty()) {
      v.literal = lowered[0].literal;
    }
    if (name == "relax.memory.alloc_storage" || name == "relax.vm.alloc_storage") {
      v.storage = AllocStorage(name == "relax.memory.alloc_storage", nodes, lowered, values);
    } else if (name == "relax.memory.alloc_tensor" || name == "relax.vm.alloc_tensor") {
      AllocTensor(nodes, lowered, values);
    } else if (name == "relax.call_tir" || name == "relax.call_tir_inplace" ||
               name == "relax.call_tir_with_grad") {
      CallTir(*op, nodes, lowered, values);
    } else if (name == "relax.assert_op") {
      if (!nodes.empty() && !ts_node_is_null(nodes[0])) AddFacts(nodes[0]);
    }
    if (!v.info.IsUnknown()) fn_->hovers.push_back({Rel(call), types::Print(v.info, print_)});
    return v;
  }

  // An argument value: shapes (`R.shape([m])`, tuples) keep their literal view.

  Value MatchCast(TSNode call, const CallArgs& args) {
    Value v;
    if (args.positional.size() < 2) {
      for (TSNode a : args.positional) LowerValue(a);
      return v;
    }
    Value value = LowerValue(args.positional[0]);
    AnnotationContext actx = AnnCtx(false);
    actx.on_var = [&](const std::string& name, TextRange where, bool bare) {
      auto it = symvars_.find(name);
      if (it != symvars_.end() && bare) {
        it->second.bound = true;
        AddSymVarReferences(name, where);
      } else if (!env_.count(name) && !IsOuterName(name)) {
        UseSymVar(name, where);
      }
    };
    StructInfo target = LowerAnnotation(args.positional[1], actx);
    if (!target.IsUnknown() && !value.info.IsUnknown()) {
      checks().Report(&check::Check::OnMatchCast,
                      check::MatchCast{Rel(args.positional[1]), target, value.info, &facts_, print_});
    }
    v.info = target;
    (void)call;
    return v;
  }

  // Facts from an assert condition: `a <= b`, `a < b`, `a >= b`, `a > b`, `a == b`, `and`.
  void AddFacts(TSNode cond) {
    cond = Unparen(cond);
    if (Is(cond, "call")) {  // R.prim_value(cond)
      CallArgs a = ArgsOf(cond, text_);
      if (a.positional.size() == 1) AddFacts(a.positional[0]);
      return;
    }
    if (Is(cond, "boolean_operator") && TextOf(Field(cond, "operator"), text_) == "and") {
      AddFacts(Field(cond, "left"));
      AddFacts(Field(cond, "right"));
      return;
    }
    if (!Is(cond, "comparison_operator")) return;
    std::vector<TSNode> operands;
    std::vector<std::string> ops;
    for (TSNode c : Children(cond)) {
      if (ts_node_is_named(c)) {
        if (!Is(c, "comment")) operands.push_back(c);
      } else {
        ops.emplace_back(TextOf(c, text_));
      }
    }
    if (operands.size() != ops.size() + 1) return;
    AnnotationContext actx = AnnCtx(false);
    for (size_t i = 0; i < ops.size(); ++i) {
      arith::Expr a = LowerDim(operands[i], actx), b = LowerDim(operands[i + 1], actx);
      const std::string& o = ops[i];
      if (o == "<=") facts_.AddNonNegative(b - a);
      else if (o == "<") facts_.AddNonNegative(b - a - 1);
      else if (o == ">=") facts_.AddNonNegative(a - b);
      else if (o == ">") facts_.AddNonNegative(a - b - 1);
      else if (o == "==") facts_.AddEqual(a, b);
    }
  }

  // ---------------------------------------------------------------- purity

  // True when every call in `value` is a Relax operator registered as pure (R.match_cast aside:
  // its binding asserts a shape even when unused). Calls of anything else (module functions,
  // Python values, unknown names) are not provably pure.
  bool ProvablyPure(TSNode value) const {
    bool pure = true;
    ForEachNode(value, [&](TSNode n) {
      if (!pure) return false;
      if (!Is(n, "call")) return true;
      auto path = DottedPath(Field(n, "function"), text_);
      const ops::OpInfo* op = nullptr;
      if (path && path->size() >= 2 && IsAlias(aliases_.relax, *path)) op = ops::FindOp(Join(*path, 1));
      pure = op != nullptr && op->pure && (*path)[1] != "match_cast";
      return pure;
    });
    return pure;
  }

  // Bindings of pure values whose variable nothing reads: a hint, faded by editors. The model's
  // references are the evidence; as a guard against constructs whose uses it does not record, a
  // name spelled as an identifier anywhere in the function other than where a symbol is defined
  // is taken as used.
  void FinishUnused() {
    if (removable_.empty()) return;
    std::set<uint32_t> definitions;
    for (const Symbol& s : fn_->symbols) definitions.insert(s.definition.begin);
    std::map<std::string_view, int> spelled;
    ForEachNode(def_, [&](TSNode n) {
      if (Is(n, "identifier") && !definitions.count(Rel(n).begin)) ++spelled[TextOf(n, text_)];
      return true;
    });
    for (int index : removable_) {
      const Symbol& s = fn_->symbols[static_cast<size_t>(index)];
      if (!s.references.empty() || spelled[s.name] > 0) continue;
      auto joined = joined_with_.find(index);
      if (joined != joined_with_.end() &&
          !fn_->symbols[static_cast<size_t>(joined->second)].references.empty()) {
        continue;
      }
      checks().Report(&check::Check::OnUnusedBinding, check::UnusedBinding{s.name, s.definition});
    }
  }

  // Reports an impure call to the checks, with what their fixes need to know.
  void Impure(TSNode callee, const std::string& what, TSNode call) {
    check::ImpureCall c;
    c.callee_range = Rel(callee);
    c.what = what;
    c.is_kill = what.find("kill") != std::string::npos;
    if (dataflow_) {
      TextRange with = Rel(dataflow_->with_stmt);
      c.dataflow_keyword = TextRange{with.begin, with.begin + 4};
      StatementOfCall(call, &c);
    }
    c.function_pure = pure_ && !force_pure_;
    if (c.function_pure) {
      c.function_name = fn_->name;
      c.decorator_range = Rel(decorator_);
      c.impure_edit = ImpureDecoratorEdit();
    }
    checks().Report(&check::Check::OnImpureCall, c);
  }

  // When the current statement is exactly `call` (optionally bound to a name): its lines, the
  // edit that re-inserts it after the dataflow block, the dataflow variables it reads and the
  // name it binds.
  void StatementOfCall(TSNode call, check::ImpureCall* c) {
    TSNode stmt = current_stmt_;
    if (ts_node_is_null(stmt)) return;
    TSNode expr = Is(stmt, "assignment") ? stmt : NamedChildren(stmt).empty() ? TSNode{} : NamedChildren(stmt)[0];
    TSNode value = Is(expr, "assignment") ? Unparen(Field(expr, "right")) : expr;
    if (!ts_node_eq(value, call)) return;
    uint32_t line_begin = LineStart(text_, ts_node_start_byte(stmt));
    uint32_t line_end = ts_node_end_byte(stmt);
    while (line_end < text_.size() && text_[line_end] != '\n') ++line_end;
    if (line_end < text_.size()) ++line_end;
    c->statement_lines = Rel(TextRange{line_begin, line_end});
    TSNode with = dataflow_->with_stmt;
    uint32_t after = ts_node_end_byte(with);
    while (after < text_.size() && text_[after] != '\n') ++after;
    if (after < text_.size()) ++after;
    c->insert_after_block = {Rel(TextRange{after, after}),
                             IndentOf(text_, ts_node_start_byte(with)) + std::string(TextOf(stmt, text_)) + "\n"};
    ForEachNode(value, [&](TSNode n) {
      if (Is(n, "identifier")) {
        std::string name(TextOf(n, text_));
        auto it = env_.find(name);
        if (it != env_.end() && it->second.dataflow) c->reads_dataflow_vars.insert(name);
      }
      return true;
    });
    if (Is(expr, "assignment") && Is(Field(expr, "left"), "identifier")) {
      c->binds = std::string(TextOf(Field(expr, "left"), text_));
    }
  }

  // ---------------------------------------------------------------- memory

  static std::optional<arith::Expr> Product(const ops::Literal& lit) {
    auto dims = lit.AsExprList(true);
    if (!dims) return std::nullopt;
    arith::Expr p(1);
    for (const arith::Expr& d : *dims) p = p * d;
    return p;
  }
  static std::optional<arith::Expr> ShapeProduct(const Value& v) {
    if (auto p = Product(v.literal)) return p;
    if (v.info.kind == types::Kind::kShape && v.info.values) {
      arith::Expr p(1);
      for (const arith::Expr& d : *v.info.values) p = p * d;
      return p;
    }
    return std::nullopt;
  }
  static std::optional<std::string> DTypeArg(const ops::Literal& lit) {
    if (lit.kind == ops::Literal::Kind::kString) return lit.string_value;
    return std::nullopt;
  }

  // Records the storage; its id goes with the value (Value::storage) to later alloc_tensor calls.
  int AllocStorage(bool memory_op, const std::vector<TSNode>& nodes, const std::vector<Value>& lowered,
                   const std::vector<ops::ArgValue>& values) {
    if (nodes.empty() || ts_node_is_null(nodes[0])) return -1;
    check::StorageAlloc s;
    s.id = static_cast<int>(storages_.size());
    s.memory_op = memory_op;
    s.size_range = Rel(nodes[0]);
    s.size = ShapeProduct(lowered[0]);
    size_t scope_index = memory_op ? 2 : 3, dtype_index = memory_op ? 3 : 2;
    s.scope_given = values.size() > scope_index && values[scope_index].present;
    if (s.scope_given) s.scope = DTypeArg(values[scope_index].literal);
    s.dtype_given = values.size() > dtype_index && values[dtype_index].present;
    if (s.dtype_given) s.dtype = DTypeArg(values[dtype_index].literal);
    storages_.push_back(std::make_unique<check::StorageAlloc>(std::move(s)));
    return static_cast<int>(storages_.size()) - 1;
  }

  void AllocTensor(const std::vector<TSNode>& nodes, const std::vector<Value>& lowered,
                   const std::vector<ops::ArgValue>& values) {
    if (nodes.size() < 4 || ts_node_is_null(nodes[0]) || ts_node_is_null(nodes[2])) return;
    int sid = lowered[0].storage;
    if (sid < 0) return;
    check::TensorView v;
    v.storage = storages_[static_cast<size_t>(sid)].get();
    v.shape_range = Rel(nodes[2]);
    v.offset = arith::Expr(0);
    if (values[1].present) v.offset = lowered[1].literal.AsExpr();
    v.elements = ShapeProduct(lowered[2]);
    if (values[3].present) v.dtype = DTypeArg(lowered[3].literal);
    v.facts = &facts_;
    v.assumed_upper_bound = ctx_->assumed_upper_bound;
    TSNode anchor = dataflow_ ? dataflow_->with_stmt : current_stmt_;
    if (!ts_node_is_null(anchor)) {
      v.assert_at = LineStart(text_, ts_node_start_byte(anchor)) - base_;
      v.assert_indent = IndentOf(text_, ts_node_start_byte(anchor));
    }
    if (pure_ && !force_pure_) v.impure_edit = ImpureDecoratorEdit();
    checks().Report(&check::Check::OnTensorView, v);
  }

 public:
  void Finish() {
    FinishUnused();
    checks.End();
  }

 private:
  // ---------------------------------------------------------------- call_tir

  // Checks the arguments of R.call_tir(cls.f, args, out_sinfo, tir_vars) against f's buffers.
  void CallTir(const ops::OpInfo& op, const std::vector<TSNode>& nodes, const std::vector<Value>& lowered,
               const std::vector<ops::ArgValue>& values) {
    if (nodes.size() < 3 || ts_node_is_null(nodes[0])) return;
    auto path = DottedPath(nodes[0], text_);
    if (!path || path->size() != 2 || !IsModuleRef((*path)[0])) return;
    // The callee argument was lowered (and reported if undefined) with the other arguments.
    const FunctionModel* callee = GlobalRef(nodes[0], (*path)[1], /*report=*/false);
    if (callee == nullptr || callee->kind != FunctionModel::Kind::kPrim || !callee->prim.complete) return;
    // Inputs: the tuple's elements (or a single value).
    std::vector<TSNode> in_nodes;
    TSNode args_node = Unparen(nodes[1]);
    if (Is(args_node, "call")) {  // R.tuple(a, b)
      auto p = DottedPath(Field(args_node, "function"), text_);
      if (p && p->size() == 2 && IsAlias(aliases_.relax, *p) && (*p)[1] == "tuple") {
        for (TSNode c : ArgsOf(args_node, text_).positional) in_nodes.push_back(c);
        args_node = TSNode{};
      }
    }
    if (ts_node_is_null(args_node)) {
    } else if (Is(args_node, "tuple") || Is(args_node, "list")) {
      for (TSNode c : NamedChildren(args_node)) {
        if (!Is(c, "comment")) in_nodes.push_back(c);
      }
    } else if (!ts_node_is_null(args_node)) {
      in_nodes.push_back(args_node);
    }
    // Their struct info: the argument was lowered with the other arguments (a tuple's fields).
    std::vector<StructInfo> in_infos(in_nodes.size(), StructInfo::Unknown());
    const StructInfo& args_info = lowered[1].info;
    if (args_info.kind == types::Kind::kTuple && args_info.fields.size() == in_nodes.size()) {
      in_infos = args_info.fields;
    } else if (in_nodes.size() == 1 && ts_node_eq(in_nodes[0], args_node)) {
      in_infos[0] = args_info;
    }
    // Outputs.
    int out_index = -1, tir_index = -1, inplace_index = -1;
    for (size_t i = 0; i < op.params.size(); ++i) {
      if (IsStructInfoParam(op.params[i].name)) out_index = static_cast<int>(i);
      if (std::strcmp(op.params[i].name, "tir_vars") == 0) tir_index = static_cast<int>(i);
      if (std::strcmp(op.params[i].name, "inplace_indices") == 0) inplace_index = static_cast<int>(i);
    }
    if (out_index < 0 || !values[out_index].annotation) return;
    const StructInfo& out = *values[out_index].annotation;
    std::vector<StructInfo> outs;
    std::vector<TSNode> out_nodes;
    TSNode out_node = Unparen(nodes[out_index]);
    if (Is(out_node, "list") || Is(out_node, "tuple")) {
      outs = out.fields;
      for (TSNode c : NamedChildren(out_node)) {
        if (!Is(c, "comment")) out_nodes.push_back(c);
      }
    } else {
      outs.push_back(out);
      out_nodes.push_back(out_node);
    }
    if (out_nodes.size() != outs.size()) return;
    // In-place outputs alias inputs and take no parameter.
    size_t fresh_outputs = outs.size();
    if (inplace_index >= 0) {
      auto idx = values[inplace_index].present ? values[inplace_index].literal.AsIntList(true) : std::nullopt;
      if (!idx) return;
      fresh_outputs = 0;
      for (int64_t i : *idx) fresh_outputs += i == -1 ? 1 : 0;
      if (fresh_outputs != 0) return;  // mixed in-place/fresh: parameter order not modelled
    }
    check::CallTir event;
    if (tir_index >= 0 && values[tir_index].present) {
      auto list = lowered[tir_index].literal.AsExprList(true);
      if (!list) return;
      event.tir_values = *list;
    }
    event.callee = (*path)[1];
    event.function = callee;
    event.callee_range = Rel(nodes[0]);
    event.arguments_range = Rel(nodes[1]);
    // A scalar input's value binds the parameter's name (read only for scalar parameters: reading
    // a value records its symbolic variables' references).
    const PrimSignature& sig = callee->prim;
    bool counts_match = in_nodes.size() + fresh_outputs + event.tir_values.size() == sig.params.size();
    for (size_t i = 0; i < in_nodes.size(); ++i) {
      bool scalar = counts_match && sig.params[i].kind == PrimSignature::Param::Kind::kScalar;
      event.inputs.push_back({Rel(in_nodes[i]), in_infos[i], scalar ? LiteralOf(in_nodes[i]) : std::nullopt});
    }
    for (size_t j = 0; j < fresh_outputs; ++j) event.outputs.push_back({Rel(out_nodes[j]), outs[j], std::nullopt});
    event.facts = &facts_;
    event.print = print_;
    checks().Report(&check::Check::OnCallTir, event);
  }

  std::optional<arith::Expr> LiteralOf(TSNode n) {
    n = Unparen(n);
    if (auto i = IntValue(n, text_)) return arith::Expr(*i);
    if (Is(n, "identifier")) {
      std::string name(TextOf(n, text_));
      if (symvars_.count(name)) return arith::Expr::Var(name);
      return std::nullopt;
    }
    if (Is(n, "call")) {  // T.int64(3), R.prim_value(n)
      CallArgs a = ArgsOf(n, text_);
      if (a.positional.size() == 1) return LiteralOf(a.positional[0]);
    }
    if (Is(n, "binary_operator")) {
      AnnotationContext actx = AnnCtx(false);
      return LowerDim(n, actx);
    }
    return std::nullopt;
  }

  // ---------------------------------------------------------------- direct calls

  Value GlobalCall(TSNode call, TSNode callee_node, const std::string& name, const CallArgs& args) {
    Value v;
    std::vector<Value> arg_values;
    for (TSNode a : args.positional) arg_values.push_back(LowerValue(a));
    for (const auto& kw : args.keywords) LowerValue(kw.second);
    const FunctionModel* callee = GlobalRef(callee_node, name);
    if (callee == nullptr) return v;
    if (callee->kind == FunctionModel::Kind::kPrim) {
      if (callee->prim.writes) Impure(callee_node, "call of PrimFunc " + Quote(name) + " (it writes to its buffers)", call);
      // A PrimFunc with a return annotation returns a value; otherwise the call is void.
      v.info = callee->prim.returns_value ? StructInfo::Unknown() : StructInfo::Void();
      fn_->hovers.push_back({Rel(callee_node), "PrimFunc " + name + PrimSignatureText(callee->prim)});
      if (callee->prim.complete && !args.splat && args.keywords.empty() &&
          args.positional.size() == callee->prim.params.size()) {
        check::PrimFuncCall event;
        event.callee = name;
        event.function = callee;
        for (size_t i = 0; i < args.positional.size(); ++i) {
          event.arguments.push_back({Rel(args.positional[i]), arg_values[i].info, std::nullopt});
        }
        event.facts = &facts_;
        event.print = print_;
        checks().Report(&check::Check::OnPrimFuncCall, event);
      }
      return v;
    }
    const RelaxSignature& sig = callee->relax;
    if (!sig.pure) Impure(callee_node, "call of impure function " + Quote(name), call);
    check::RelaxFunctionCall event;
    event.callee = name;
    event.call_range = Rel(call);
    event.parameters = sig.params.size();
    event.arity_known = !args.splat && args.keywords.empty() && sig.complete;
    event.given = args.positional.size();
    event.facts = &facts_;
    event.print = print_;
    if (event.arity_known && event.given != event.parameters) {
      checks().Report(&check::Check::OnRelaxFunctionCall, event);
      return v;
    }
    // Symbolic dims of the parameters bind to the arguments' dims, in order.
    std::map<std::string, arith::Expr> binding;
    for (size_t i = 0; i < args.positional.size() && i < sig.params.size(); ++i) {
      const StructInfo& p = sig.params[i];
      const StructInfo& a = arg_values[i].info;
      if (p.IsTensor() && a.IsTensor() && p.values && a.values && p.values->size() == a.values->size()) {
        for (size_t k = 0; k < p.values->size(); ++k) {
          if (auto var = (*p.values)[k].AsVar(); var && !binding.count(*var)) binding[*var] = (*a.values)[k];
        }
      }
      event.arguments.push_back({Rel(args.positional[i]), a, sig.param_names[i], p, p.Substitute(binding)});
    }
    checks().Report(&check::Check::OnRelaxFunctionCall, event);
    if (!sig.ret.IsUnknown()) {
      StructInfo r = sig.ret.Substitute(binding);
      std::set<std::string> keep;
      for (const auto& [k, e] : binding) e.CollectVars(&keep);
      for (const auto& [k, sv] : symvars_) keep.insert(k);
      v.info = r.EraseVarsNotIn(keep);
    }
    if (!v.info.IsUnknown()) fn_->hovers.push_back({Rel(call), types::Print(v.info, print_)});
    return v;
  }



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
  types::PrintOptions print_;
  bool pure_ = true;
  bool force_pure_ = false;
  bool saw_return_ = false;
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

}  // namespace

void LowerRelaxSignature(TSNode def, std::string_view text, const Aliases& aliases, FunctionModel* fn) {
  ModuleContext none;
  none.aliases = &aliases;
  RelaxLowering(def, text, aliases, fn, &none).Signature();
}

void LowerRelaxBody(TSNode def, std::string_view text, const ModuleContext& ctx, FunctionModel* fn) {
  RelaxLowering lowering(def, text, *ctx.aliases, fn, &ctx);
  lowering.Body();
  lowering.Finish();
}

}  // namespace tvmls::analysis
