// PrimFunc lowering (model/lower_prim_impl.h): loops and their domains, blocks and their
// iterators (reported with what their bindings reach), and loop variables used where TVM's
// well-formedness rejects them (inside a block without being bound to an iterator, after their
// loop).
#include "model/lower_prim_impl.h"

namespace tvmls::analysis::prim_lowering {

const PrimLowering::ScopedVar* PrimLowering::Lookup(const std::string& name) const {
  for (auto f = frames_.rbegin(); f != frames_.rend(); ++f) {
    auto it = f->vars.find(name);
    if (it != f->vars.end()) return &it->second;
  }
  return nullptr;
}

std::optional<arith::IterDomain> PrimLowering::RangeDomain(TSNode start, TSNode stop, TSNode step) {
  arith::IterDomain d;
  std::optional<arith::Expr> a = Resolve(start);
  if (!a) return std::nullopt;
  std::optional<arith::Expr> b;
  if (ts_node_is_null(stop)) {
    b = a;
    a = arith::Expr(0);
  } else {
    b = Resolve(stop);
    if (!b) return std::nullopt;
  }
  if (!arith::IterVarsOf(*a, space_).empty() || !arith::IterVarsOf(*b, space_).empty()) return std::nullopt;
  d.lo = *a;
  d.hi = *b - 1;
  if (!ts_node_is_null(step)) {
    std::optional<int64_t> s = IntValue(step, text_);
    std::optional<int64_t> lo = a->AsConst(), end = b->AsConst();
    if (!s || *s < 1 || !lo || !end) return std::nullopt;
    d.step = *s;
    if (*end <= *lo) return std::nullopt;
    d.hi = *lo + (*end - 1 - *lo) / *s * *s;
  }
  return d;
}

std::vector<std::optional<arith::IterDomain>> PrimLowering::LoopDomains(TSNode iter, size_t targets) {
  std::vector<std::optional<arith::IterDomain>> out(targets);
  iter = Unparen(iter);
  if (!Is(iter, "call")) return out;
  TSNode fn = Field(iter, "function");
  CallArgs args = ArgsOf(iter, text_);
  if (args.splat) return out;
  auto path = DottedPath(fn, text_);
  if (!path) return out;
  bool tir = path->size() == 2 && IsAlias(aliases_.tir, *path);
  const std::string f = path->back();
  auto pos = [&](size_t i) { return i < args.positional.size() ? args.positional[i] : TSNode{}; };
  auto kw = [&](size_t i, const char* name) {
    TSNode k = Keyword(args, name);
    return ts_node_is_null(k) ? pos(i) : k;
  };
  if (tir && f == "grid") {
    if (args.positional.size() != targets || !args.keywords.empty()) return out;
    for (size_t i = 0; i < targets; ++i) out[i] = RangeDomain(args.positional[i], TSNode{}, TSNode{});
    return out;
  }
  if (targets != 1) return out;
  if ((path->size() == 1 && f == "range") ||
      (tir && (f == "serial" || f == "parallel" || f == "vectorized" || f == "unroll" ||
               f == "thread_binding"))) {
    if (ts_node_is_null(kw(0, "start"))) return out;
    out[0] = RangeDomain(kw(0, "start"), kw(1, "stop"), path->size() == 1 ? pos(2) : Keyword(args, "step"));
  }
  return out;
}

bool PrimLowering::VisitFor(TSNode n) {
  TSNode left = Field(n, "left"), right = Field(n, "right");
  Walk(right);
  std::vector<TSNode> targets;
  if (Is(left, "identifier")) {
    targets.push_back(left);
  } else if (Is(left, "pattern_list") || Is(left, "tuple_pattern") || Is(left, "expression_list")) {
    for (TSNode c : NamedChildren(left)) {
      if (!Is(c, "comment")) targets.push_back(c);
    }
  }
  std::vector<std::optional<arith::IterDomain>> domains = LoopDomains(right, targets.size());
  frames_.emplace_back();
  TextRange header = Rel(TextRange{ts_node_start_byte(n), ts_node_end_byte(right)});
  std::vector<std::string> added;
  const size_t scopes = scopes_.size();
  const std::pair<int, int> thread = ThreadOf(right);
  for (size_t i = 0; i < targets.size(); ++i) {
    if (!Is(targets[i], "identifier")) continue;
    std::string name(TextOf(targets[i], text_));
    ScopedVar v;
    scopes_.push_back(Scope{++scope_ids_, "", thread.first, thread.second});
    if (domains[i]) {
      std::string internal = name;
      while (space_.count(internal) || display_.count(internal)) internal = name + "'" + std::to_string(++renames_);
      space_[internal] = *domains[i];
      display_[internal] = name;
      headers_[internal] = header;
      added.push_back(internal);
      scopes_.back().var = internal;
      v.kind = ScopedVar::Kind::kLoop;
      v.value = arith::Expr::Var(internal);
    }
    v.loop_range = header;
    v.block_level = block_level_;
    v.is_loop = true;
    loop_names_[name].push_back(header);
    frames_.back().vars[name] = v;
  }
  for (TSNode c : NamedChildren(left)) {
    if (!Is(c, "identifier")) Walk(c);
  }
  if (scopes_.size() == scopes) scopes_.push_back(Scope{++scope_ids_, ""});  // a loop all the same
  Walk(Field(n, "body"));
  scopes_.resize(scopes);
  frames_.pop_back();
  for (const std::string& v : added) space_.erase(v);
  Walk(Field(n, "alternative"));
  return false;
}

void PrimLowering::BindLets(TSNode left) {
  if (frames_.empty()) frames_.emplace_back();
  if (Is(left, "identifier")) {
    std::string name(TextOf(left, text_));
    frames_.back().vars[name] = ScopedVar{};
    return;
  }
  if (Is(left, "pattern_list") || Is(left, "tuple_pattern") || Is(left, "expression_list")) {
    for (TSNode c : NamedChildren(left)) BindLets(c);
  }
}

std::pair<int, int> PrimLowering::ThreadOf(TSNode right) const {
  if (TirCall(right) != "thread_binding") return {-1, -1};
  CallArgs args = ArgsOf(Unparen(right), text_);
  std::optional<std::string> tag;
  if (TSNode k = Keyword(args, "thread"); !ts_node_is_null(k)) tag = StringValue(k, text_);
  for (size_t i = 0; !tag && i < args.positional.size(); ++i) tag = StringValue(args.positional[i], text_);
  if (!tag) return {-1, -1};
  if (tag->compare(0, 7, "vthread") == 0 || *tag == "cthread") return {1, -1};
  if (tag->compare(0, 9, "blockIdx.") == 0 && tag->size() > 9) return {0, (*tag)[9] - 'x'};
  if (tag->compare(0, 10, "threadIdx.") == 0 && tag->size() > 10) return {1, (*tag)[10] - 'x'};
  return {-1, -1};
}

std::vector<TSNode> PrimLowering::Statements(TSNode suite) {
  std::vector<TSNode> out;
  for (TSNode c : NamedChildren(suite)) {
    if (!Is(c, "comment")) out.push_back(c);
  }
  return out;
}

TSNode PrimLowering::StatementExpr(TSNode stmt) {
  if (Is(stmt, "assignment")) return stmt;
  if (!Is(stmt, "expression_statement")) return TSNode{};
  std::vector<TSNode> kids = NamedChildren(stmt);
  return kids.size() == 1 ? kids[0] : TSNode{};
}

std::string PrimLowering::TirCall(TSNode n) const {
  n = Unparen(n);
  if (!Is(n, "call")) return "";
  auto path = DottedPath(Field(n, "function"), text_);
  if (!path || !IsAlias(aliases_.tir, *path)) return "";
  std::string out;
  for (size_t i = 1; i < path->size(); ++i) out += (i > 1 ? "." : "") + (*path)[i];
  return out;
}

bool PrimLowering::VisitAxis(TSNode assign) {
  TSNode right = Field(assign, "right");
  if (TirCall(right).rfind("axis.", 0) != 0) return false;
  ++binding_depth_;
  Walk(right);
  --binding_depth_;
  return true;
}

void PrimLowering::DeclareAxis(TSNode assign, RegionFrame* block, std::vector<check::BlockIter>* iters) {
  TSNode left = Field(assign, "left"), right = Unparen(Field(assign, "right"));
  std::string f = TirCall(right);
  if (f.rfind("axis.", 0) != 0) return;
  std::string kind_name = f.substr(5);
  CallArgs args = ArgsOf(right, text_);
  std::vector<std::pair<std::string, ScopedVar>> declared;
  if (kind_name == "remap") {
    std::vector<TSNode> names;
    for (TSNode c : NamedChildren(left)) {
      if (!Is(c, "comment")) names.push_back(c);
    }
    if (Is(left, "identifier")) names = {left};
    std::optional<std::string> kinds = args.positional.empty() ? std::nullopt : StringValue(args.positional[0], text_);
    TSNode list = args.positional.size() > 1 ? Unparen(args.positional[1]) : TSNode{};
    std::vector<TSNode> bindings;
    if (!ts_node_is_null(list) && (Is(list, "list") || Is(list, "tuple"))) {
      for (TSNode c : NamedChildren(list)) {
        if (!Is(c, "comment")) bindings.push_back(c);
      }
    }
    for (size_t i = 0; i < names.size(); ++i) {
      ScopedVar v;
      v.kind = ScopedVar::Kind::kBlockIter;
      std::optional<arith::Expr> value;
      if (i < bindings.size() && kinds && kinds->size() == names.size()) value = Resolve(bindings[i]);
      v.value = value ? *value : arith::Expr::Opaque("?");
      std::string name(TextOf(names[i], text_));
      if (kinds && i < kinds->size()) block->kinds[name] = (*kinds)[i] == 'R' ? 'R' : (*kinds)[i] == 'S' ? 'S' : 'O';
      declared.emplace_back(name, v);
    }
  } else if (Is(left, "identifier")) {
    check::BlockIter it;
    it.name = std::string(TextOf(left, text_));
    it.name_range = Rel(left);
    it.kind = (kind_name == "spatial" || kind_name == "S") ? 'S' : (kind_name == "reduce" || kind_name == "R") ? 'R' : 'O';
    TSNode dom = Keyword(args, "dom"), binding = Keyword(args, "binding");
    if (ts_node_is_null(dom) && !args.positional.empty()) dom = args.positional[0];
    if (ts_node_is_null(binding) && args.positional.size() > 1) binding = args.positional[1];
    ScopedVar v;
    v.kind = ScopedVar::Kind::kBlockIter;
    v.value = arith::Expr::Opaque("?");
    if (!ts_node_is_null(binding)) {
      it.binding_text = std::string(TextOf(binding, text_));
      if (std::optional<arith::Expr> value = Resolve(binding)) v.value = *value;
    }
    if (!ts_node_is_null(dom)) {
      it.domain_range = Rel(dom);
      TSNode d = Unparen(dom);
      if (Is(d, "tuple") || Is(d, "list")) {
        std::vector<TSNode> ends = Statements(d);
        if (ends.size() == 2) {
          it.dom_min = Resolve(ends[0]);
          it.dom_end = Resolve(ends[1]);
        }
      } else {
        it.dom_min = arith::Expr(0);
        it.dom_end = Resolve(d);
        it.domain_is_literal = Is(d, "integer");
      }
    }
    block->kinds[it.name] = it.kind;
    if (!arith::HasOpaque(v.value) && !ts_node_is_null(binding)) iter_values_.push_back(v.value);
    else iter_values_.push_back(std::nullopt);
    iters->push_back(std::move(it));
    declared.emplace_back(iters->back().name, v);
  }
  for (auto& [name, v] : declared) frames_.back().vars[name] = v;
}

bool PrimLowering::VisitWith(TSNode n) {
  std::vector<TSNode> items;
  for (TSNode c : NamedChildren(Field(n, "items"))) {
    if (Is(c, "with_item")) items.push_back(c);
  }
  if (items.size() != 1) return false;
  TSNode value = Unparen(Field(items[0], "value"));
  std::string f = TirCall(value);
  if (f != "block" && f != "sblock") return false;
  Walk(value);
  TSNode body = Field(n, "body");
  std::vector<TSNode> stmts = Statements(body);
  frames_.emplace_back();
  regions_.emplace_back();
  RegionFrame& block = regions_.back();
  block.frame = frames_.size() - 1;
  CallArgs args = ArgsOf(value, text_);
  if (!args.positional.empty()) {
    if (auto s = StringValue(args.positional[0], text_)) block.block = *s;
  }
  std::vector<check::BlockIter> iters;
  iter_values_.clear();
  for (TSNode stmt : stmts) {
    TSNode e = StatementExpr(stmt);
    if (Is(e, "assignment")) DeclareAxis(e, &block, &iters);
  }
  std::vector<std::optional<arith::Expr>> values = iter_values_;
  bool has_iters = !block.kinds.empty() || !iters.empty();
  for (TSNode stmt : stmts) {
    TSNode e = StatementExpr(stmt);
    std::string call = TirCall(e);
    if (call == "where") {
      CallArgs w = ArgsOf(Unparen(e), text_);
      frames_.back().guards.push_back(w.positional.size() == 1 ? ReadCondition(w.positional[0]) : Guard{});
    }
  }
  for (size_t i = 0; i < iters.size(); ++i) {
    if (i < values.size() && values[i]) {
      if (arith::IterVarsOf(*values[i], space_).empty()) {
        if (values[i]->IsConst() && GuardsKnownTrue()) iters[i].reach = check::IndexReach{*values[i], *values[i], "", {}, {}};
      } else {
        iters[i].reach = ReachOf(*values[i]);
      }
    }
    checks().Report(&check::Check::OnBlockIter, iters[i]);
  }
  if (has_iters) ++block_level_;
  block_regions_.EnterBlock(value, body, has_iters);
  scopes_.push_back(Scope{++scope_ids_, ""});
  Walk(body);
  scopes_.pop_back();
  block_regions_.ExitBlock();
  if (has_iters) --block_level_;
  regions_.pop_back();
  frames_.pop_back();
  return true;
}

bool PrimLowering::MeansTheSameInRegion(const std::string& name) const {
  const ScopedVar* v = Lookup(name);
  if (v == nullptr) return !buffers_.count(name);
  if (v->kind != ScopedVar::Kind::kBlockIter || regions_.empty()) return false;
  const auto& vars = frames_[regions_.back().frame].vars;
  auto it = vars.find(name);
  return it != vars.end() && &it->second == v;
}

void PrimLowering::CheckLoopVarUse(TSNode n, const std::string& name) {
  if (binding_depth_ > 0) return;
  const ScopedVar* v = Lookup(name);
  if (v != nullptr) {
    if (!v->is_loop || v->block_level >= block_level_) return;
    check::LoopVarUse use;
    use.kind = check::LoopVarUse::Kind::kInBlock;
    use.name = name;
    use.range = Rel(n);
    use.loop_range = v->loop_range;
    if (!regions_.empty()) {
      const RegionFrame& block = regions_.back();
      use.block = block.block;
      if (v->kind == ScopedVar::Kind::kLoop) {
        for (const auto& [iter, value] : frames_[block.frame].vars) {
          if (value.kind == ScopedVar::Kind::kBlockIter && value.value == v->value && Lookup(iter) == &value) {
            use.replacement = iter;
            break;
          }
        }
      }
    }
    checks().Report(&check::Check::OnLoopVarUse, use);
    return;
  }
  auto loops = loop_names_.find(name);
  if (give_up_after_loop_ || loops == loop_names_.end() || non_loop_names_.count(name)) return;
  check::LoopVarUse use;
  use.kind = check::LoopVarUse::Kind::kAfterLoop;
  use.name = name;
  use.range = Rel(n);
  use.loop_range = loops->second.back();
  checks().Report(&check::Check::OnLoopVarUse, use);
}

void PrimLowering::CollectNonLoopNames() {
  for (const PrimSignature::Param& p : fn_->prim.params) non_loop_names_.insert(p.name);
  std::function<void(TSNode)> targets = [&](TSNode t) {
    if (ts_node_is_null(t)) return;
    if (Is(t, "identifier")) {
      non_loop_names_.insert(std::string(TextOf(t, text_)));
      return;
    }
    if (Is(t, "attribute") || Is(t, "subscript")) return;
    for (TSNode c : NamedChildren(t)) targets(c);
  };
  ForEachNode(Field(func_, "body"), [&](TSNode n) {
    if (Is(n, "assignment") || Is(n, "augmented_assignment") || Is(n, "for_in_clause")) {
      targets(Field(n, "left"));
    } else if (Is(n, "with_item")) {
      targets(Field(n, "alias"));
    } else if (Is(n, "named_expression")) {
      targets(Field(n, "name"));
    } else if (Is(n, "function_definition") || Is(n, "lambda") || Is(n, "class_definition") ||
               Is(n, "global_statement") || Is(n, "nonlocal_statement") || Is(n, "import_statement") ||
               Is(n, "import_from_statement") || Is(n, "as_pattern_target")) {
      give_up_after_loop_ = true;
    }
    return true;
  });
}

}  // namespace tvmls::analysis::prim_lowering
