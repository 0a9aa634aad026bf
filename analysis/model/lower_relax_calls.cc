// Relax lowering (model/relax_lowering.h): calls of operators and module functions, purity,
// memory (alloc_storage / alloc_tensor) and call_tir, reported to the checks as events.
#include "model/relax_lowering.h"

namespace tvmls::analysis::relax_lowering {

auto RelaxLowering::Call(TSNode call) -> Value {
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
    if (path->size() == 2 && f == "index_map") {
      // T.index_map(lambda i: ...): an index map for layout_transform.
      v.literal = ops::ParseLiteral(TextOf(call, text_));
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

auto RelaxLowering::TupleGetItem(const CallArgs& args) -> Value {
  Value v;
  for (const auto& kw : args.keywords) LowerValue(kw.second);
  if (args.positional.size() != 2 || !args.keywords.empty()) {
    for (TSNode a : args.positional) LowerValue(a);
    return v;
  }
  Value tuple = LowerValue(args.positional[0]);
  Value index = LowerValue(args.positional[1]);
  if (tuple.info.kind != types::Kind::kTuple || index.literal.kind != ops::Literal::Kind::kInt) return v;
  int64_t i = index.literal.int_value;
  int64_t size = static_cast<int64_t>(tuple.info.fields.size());
  if (i >= 0 && i < size) v.info = tuple.info.fields[i];
  checks().Report(&check::Check::OnTupleIndex, check::TupleIndex{Rel(args.positional[1]), i, tuple.info, print_});
  return v;
}

auto RelaxLowering::ShapeExpr(const CallArgs& args) -> Value {
  Value v;
  for (const auto& kw : args.keywords) LowerValue(kw.second);
  if (args.positional.size() != 1 || !args.keywords.empty()) {
    for (TSNode a : args.positional) LowerValue(a);
    return v;
  }
  Value values = LowerValue(args.positional[0]);
  if (values.literal.kind != ops::Literal::Kind::kList) return v;
  if (auto dims = values.literal.AsExprList()) {
    v.info = StructInfo::Shape(*dims);
    v.literal = values.literal;
  }
  return v;
}

auto RelaxLowering::RelaxCall(TSNode call, TSNode callee, const std::vector<std::string>& path, const CallArgs& args) -> Value {
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
  if (sub == "TupleGetItem") return TupleGetItem(args);
  if (sub == "ShapeExpr") return ShapeExpr(args);
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
  // These ops' Python wrappers hand `args` to a C++ constructor that takes a relax.Tuple: a
  // variable whose struct info is a tuple is passed as it is (only other values are wrapped),
  // and the FFI rejects it. Only an in-line tuple `(a, b)` converts.
  static const std::set<std::string> kInlineTupleArgs = {
      "relax.call_tir",         "relax.call_tir_inplace",    "relax.call_tir_with_grad",
      "relax.call_dps_packed",  "relax.call_builtin_with_ctx", "relax.make_closure",
      "relax.invoke_closure",   "relax.invoke_pure_closure"};
  if (!bad_args && kInlineTupleArgs.count(op->name)) {
    for (size_t i = 0; i < op->params.size(); ++i) {
      if (std::strcmp(op->params[i].name, "args") != 0 || !Is(Unparen(nodes[i]), "identifier")) continue;
      if (lowered[i].var.empty() || lowered[i].info.kind != types::Kind::kTuple) continue;
      check::OpCall c;
      c.spelling = "R." + sub;
      c.argument_problems.push_back(
          {Rel(nodes[i]), "the arguments must be an in-line tuple such as `(a, b)`, but `" + lowered[i].var +
                              "` is a variable bound to a tuple (" + types::Print(lowered[i].info, print_) +
                              "), which TVM does not unpack: write its fields in the call"});
      checks().Report(&check::Check::OnOpCall, c);
      bad_args = true;
    }
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

auto RelaxLowering::MatchCast(TSNode call, const CallArgs& args) -> Value {
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

auto RelaxLowering::AddFacts(TSNode cond) -> void {
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

auto RelaxLowering::ProvablyPure(TSNode value) const -> bool {
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

auto RelaxLowering::FinishUnused() -> void {
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

auto RelaxLowering::Impure(TSNode callee, const std::string& what, TSNode call) -> void {
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

auto RelaxLowering::StatementOfCall(TSNode call, check::ImpureCall* c) -> void {
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

auto RelaxLowering::Product(const ops::Literal& lit) -> std::optional<arith::Expr> {
  auto dims = lit.AsExprList(true);
  if (!dims) return std::nullopt;
  arith::Expr p(1);
  for (const arith::Expr& d : *dims) p = p * d;
  return p;
}

auto RelaxLowering::ShapeProduct(const Value& v) -> std::optional<arith::Expr> {
  if (auto p = Product(v.literal)) return p;
  if (v.info.kind == types::Kind::kShape && v.info.values) {
    arith::Expr p(1);
    for (const arith::Expr& d : *v.info.values) p = p * d;
    return p;
  }
  return std::nullopt;
}

auto RelaxLowering::DTypeArg(const ops::Literal& lit) -> std::optional<std::string> {
  if (lit.kind == ops::Literal::Kind::kString) return lit.string_value;
  return std::nullopt;
}

auto RelaxLowering::AllocStorage(bool memory_op, const std::vector<TSNode>& nodes, const std::vector<Value>& lowered, const std::vector<ops::ArgValue>& values) -> int {
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

auto RelaxLowering::AllocTensor(const std::vector<TSNode>& nodes, const std::vector<Value>& lowered, const std::vector<ops::ArgValue>& values) -> void {
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

auto RelaxLowering::Finish() -> void {
  FinishUnused();
  checks.End();
}

auto RelaxLowering::CallTir(const ops::OpInfo& op, const std::vector<TSNode>& nodes, const std::vector<Value>& lowered, const std::vector<ops::ArgValue>& values) -> void {
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

auto RelaxLowering::LiteralOf(TSNode n) -> std::optional<arith::Expr> {
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

auto RelaxLowering::GlobalCall(TSNode call, TSNode callee_node, const std::string& name, const CallArgs& args) -> Value {
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

}  // namespace tvmls::analysis::relax_lowering
