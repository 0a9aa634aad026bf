// Relax lowering (model/relax_lowering.h): the signature, the body's entry, decorator and
// attributes, names and symbols; and the entry points of model/lower_internal.h.
#include "model/relax_lowering.h"

namespace tvmls::analysis::relax_lowering {

auto RelaxLowering::Signature() -> void {
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

auto RelaxLowering::Body() -> void {
  in_body_ = true;
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
  // Symbolic variables that a string dim of a parameter annotation defines ("n"), where.
  std::map<std::string, TextRange> string_dims;
  for (TSNode p : NamedChildren(params)) {
    if (Is(p, "comment")) continue;
    TSNode name = Is(p, "identifier") ? p : Field(p, "name");
    TSNode ann = Field(p, "annotation");
    if (!ts_node_is_null(ann)) {
      AnnotationContext actx = AnnCtx(true);
      actx.on_var = [&](const std::string& v, TextRange where, bool bare) {
        bool quoted = bare && where.end <= text_.size() && where.begin <= where.end &&
                      text_.substr(where.begin, where.size()).find_first_of("\"'") != std::string_view::npos;
        auto param = quoted ? env_.find(v) : env_.end();
        if (param != env_.end() && param->second.symbol >= 0 &&
            fn_->symbols[static_cast<size_t>(param->second.symbol)].kind == Symbol::Kind::kRelaxParam) {
          ParamInStringDim(v, param->second, where);
        } else if (quoted && !string_dims.count(v)) {
          string_dims[v] = where;
        }
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
    } else if (Is(name, "identifier")) {
      ReportRule(check::ParserRule::Kind::kMissingParameterAnnotation, Rel(p), {}, std::string(TextOf(name, text_)));
    }
    if (auto dim = string_dims.find(std::string(TextOf(name, text_))); dim != string_dims.end()) {
      check::ScopeProblem clash = Problem(check::ScopeProblem::Kind::kParamIsSymbolicVar, Rel(name), dim->first);
      clash.related = SymVarSpellings(dim->first, dim->second)[0];
      clash.detail = "the string dim that defines it";
      ReportScope(std::move(clash));
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
  first_return_ = TSNode{};
  if_depth_ = 0;
  attr_keys_.clear();
  Block(body);
  if (!saw_return_ && !ts_node_is_null(body) && ts_node_named_child_count(body) > 0) {
    ReportScope(Problem(check::ScopeProblem::Kind::kMissingReturn, Rel(Field(func_, "name")), fn_->name));
  }
}

auto RelaxLowering::ParamInStringDim(const std::string& name, const VarEntry& param, TextRange where) -> void {
  const StructInfo& info = param.info;
  TextRange dim = SymVarSpellings(name, where)[0];
  TextRange def = fn_->symbols[static_cast<size_t>(param.symbol)].definition;
  if (info.kind == types::Kind::kPrim && !info.dtype.empty() && info.dtype != "int64") {
    ReportRule(check::ParserRule::Kind::kInvalidAnnotation, dim, {},
               "`" + name + "` is the parameter " + types::Print(info, print_) +
                   ": a shape dim must be an int64 value");
    return;
  }
  // An `R.Prim("int64")` parameter may name later dims in the current era only; any other
  // parameter never (TVM collects the string dims as symbolic variables, then adds the
  // parameters to the same scope).
  if (info.kind == types::Kind::kPrim && (info.dtype.empty() || aliases_.current)) return;
  check::ScopeProblem clash = Problem(check::ScopeProblem::Kind::kParamIsSymbolicVar, dim, name);
  clash.related = def;
  clash.detail = "the parameter";
  ReportScope(std::move(clash));
}

auto RelaxLowering::Rel(TSNode n) const -> TextRange {
  if (ts_node_is_null(n)) return {};
  return {ts_node_start_byte(n) - base_, ts_node_end_byte(n) - base_};
}

auto RelaxLowering::AnnCtx(bool allow_strings) -> AnnotationContext {
  AnnotationContext a;
  a.text = text_;
  a.aliases = &aliases_;
  a.allow_string_dims = allow_strings;
  if (in_body_) {
    a.on_problem = [this](TextRange where, const std::string& why) {
      if (annotation_problems_.insert(where.begin).second) {
        ReportRule(check::ParserRule::Kind::kInvalidAnnotation, Rel(where), {}, why);
      }
    };
  }
  return a;
}

auto RelaxLowering::ReportRule(check::ParserRule::Kind kind, TextRange range, TextRange related, std::string detail)
    -> void {
  check::ParserRule r;
  r.kind = kind;
  r.range = range;
  r.related = related;
  r.detail = std::move(detail);
  checks().Report(&check::Check::OnParserRule, r);
}

auto RelaxLowering::Problem(check::ScopeProblem::Kind kind, TextRange range, std::string name) const -> check::ScopeProblem {
  check::ScopeProblem p;
  p.kind = kind;
  p.range = range;
  p.name = std::move(name);
  p.function = fn_->name;
  return p;
}

auto RelaxLowering::PrivateKeyword() -> TSNode {
  if (ts_node_is_null(decorator_)) ReadDecorator();
  if (ts_node_is_null(decorator_)) return TSNode{};
  TSNode v = Field(decorator_, "value");
  if (!Is(v, "call")) return TSNode{};
  CallArgs args = ArgsOf(v, text_);
  for (size_t i = 0; i < args.keywords.size() && i < args.keyword_nodes.size(); ++i) {
    if (args.keywords[i].first == "private" && Is(Unparen(args.keywords[i].second), "true")) {
      return args.keyword_nodes[i];
    }
  }
  return TSNode{};
}

auto RelaxLowering::ReadDecorator() -> void {
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

auto RelaxLowering::ImpureDecoratorEdit() -> std::optional<TextEdit> {
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

auto RelaxLowering::FuncAttr(const CallArgs& args) -> void {
  if (args.positional.empty()) return;
  TSNode dict = Unparen(args.positional[0]);
  if (!Is(dict, "dictionary")) return;
  for (TSNode pair : NamedChildren(dict)) {
    if (!Is(pair, "pair")) continue;
    auto key = StringValue(Field(pair, "key"), text_);
    TSNode value = Unparen(Field(pair, "value"));
    if (!key) continue;
    TextRange key_range = Rel(Field(pair, "key"));
    auto [earlier, fresh] = attr_keys_.emplace(*key, key_range);
    if (!fresh) {
      ReportRule(check::ParserRule::Kind::kDuplicateFuncAttr, key_range, earlier->second, *key);
    } else if (*key == "global_symbol") {
      TSNode private_true = PrivateKeyword();
      if (!ts_node_is_null(private_true)) {
        ReportRule(check::ParserRule::Kind::kPrivateGlobalSymbol, key_range, Rel(private_true));
      }
    }
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

auto RelaxLowering::PrescanNames(TSNode body) -> void {
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

auto RelaxLowering::CollectTargets(TSNode left, std::set<std::string>* out) -> void {
  if (Is(left, "identifier")) {
    out->insert(std::string(TextOf(left, text_)));
  } else if (Is(left, "pattern_list") || Is(left, "tuple_pattern") || Is(left, "expression_list") ||
             Is(left, "tuple") || Is(left, "list") || Is(left, "list_pattern") ||
             Is(left, "parenthesized_expression")) {
    for (TSNode c : NamedChildren(left)) CollectTargets(c, out);
  }
}

auto RelaxLowering::DefineSymVar(const std::string& name, TextRange where, bool bound) -> void {
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

auto RelaxLowering::SymVarSpellings(const std::string& name, TextRange where) const -> std::vector<TextRange> {
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

auto RelaxLowering::AddSymVarReferences(const std::string& name, TextRange where, bool skip_first) -> void {
  auto it = symvars_.find(name);
  if (it == symvars_.end()) return;
  std::vector<TextRange> at = SymVarSpellings(name, where);
  Symbol& s = fn_->symbols[it->second.symbol];
  for (size_t i = skip_first ? 1 : 0; i < at.size(); ++i) s.references.push_back(at[i]);
}

auto RelaxLowering::Define(TSNode name_node, const StructInfo& info, Symbol::Kind kind, bool annotated, bool constant, int storage, bool insertable) -> void {
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

}  // namespace tvmls::analysis::relax_lowering

namespace tvmls::analysis {

void LowerRelaxSignature(TSNode def, std::string_view text, const Aliases& aliases, FunctionModel* fn) {
  ModuleContext none;
  none.aliases = &aliases;
  relax_lowering::RelaxLowering(def, text, aliases, fn, &none).Signature();
}

void LowerRelaxBody(TSNode def, std::string_view text, const ModuleContext& ctx, FunctionModel* fn) {
  relax_lowering::RelaxLowering lowering(def, text, *ctx.aliases, fn, &ctx);
  lowering.Body();
  lowering.Finish();
}

}  // namespace tvmls::analysis
