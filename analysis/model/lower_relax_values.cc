// Relax lowering (model/relax_lowering.h): values: names, subscripts, attributes, literals
// and Python operators.
#include "model/relax_lowering.h"

namespace tvmls::analysis::relax_lowering {

auto RelaxLowering::Use(TSNode ident) -> void {
  std::string name(TextOf(ident, text_));
  if (dataflow_) used_after_.insert(name);
  auto it = env_.find(name);
  if (it != env_.end() && it->second.symbol >= 0) {
    fn_->symbols[it->second.symbol].references.push_back(Rel(ident));
  }
}

auto RelaxLowering::UseSymVar(const std::string& name, TextRange where) -> void {
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

auto RelaxLowering::IsOuterName(const std::string& name) const -> bool {
  if (ctx_->star_import) return true;
  bool python = ctx_->IsPythonName(name);
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

auto RelaxLowering::Identifier(TSNode n) -> Value {
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

auto RelaxLowering::LowerValue(TSNode n) -> Value {
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
  if (Is(n, "lambda")) {
    // An index map (layout_transform): its parameters are its own names, so nothing is a use.
    v.literal = ops::ParseLiteral(TextOf(n, text_));
    return v;
  }
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

auto RelaxLowering::Subscript(TSNode n) -> Value {
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

auto RelaxLowering::Attribute(TSNode n) -> Value {
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

auto RelaxLowering::IsModuleRef(const std::string& name) const -> bool {
  return module_aliases_.count(name) > 0 ||
         (!ctx_->module_name.empty() && name == ctx_->module_name);
}

auto RelaxLowering::GlobalRef(TSNode node, const std::string& name, bool report) -> const FunctionModel* {
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

auto RelaxLowering::BinaryOp(TSNode n) -> Value {
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

}  // namespace tvmls::analysis::relax_lowering
