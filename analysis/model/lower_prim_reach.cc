// PrimFunc lowering (model/lower_prim_impl.h): guards (`if`, `assert`, `T.assume`, `T.where`,
// `T.if_then_else`) read as conjunctions of `g >= 0`, expressions resolved to the loop variables
// in scope, what an index reaches over those loops under those guards, and the state an access
// to a compacted buffer keeps for check::BufferAccess::Index::within.
#include <iterator>

#include "model/lower_prim_impl.h"

namespace tvmls::analysis::prim_lowering {

std::optional<arith::Expr> PrimLowering::Resolve(TSNode node) {
  AnnotationContext ctx = ctx_;
  arith::Expr e = LowerDim(node, ctx);
  if (arith::HasOpaque(e)) return std::nullopt;
  std::set<std::string> names;
  e.CollectVars(&names);
  std::map<std::string, arith::Expr> values;
  for (const std::string& n : names) {
    const ScopedVar* v = Lookup(n);
    if (v == nullptr) {
      if (buffers_.count(n) || space_.count(n)) return std::nullopt;
      continue;
    }
    if (v->kind == ScopedVar::Kind::kOpaque) return std::nullopt;
    values[n] = v->value;
  }
  e = e.Substitute(values);
  if (arith::HasOpaque(e)) return std::nullopt;
  return e;
}

PrimLowering::Guard PrimLowering::ReadCondition(TSNode c) {
  c = Unparen(c);
  Guard g;
  if (Is(c, "true")) {
    g.known = true;
  } else if (Is(c, "false")) {
    g.known = true;
    g.conjuncts.push_back(arith::Expr(-1));
  } else if (Is(c, "boolean_operator")) {
    if (TextOf(Field(c, "operator"), text_) != "and") return g;
    Guard a = ReadCondition(Field(c, "left")), b = ReadCondition(Field(c, "right"));
    if (!a.known || !b.known) return g;
    g = a;
    g.conjuncts.insert(g.conjuncts.end(), b.conjuncts.begin(), b.conjuncts.end());
  } else if (Is(c, "not_operator")) {
    Guard a = ReadCondition(Field(c, "argument"));
    if (!a.known || a.conjuncts.size() != 1) return g;
    g.known = true;
    g.conjuncts.push_back(-a.conjuncts[0] - 1);
  } else if (Is(c, "call")) {
    auto path = DottedPath(Field(c, "function"), text_);
    CallArgs args = ArgsOf(c, text_);
    if (!path || path->size() != 2 || !IsAlias(aliases_.tir, *path)) return g;
    if ((*path)[1] == "likely" && args.positional.size() == 1) return ReadCondition(args.positional[0]);
    if ((*path)[1] == "And" && args.positional.size() == 2) {
      Guard a = ReadCondition(args.positional[0]), b = ReadCondition(args.positional[1]);
      if (!a.known || !b.known) return g;
      g = a;
      g.conjuncts.insert(g.conjuncts.end(), b.conjuncts.begin(), b.conjuncts.end());
    }
  } else if (Is(c, "comparison_operator")) {
    std::vector<TSNode> operands;
    std::vector<std::string> ops;
    uint32_t count = ts_node_child_count(c);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode k = ts_node_child(c, i);
      if (Is(k, "comment")) continue;
      if (ts_node_is_named(k)) {
        operands.push_back(k);
      } else {
        ops.emplace_back(TextOf(k, text_));
      }
    }
    if (operands.size() != ops.size() + 1) return g;
    for (size_t i = 0; i < ops.size(); ++i) {
      std::optional<arith::Expr> a = Resolve(operands[i]), b = Resolve(operands[i + 1]);
      if (!a || !b) return Guard{};
      const std::string& op = ops[i];
      if (op == "<") {
        g.conjuncts.push_back(*b - *a - 1);
      } else if (op == "<=") {
        g.conjuncts.push_back(*b - *a);
      } else if (op == ">") {
        g.conjuncts.push_back(*a - *b - 1);
      } else if (op == ">=") {
        g.conjuncts.push_back(*a - *b);
      } else if (op == "==") {
        g.conjuncts.push_back(*a - *b);
        g.conjuncts.push_back(*b - *a);
      } else {
        return Guard{};
      }
    }
    g.known = true;
  }
  return g;
}

PrimLowering::Guard PrimLowering::Negate(const Guard& g) {
  Guard n;
  if (!g.known || g.conjuncts.size() != 1) return n;
  n.known = true;
  n.conjuncts.push_back(-g.conjuncts[0] - 1);
  return n;
}

bool PrimLowering::VisitAssert(TSNode n) {
  std::vector<TSNode> kids;
  for (TSNode c : NamedChildren(n)) {
    if (!Is(c, "comment")) kids.push_back(c);
  }
  for (TSNode c : kids) Walk(c);
  if (frames_.empty()) frames_.emplace_back();
  frames_.back().guards.push_back(kids.empty() ? Guard{} : ReadCondition(kids[0]));
  return false;
}

void PrimLowering::WalkGuarded(TSNode body, Guard guard) {
  frames_.emplace_back();
  frames_.back().guards.push_back(std::move(guard));
  Walk(body);
  frames_.pop_back();
}

bool PrimLowering::VisitGuarded(TSNode n, TSNode condition, TSNode body) {
  Walk(condition);
  WalkGuarded(body, Guard{});  // a while loop: nothing known inside
  for (TSNode c : NamedChildren(n)) {
    if (Is(c, "else_clause")) Walk(c);
  }
  return false;
}

bool PrimLowering::VisitIf(TSNode n) {
  TSNode cond = Field(n, "condition");
  Walk(cond);
  Guard g = ReadCondition(cond);
  WalkGuarded(Field(n, "consequence"), g);
  bool elif = false;
  for (TSNode c : NamedChildren(n)) {
    if (Is(c, "elif_clause")) {
      elif = true;
      Walk(Field(c, "condition"));
      WalkGuarded(Field(c, "consequence"), Guard{});
    } else if (Is(c, "else_clause")) {
      WalkGuarded(Field(c, "body"), elif ? Guard{} : Negate(g));
    }
  }
  return false;
}

bool PrimLowering::VisitGuardCall(TSNode n) {
  auto path = DottedPath(Field(n, "function"), text_);
  if (!path || path->size() != 2 || !IsAlias(aliases_.tir, *path)) return false;
  const std::string& f = (*path)[1];
  CallArgs args = ArgsOf(n, text_);
  if (f == "assume") {
    // `T.assume(c)` as a statement: what follows it in the suite runs where c holds (TVM
    // takes it as a promise; code after a false assumption is undefined).
    Walk(Field(n, "arguments"));
    TSNode parent = ts_node_parent(n);
    if (!ts_node_is_null(parent) && Is(parent, "expression_statement")) {
      if (frames_.empty()) frames_.emplace_back();
      frames_.back().guards.push_back(args.positional.size() == 1 && args.keywords.empty() && !args.splat
                                          ? ReadCondition(args.positional[0])
                                          : Guard{});
    }
    return true;
  }
  if (f == "where") {
    ++binding_depth_;
    Walk(Field(n, "arguments"));
    --binding_depth_;
    return true;
  }
  if ((f != "if_then_else" && f != "Select") || args.positional.size() != 3 || args.splat) return false;
  for (const auto& [name, value] : args.keywords) {
    if (name != "dtype" && name != "span") return false;
  }
  Walk(args.positional[0]);
  Guard g = ReadCondition(args.positional[0]);
  WalkGuarded(args.positional[1], g);
  WalkGuarded(args.positional[2], Negate(g));
  return true;
}

std::optional<check::IndexReach> PrimLowering::ReachOf(const arith::Expr& e, const std::set<std::string>* relaxed) const {
  std::vector<const Guard*> guards;
  for (const Frame& f : frames_) {
    for (const Guard& g : f.guards) guards.push_back(&g);
  }
  return Reach(e, space_, guards, display_, headers_, relaxed);
}

std::optional<check::IndexReach> PrimLowering::Reach(const arith::Expr& e, const arith::IterSpace& all,
                                                     const std::vector<const Guard*>& guards,
                                                     const std::map<std::string, std::string>& display,
                                                     const std::map<std::string, TextRange>& headers,
                                                     const std::set<std::string>* relaxed) {
  arith::IterSpace space = all;
  if (relaxed != nullptr) {
    for (auto it = space.begin(); it != space.end();) it = relaxed->count(it->first) ? std::next(it) : space.erase(it);
  }
  if (arith::IterVarsOf(e, space).empty()) return std::nullopt;  // no loop: nothing to add
  check::IndexReach reach;
  std::vector<arith::Expr> multi;
  for (const Guard* g : guards) {
    if (!g->known) return std::nullopt;
    for (const arith::Expr& c : g->conjuncts) {
      switch (arith::ApplyGuard(c, &space)) {
        case arith::GuardEffect::kNone:
          reach.facts.AddNonNegative(c);
          break;
        case arith::GuardEffect::kNarrowed:
          break;
        case arith::GuardEffect::kEmpty:
          return std::nullopt;  // never executed
        case arith::GuardEffect::kOther:
          multi.push_back(c);
          break;
      }
    }
  }
  std::optional<arith::Extremes> x;
  if (multi.empty()) {
    x = arith::ExactExtremes(e, space);
  }
  if (!x) {
    bool empty = false;
    x = arith::EnumeratedExtremes(e, multi, space, kEnumerationLimit, &empty);
  }
  if (!x) return std::nullopt;
  reach.min = x->min;
  reach.max = x->max;
  for (const std::string& v : arith::IterVarsOf(e, space)) {
    const arith::IterDomain& d = space.at(v);
    if (!reach.loops.empty()) reach.loops += ", ";
    auto shown = display.find(v);
    reach.loops += (shown != display.end() ? shown->second : v) + " in ";
    if (d.step == 1) {
      reach.loops += "[" + d.lo.ToString() + ", " + (d.hi + 1).ToString() + ")";
    } else {
      reach.loops += "{" + d.lo.ToString() + ", " + (d.lo + d.step).ToString() + ", ..., " + d.hi.ToString() + "}";
    }
    auto header = headers.find(v);
    TextRange h = header != headers.end() ? header->second : TextRange{};
    if (reach.loop_range.empty() || h.begin > reach.loop_range.begin) reach.loop_range = h;
  }
  return reach;
}

std::shared_ptr<const PrimLowering::WithinState> PrimLowering::SnapshotForWithin(const Allocation& a) const {
  auto state = std::make_shared<WithinState>();
  state->space = space_;
  for (const Frame& f : frames_) state->guards.insert(state->guards.end(), f.guards.begin(), f.guards.end());
  state->scopes = scopes_;
  state->alloc = a;
  for (const auto& [v, d] : space_) {
    if (auto it = display_.find(v); it != display_.end()) state->display.emplace(v, it->second);
    if (auto it = headers_.find(v); it != headers_.end()) state->headers.emplace(v, it->second);
  }
  return state;
}

std::function<std::optional<check::IndexReach>(size_t)> PrimLowering::WithinOf(const arith::Expr& e,
                                                                                std::shared_ptr<const WithinState> state) {
  return [e, state = std::move(state)](size_t n) -> std::optional<check::IndexReach> {
    const size_t level = state->alloc.depth + n;
    if (level > state->scopes.size()) return std::nullopt;
    std::set<std::string> relaxed;
    for (size_t i = 0; i < state->scopes.size(); ++i) {
      const Scope& s = state->scopes[i];
      if (!s.var.empty() && (i >= level || RelaxesThread(state->alloc.storage_rank, s))) relaxed.insert(s.var);
    }
    std::vector<const Guard*> guards;
    for (const Guard& g : state->guards) guards.push_back(&g);
    return Reach(e, state->space, guards, state->display, state->headers, &relaxed);
  };
}

int PrimLowering::StorageRank(const std::string& scope) {
  auto starts = [&](std::string_view p) { return scope.compare(0, p.size(), p) == 0; };
  if (scope.empty() || starts("global")) return 0;
  if (starts("shared")) return 1;
  if (starts("warp")) return 2;
  return starts("local") ? 3 : 4;
}

bool PrimLowering::RelaxesThread(int storage_rank, const Scope& loop) {
  if (loop.thread_rank < 0) return false;
  if (storage_rank == 2) return loop.thread_rank == 1 && loop.thread_dim == 0;
  return storage_rank <= loop.thread_rank;
}

std::optional<check::IndexReach> PrimLowering::ReachOrPoint(const arith::Expr& e) {
  if (arith::HasOpaque(e)) return std::nullopt;
  if (!arith::IterVarsOf(e, space_).empty()) return ReachOf(e);
  if (!e.IsConst() || !GuardsKnownTrue()) return std::nullopt;
  return check::IndexReach{e, e, "", {}, {}};
}

bool PrimLowering::GuardsKnownTrue() const {
  for (const Frame& f : frames_) {
    for (const Guard& g : f.guards) {
      if (!g.known || !g.conjuncts.empty()) return false;
    }
  }
  return true;
}

}  // namespace tvmls::analysis::prim_lowering
