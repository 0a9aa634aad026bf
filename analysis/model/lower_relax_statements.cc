// Relax lowering (model/relax_lowering.h): statements, blocks, dataflow blocks, branches,
// returns and assignments.
#include "model/relax_lowering.h"

namespace tvmls::analysis::relax_lowering {

auto RelaxLowering::Block(TSNode block) -> void {
  for (TSNode stmt : NamedChildren(block)) Statement(stmt);
}

auto RelaxLowering::Statement(TSNode stmt) -> void {
  if (dataflow_ && !ts_node_is_null(dataflow_->output_call)) AfterOutput(stmt);
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
    if (IsPrimFuncDefinition(stmt) && !ts_node_is_null(name)) {
      ReportRule(check::ParserRule::Kind::kInlinePrimFunc, Rel(name));
    }
    if (!ts_node_is_null(name)) {
      Define(name, StructInfo::Callable(std::nullopt, StructInfo::Unknown(), true),
             Symbol::Kind::kRelaxVar, true);
    }
  }
}

auto RelaxLowering::CallStatement(TSNode call) -> void {
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
  Value v = LowerValue(call);
  const StructInfo& info = v.info;
  bool non_void = info.kind == types::Kind::kTensor || info.kind == types::Kind::kShape ||
                  info.kind == types::Kind::kPrim || (info.kind == types::Kind::kTuple && !info.fields.empty());
  if (non_void) {
    check::ParserRule r;
    r.kind = check::ParserRule::Kind::kUnboundValue;
    r.range = Rel(call);
    r.detail = types::Print(info, print_);
    r.insert_at = Rel(call).begin;
    checks().Report(&check::Check::OnParserRule, r);
  }
}

auto RelaxLowering::IsPrimFuncDefinition(TSNode stmt) const -> bool {
  if (!Is(stmt, "decorated_definition")) return false;
  for (TSNode d : NamedChildren(stmt)) {
    if (!Is(d, "decorator")) continue;
    TSNode v = Field(d, "value");
    auto path = DottedPath(Is(v, "call") ? Field(v, "function") : v, text_);
    if (path && path->size() == 2 && IsAlias(aliases_.tir, *path) && (*path)[1] == "prim_func") return true;
  }
  return false;
}

auto RelaxLowering::AfterOutput(TSNode stmt) -> void {
  TSNode e = stmt;
  if (Is(e, "expression_statement")) {
    std::vector<TSNode> kids = NamedChildren(e);
    if (kids.size() != 1) return;
    e = kids[0];
  }
  // What emits a binding: an assignment or a call of a Relax name (`R.add`, `cls.f`), not the
  // declaration of a symbolic variable (`n = T.int64()`) nor a docstring.
  TSNode call = Is(e, "assignment") ? Unparen(Field(e, "right")) : e;
  if (!Is(call, "call")) return;
  auto path = DottedPath(Field(call, "function"), text_);
  if (!path || path->size() < 2) return;
  bool relax = IsAlias(aliases_.relax, *path);
  bool module_call = (*path)[0] == "cls" || (ctx_ != nullptr && !ctx_->module_name.empty() && (*path)[0] == ctx_->module_name);
  if (!relax && !module_call) return;
  std::string detail = relax && !Is(e, "assignment") && path->size() == 2 && (*path)[1] == "output" ? "output" : "";
  ReportRule(check::ParserRule::Kind::kStatementAfterOutput, Rel(e), Rel(Field(dataflow_->output_call, "function")),
             detail);
}

auto RelaxLowering::Output(TSNode call) -> void {
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
    // TVM: "An output variable is not emitted by this dataflow block".
    auto it = env_.find(name);
    const std::vector<std::string>& bound = dataflow_->bound;
    if (it != env_.end() && it->second.symbol >= 0 && std::find(bound.begin(), bound.end(), name) == bound.end()) {
      ReportRule(check::ParserRule::Kind::kOutputNotInBlock, Rel(a),
                 fn_->symbols[static_cast<size_t>(it->second.symbol)].definition, name);
    }
  }
}

auto RelaxLowering::IsDataflowWith(TSNode stmt) const -> bool {
  TSNode clause{};
  for (TSNode c : NamedChildren(stmt)) {
    if (Is(c, "with_clause")) clause = c;
  }
  for (TSNode item : NamedChildren(clause)) {
    TSNode v = Field(item, "value");
    if (Is(v, "call")) {
      auto path = DottedPath(Field(v, "function"), text_);
      if (path && path->size() == 2 && IsAlias(aliases_.relax, *path) && (*path)[1] == "dataflow") return true;
    }
  }
  return false;
}

auto RelaxLowering::WithStatement(TSNode stmt) -> void {
  // `with R.dataflow():`
  bool is_dataflow = IsDataflowWith(stmt);
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

auto RelaxLowering::IfStatement(TSNode stmt) -> void {
  if (dataflow_) {
    ReportScope(Problem(check::ScopeProblem::Kind::kIfInDataflow, Rel(ts_node_child(stmt, 0)), ""));
  }
  ++if_depth_;
  IfBranches(stmt);
  --if_depth_;
}

auto RelaxLowering::IfBranches(TSNode stmt) -> void {
  LowerValue(Field(stmt, "condition"));
  auto saved_env = env_;
  arith::Facts saved_facts = facts_;
  // Whether a branch ends in a binding TVM emits: its last statement is `name = value` with a
  // known Relax value (a string, `T.int64()` or an unknown Python value emits nothing).
  auto lower_branch = [&](TSNode block) {
    TSNode last = LastAssignment(block);
    Block(block);
    return !ts_node_is_null(last) && ts_node_eq(last, last_emitting_assignment_) ? last : TSNode{};
  };
  TSNode then_binding = lower_branch(Field(stmt, "consequence"));
  auto then_env = env_;
  env_ = saved_env;
  facts_ = saved_facts;
  TSNode alt = Field(stmt, "alternative");
  TSNode else_binding{};
  if (Is(alt, "else_clause")) else_binding = lower_branch(Field(alt, "body"));
  auto else_env = env_;
  env_ = saved_env;
  facts_ = saved_facts;
  // TVM names the `if`'s value after both branches' last bindings, which must agree.
  if (!ts_node_is_null(then_binding) && !ts_node_is_null(else_binding)) {
    TSNode then_name = Field(then_binding, "left"), else_name = Field(else_binding, "left");
    if (TextOf(then_name, text_) != TextOf(else_name, text_)) {
      ReportRule(check::ParserRule::Kind::kIfBranchMismatch, Rel(else_name), Rel(then_name),
                 std::string(TextOf(then_name, text_)));
    }
  }
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

auto RelaxLowering::LastStatement(TSNode block) -> TSNode {
  std::vector<TSNode> stmts = NamedChildren(block);
  for (auto it = stmts.rbegin(); it != stmts.rend(); ++it) {
    if (Is(*it, "comment")) continue;
    TSNode a = *it;
    // A trailing dataflow block: its last binding (R.output emits none).
    if (Is(a, "with_statement") && IsDataflowWith(a)) return LastStatement(Field(a, "body"));
    if (Is(a, "expression_statement") && !NamedChildren(a).empty()) a = NamedChildren(a)[0];
    if (Is(a, "call")) {
      auto path = DottedPath(Field(a, "function"), text_);
      if (path && path->size() == 2 && IsAlias(aliases_.relax, *path) && (*path)[1] == "output") continue;
    }
    if (Is(a, "assignment")) {
      // `n = T.int64()` declares a symbolic variable and emits nothing.
      TSNode rhs = Unparen(Field(a, "right"));
      auto path = Is(rhs, "call") ? DottedPath(Field(rhs, "function"), text_) : std::nullopt;
      if (path && path->size() == 2 && IsAlias(aliases_.tir, *path) && vocab::IsKnownDType((*path)[1]) &&
          ArgsOf(rhs, text_).positional.empty()) {
        continue;
      }
    }
    return a;
  }
  return TSNode{};
}

auto RelaxLowering::LastAssignment(TSNode block) -> TSNode {
  TSNode a = LastStatement(block);
  return Is(a, "assignment") && Is(Field(a, "left"), "identifier") ? a : TSNode{};
}

auto RelaxLowering::LastBound(TSNode block) -> std::string {
  TSNode a = LastStatement(block);
  if (Is(a, "assignment") && Is(Field(a, "left"), "identifier")) return std::string(TextOf(Field(a, "left"), text_));
  // A trailing `if`: its value, named after what both its branches bind last.
  TSNode alt = Is(a, "if_statement") ? Field(a, "alternative") : TSNode{};
  if (Is(alt, "else_clause")) {
    std::string then_last = LastBound(Field(a, "consequence"));
    return then_last == LastBound(Field(alt, "body")) ? then_last : "";
  }
  return "";
}

auto RelaxLowering::ReturnStatement(TSNode stmt) -> void {
  saw_return_ = true;
  if (if_depth_ == 0) {
    TSNode keyword = ts_node_child(stmt, 0);
    if (ts_node_is_null(first_return_)) {
      first_return_ = keyword;
    } else {
      ReportRule(check::ParserRule::Kind::kMultipleReturn, Rel(keyword), Rel(first_return_));
    }
  }
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

auto RelaxLowering::Assignment(TSNode assign) -> void {
  TSNode left = Field(assign, "left");
  TSNode right = Field(assign, "right");
  TSNode ann = Field(assign, "annotation");
  if (ts_node_is_null(right)) return;
  if (Is(right, "assignment")) {
    // a = b = c: rejected by TVM's parser. The inner assignment is lowered, and the outer name
    // bound to an unknown value, so that its uses are not reported as undefined too.
    checks().Report(&check::Check::OnParserRule, ChainedAssignmentRule(assign, text_, base_));
    size_t removable = removable_.size();
    Assignment(right);
    removable_.resize(removable);  // the outer name reads the inner one: it is not unused
    if (Is(left, "identifier")) {
      Define(left, StructInfo::Unknown(), Symbol::Kind::kRelaxVar, false, false, -1, /*insertable=*/false);
    }
    return;
  }
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
    // A PrimExpr (`T.int64(4)`) is not a Relax expression: the classic parser binds the name
    // without emitting.
    auto callee = Is(rhs, "call") ? DottedPath(Field(rhs, "function"), text_) : std::nullopt;
    bool tir_value = callee && callee->size() >= 2 && IsAlias(aliases_.tir, *callee);
    if (!v.info.IsUnknown() && !tir_value) last_emitting_assignment_ = assign;
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

auto RelaxLowering::IsNumberLiteral(TSNode n) -> bool {
  n = Unparen(n);
  if (Is(n, "unary_operator")) n = Unparen(Field(n, "argument"));
  return Is(n, "integer") || Is(n, "float") || Is(n, "true") || Is(n, "false");
}

auto RelaxLowering::CheckAnnotation(TSNode ann, const StructInfo& declared, const Value& v, TSNode rhs) -> void {
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

auto RelaxLowering::SpelledAnnotationEdits(TSNode ann, const StructInfo& declared, const StructInfo& inferred) -> std::optional<std::vector<TextEdit>> {
  std::optional<std::vector<TextEdit>> edits =
      analysis::SpelledAnnotationEdits(ann, text_, declared, inferred);
  if (edits) {
    for (TextEdit& e : *edits) e.range = Rel(e.range);
  }
  return edits;
}

}  // namespace tvmls::analysis::relax_lowering
