#include "model/pipeline.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "model/syntax_util.h"

namespace tvmls::analysis {
namespace {

// Longer lists and chains are not followed (the check is quadratic in a pipeline's length).
constexpr size_t kMaxSteps = 1000;
// Deeper expressions (`a + b + ...`, nested applications) are unknown: no deep recursion.
constexpr int kMaxDepth = 100;

// What a Python name holds, as far as pipelines go.
struct Value {
  enum class Kind { kUnknown, kList, kPass, kModule };
  Kind kind = Kind::kUnknown;
  // kList: the passes in it; kPass: what applying it runs (one pass, or a Sequential's); kModule:
  // the passes applied to it so far.
  std::vector<PipelineStep> steps;
  int applications = 0;  // kModule: how many applications made it
};

using Vars = std::map<std::string, Value>;

bool SameStep(const PipelineStep& a, const PipelineStep& b) {
  return a.range.begin == b.range.begin && a.range.end == b.range.end && a.pass == b.pass && a.cond == b.cond;
}

bool SameValue(const Value& a, const Value& b) {
  if (a.kind != b.kind || a.applications != b.applications || a.steps.size() != b.steps.size()) return false;
  for (size_t i = 0; i < a.steps.size(); ++i) {
    if (!SameStep(a.steps[i], b.steps[i])) return false;
  }
  return true;
}

// Puts the step in arm `arm` of `choice` (unless it already is in one of its arms).
void AddArm(PipelineStep* step, uint32_t choice, uint32_t arm) {
  PipelineCond& c = step->cond;
  auto at = std::lower_bound(c.begin(), c.end(), std::make_pair(choice, 0u));
  if (at != c.end() && at->first == choice) return;
  c.insert(at, {choice, arm});
}

// Methods and functions that only read a list or a module given to them.
bool ReadOnlyMethod(std::string_view m) {
  for (const char* r : {"copy", "count", "index", "show", "script", "astext", "get_global_var", "get_global_vars",
                        "functions_items", "items", "keys", "values", "with_attr", "without_attr"}) {
    if (m == r) return true;
  }
  return false;
}
bool ReadOnlyFunction(std::string_view f) {
  for (const char* r : {"print", "len", "str", "repr", "isinstance", "type", "id", "assert_structural_equal",
                        "structural_equal", "assert_allclose", "well_formed", "show", "Sequential"}) {
    if (f == r) return true;
  }
  return false;
}

class Finder {
 public:
  Finder(std::string_view text, const std::set<const void*>& skip, const Aliases& aliases, std::vector<Pipeline>* out)
      : text_(text), skip_(skip), aliases_(aliases), out_(out) {}

  void Top(TSNode stmt) {
    Scope scope;
    Statement(stmt, &scope);
    Finish(&scope);
  }

 private:
  // The statements of one function (or class body, or a top-level statement) in order.
  struct Scope {
    Vars vars;
    PipelineCond cond;  // the branches the statements being followed sit in
    bool function = false;  // the body of a function
    std::vector<std::vector<PipelineStep>> chains;  // module chains of two applications or more
  };

  // ---- Names of passes -------------------------------------------------------------------

  // The Relax pass a constructor call names, through the file's imports; nullopt when the call
  // is not spelled as one (`relax.transform.FoldConstant()` -> "FoldConstant").
  std::optional<std::string> PassName(TSNode call) const {
    if (!Is(call, "call")) return std::nullopt;
    auto path = DottedPath(Field(call, "function"), text_);
    if (!path || path->empty()) return std::nullopt;
    const std::vector<std::string>& p = *path;
    const std::string& name = p.back();
    if (p.size() == 1) {
      auto it = aliases_.py_passes.find(name);
      if (it != aliases_.py_passes.end()) {
        if (it->second == "Sequential") return std::nullopt;
        return it->second;
      }
      // Under `from tvm.relax.transform import *`, a call of a capitalized name (as passes are).
      if (aliases_.py_pass_star && !name.empty() && name[0] >= 'A' && name[0] <= 'Z') return name;
      return std::nullopt;
    }
    bool relax_transform =
        (p.size() == 4 && p[0] == "tvm" && p[1] == "relax" && p[2] == "transform") ||
        (p.size() == 3 && aliases_.py_relax.count(p[0]) > 0 && p[1] == "transform") ||
        (p.size() == 2 && aliases_.py_relax_transform.count(p[0]) > 0);
    if (relax_transform) return name;
    if (name == "PrintIR" && IrTransform(p)) return name;
    return std::nullopt;
  }

  // Whether `p` without its last part is tvm.transform / tvm.ir.transform / a name for them.
  bool IrTransform(const std::vector<std::string>& p) const {
    return (p.size() == 3 && p[0] == "tvm" && p[1] == "transform") ||
           (p.size() == 4 && p[0] == "tvm" && p[1] == "ir" && p[2] == "transform") ||
           (p.size() == 2 && aliases_.py_ir_transform.count(p[0]) > 0);
  }

  bool IsSequential(TSNode call) const {
    if (!Is(call, "call")) return false;
    auto path = DottedPath(Field(call, "function"), text_);
    if (!path || path->empty() || path->back() != "Sequential") return false;
    if (path->size() == 1) {
      auto it = aliases_.py_passes.find(path->front());
      return it != aliases_.py_passes.end() && it->second == "Sequential";
    }
    return IrTransform(*path);
  }

  // ---- Values ----------------------------------------------------------------------------

  PipelineStep Step(TSNode n, std::string pass, const Scope& s, bool movable) const {
    return PipelineStep{std::move(pass), RangeOf(n), std::string(TextOf(n, text_)), s.cond, movable};
  }

  static Value Unknown() { return Value{}; }

  // The passes `Sequential(...)` runs; nullopt when they are not known as a list.
  std::optional<std::vector<PipelineStep>> SequentialSteps(TSNode call, Scope* s, std::set<const void*>* consumed) {
    CallArgs args = ArgsOf(call, text_);
    TSNode passes = Keyword(args, "passes");
    if (ts_node_is_null(passes) && !args.positional.empty()) passes = args.positional[0];
    if (ts_node_is_null(passes)) return std::vector<PipelineStep>{};
    Value v = Eval(passes, s, consumed, /*direct=*/true);
    if (v.kind != Value::Kind::kList) return std::nullopt;
    return std::move(v.steps);
  }

  // Appends the steps of one element of a pass list (or an appended value) to `out`.
  void Element(TSNode e, Scope* s, std::set<const void*>* consumed, std::vector<PipelineStep>* out) {
    e = Unparen(e);
    if (Is(e, "list_splat")) {
      std::vector<TSNode> kids = NamedChildren(e);
      Value v = kids.empty() ? Unknown() : Eval(kids[0], s, consumed, false);
      if (v.kind == Value::Kind::kList) {
        for (PipelineStep& st : v.steps) st.movable = false;
        out->insert(out->end(), v.steps.begin(), v.steps.end());
      } else {
        out->push_back(Step(e, "", *s, false));
      }
      return;
    }
    if (Is(e, "conditional_expression") && depth_ < kMaxDepth) {
      ++depth_;
      uint32_t choice = next_choice_++;
      uint32_t arm = 0;
      for (const char* field : {"consequence", "alternative"}) {
        std::vector<PipelineStep> steps;
        Element(Field(e, field), s, consumed, &steps);
        for (PipelineStep& st : steps) {
          AddArm(&st, choice, arm);
          st.movable = false;
          out->push_back(std::move(st));
        }
        ++arm;
      }
      Eval(Field(e, "condition"), s, consumed, false);
      --depth_;
      return;
    }
    if (Is(e, "call") || Is(e, "identifier")) {
      Value v = Eval(e, s, consumed, false);
      if (v.kind == Value::Kind::kPass) {
        if (Is(e, "identifier")) {
          for (PipelineStep& st : v.steps) st.movable = false;
        }
        out->insert(out->end(), v.steps.begin(), v.steps.end());
        return;
      }
    }
    out->push_back(Step(e, "", *s, true));
  }

  // What expression `e` evaluates to. `direct`: `e` is the list given to Sequential itself (its
  // steps stay movable). Names read are added to `consumed`.
  Value Eval(TSNode e, Scope* s, std::set<const void*>* consumed, bool direct) {
    if (depth_ >= kMaxDepth) return Unknown();
    ++depth_;
    Value v = EvalNode(Unparen(e), s, consumed, direct);
    --depth_;
    return v;
  }

  Value EvalNode(TSNode e, Scope* s, std::set<const void*>* consumed, bool direct) {
    if (ts_node_is_null(e)) return Unknown();
    if (Is(e, "list") || Is(e, "tuple")) {
      Value v;
      v.kind = Value::Kind::kList;
      for (TSNode el : NamedChildren(e)) {
        if (Is(el, "comment")) continue;
        Element(el, s, consumed, &v.steps);
      }
      return Capped(std::move(v));
    }
    if (Is(e, "identifier")) {
      auto it = s->vars.find(std::string(TextOf(e, text_)));
      if (it == s->vars.end()) return Unknown();
      consumed->insert(e.id);
      Value v = it->second;
      if (!direct && v.kind == Value::Kind::kList) {
        for (PipelineStep& st : v.steps) st.movable = false;
      }
      return v;
    }
    if (Is(e, "binary_operator") && TextOf(Field(e, "operator"), text_) == "+") {
      TSNode sides[2] = {Field(e, "left"), Field(e, "right")};
      Value parts[2] = {Eval(sides[0], s, consumed, false), Eval(sides[1], s, consumed, false)};
      if (parts[0].kind != Value::Kind::kList && parts[1].kind != Value::Kind::kList) return Unknown();
      Value v;
      v.kind = Value::Kind::kList;
      for (int k = 0; k < 2; ++k) {
        if (parts[k].kind == Value::Kind::kList) {
          v.steps.insert(v.steps.end(), parts[k].steps.begin(), parts[k].steps.end());
        } else {
          v.steps.push_back(Step(sides[k], "", *s, false));
        }
      }
      return Capped(std::move(v));
    }
    if (!Is(e, "call")) return Unknown();
    if (IsSequential(e)) {
      Value v;
      v.kind = Value::Kind::kPass;
      if (auto steps = SequentialSteps(e, s, consumed)) {
        v.steps = std::move(*steps);
      } else {
        v.steps.push_back(Step(e, "", *s, true));
      }
      return Capped(std::move(v));
    }
    if (auto name = PassName(e)) {
      Value v;
      v.kind = Value::Kind::kPass;
      v.steps.push_back(Step(e, *name, *s, true));
      return v;
    }
    // An application: a pass (a constructor call, a Sequential, a name bound to one) called on a
    // module.
    TSNode callee = Field(e, "function");
    if (Is(Unparen(callee), "call") || Is(callee, "identifier")) {
      CallArgs args = ArgsOf(e, text_);
      Value pass = Eval(callee, s, consumed, false);
      if (pass.kind == Value::Kind::kPass && args.positional.size() == 1 && args.keywords.empty() && !args.splat) {
        Value base = Eval(args.positional[0], s, consumed, false);
        Value v;
        v.kind = Value::Kind::kModule;
        if (base.kind == Value::Kind::kModule) {
          v.steps = std::move(base.steps);
          v.applications = base.applications;
        }
        if (Is(callee, "identifier")) {
          for (PipelineStep& st : pass.steps) st.movable = false;
        }
        v.steps.insert(v.steps.end(), pass.steps.begin(), pass.steps.end());
        ++v.applications;
        return Capped(std::move(v));
      }
    }
    return Unknown();
  }

  static Value Capped(Value v) { return v.steps.size() > kMaxSteps ? Unknown() : v; }

  // ---- Statements ------------------------------------------------------------------------

  void Block(TSNode block, Scope* s) {
    for (TSNode stmt : NamedChildren(block)) {
      if (!Is(stmt, "comment")) Statement(stmt, s);
    }
  }

  void Statement(TSNode n, Scope* s) {
    if (ts_node_is_null(n) || depth_ >= kMaxDepth) return;
    // A definition (a TVMScript unit too) binds its name anew.
    TSNode def = Is(n, "decorated_definition") ? Field(n, "definition") : n;
    if (Is(def, "function_definition") || Is(def, "class_definition")) {
      auto it = s->vars.find(std::string(TextOf(Field(def, "name"), text_)));
      if (it != s->vars.end()) it->second = Unknown();
    }
    if (skip_.count(n.id) > 0 || skip_.count(def.id) > 0) return;
    ++depth_;
    StatementNode(n, s);
    --depth_;
  }

  void StatementNode(TSNode n, Scope* s) {
    if (Is(n, "decorated_definition")) {
      Statement(Field(n, "definition"), s);
    } else if (Is(n, "function_definition") || Is(n, "class_definition")) {
      Scope inner;
      inner.function = Is(n, "function_definition");
      Block(Field(n, "body"), &inner);
      Finish(&inner);
      Taint(n, s, {});  // a list the body names may change whenever it runs
    } else if (Is(n, "expression_statement") || Is(n, "assignment") || Is(n, "augmented_assignment") ||
               Is(n, "call")) {
      Simple(n, s);
    } else if (Is(n, "return_statement")) {
      ScanSequentials(n, s);
      std::set<const void*> consumed;
      for (TSNode e : NamedChildren(n)) {
        // A function returning a list of passes builds a pipeline, or a piece of one (TVM's
        // backend/*/pipeline.py: `return [...]` joined by `+` in another function): checked on
        // its own, it starts as after an unknown pass.
        Value v = Eval(e, s, &consumed, /*direct=*/true);
        Record(v, s);
        bool passes = std::any_of(v.steps.begin(), v.steps.end(), [](const PipelineStep& st) { return !st.pass.empty(); });
        if (v.kind == Value::Kind::kList && s->function && passes) Add(std::move(v.steps));
      }
      Taint(n, s, consumed);
    } else if (Is(n, "if_statement")) {
      If(n, s);
    } else if (Is(n, "match_statement")) {
      Match(n, s);
    } else if (Is(n, "for_statement") || Is(n, "while_statement") || Is(n, "try_statement")) {
      Loop(n, s);
    } else if (Is(n, "with_statement")) {
      Header(Field(n, "items"), s);
      Block(Field(n, "body"), s);
    } else if (Is(n, "block")) {
      Block(n, s);
    } else {
      Header(n, s);
    }
  }

  // An expression that is not followed further: its Sequential calls, and what it may do to
  // the names it mentions.
  void Header(TSNode n, Scope* s) {
    if (ts_node_is_null(n)) return;
    ScanSequentials(n, s);
    Taint(n, s, {});
  }

  void Simple(TSNode stmt, Scope* s) {
    ScanSequentials(stmt, s);
    std::set<const void*> consumed;
    TSNode e = stmt;
    if (Is(stmt, "expression_statement")) {
      std::vector<TSNode> kids = NamedChildren(stmt);
      e = kids.size() == 1 ? kids[0] : TSNode{};
    }
    if (Is(e, "assignment")) {
      Assignment(e, s, &consumed);
    } else if (Is(e, "augmented_assignment")) {
      TSNode left = Field(e, "left");
      Value* list = ListNamed(left, s);
      if (list != nullptr && TextOf(Field(e, "operator"), text_) == "+=") {
        consumed.insert(left.id);
        Extend(Field(e, "right"), s, &consumed, list);
      }
    } else if (Is(e, "call")) {
      TSNode f = Field(e, "function");
      CallArgs args = ArgsOf(e, text_);
      Value* list = Is(f, "attribute") ? ListNamed(Field(f, "object"), s) : nullptr;
      std::string_view method = Is(f, "attribute") ? TextOf(Field(f, "attribute"), text_) : "";
      if (list != nullptr && (method == "append" || method == "extend") && args.positional.size() == 1 &&
          args.keywords.empty() && !args.splat) {
        consumed.insert(Field(f, "object").id);
        if (method == "append") {
          std::vector<PipelineStep> steps;
          Element(args.positional[0], s, &consumed, &steps);
          Append(std::move(steps), list);
        } else {
          Extend(args.positional[0], s, &consumed, list);
        }
      } else {
        Record(Eval(e, s, &consumed, false), s);
      }
    }
    Taint(stmt, s, consumed);
  }

  void Assignment(TSNode a, Scope* s, std::set<const void*>* consumed) {
    TSNode left = Field(a, "left"), right = Field(a, "right");
    if (!Is(left, "identifier") || ts_node_is_null(right) || Is(right, "assignment")) return;
    std::string name(TextOf(left, text_));
    consumed->insert(left.id);
    TSNode r = Unparen(right);
    if (Is(r, "identifier")) {
      // Two names for one list: changes through either are not followed.
      auto it = s->vars.find(std::string(TextOf(r, text_)));
      if (it != s->vars.end() && it->second.kind == Value::Kind::kList) {
        it->second = Unknown();
        s->vars[name] = Unknown();
        consumed->insert(r.id);
        return;
      }
    }
    if (Value* list = ListNamed(left, s); list != nullptr && Is(r, "binary_operator") &&
                                           TextOf(Field(r, "operator"), text_) == "+" &&
                                           TextOf(Unparen(Field(r, "left")), text_) == name) {
      consumed->insert(Unparen(Field(r, "left")).id);  // `passes = passes + [...]` extends it
      Extend(Field(r, "right"), s, consumed, list);
      return;
    }
    Value v = Eval(right, s, consumed, false);
    Record(v, s);
    s->vars[name] = std::move(v);
  }

  Value* ListNamed(TSNode n, Scope* s) {
    if (!Is(n, "identifier")) return nullptr;
    auto it = s->vars.find(std::string(TextOf(n, text_)));
    return it != s->vars.end() && it->second.kind == Value::Kind::kList ? &it->second : nullptr;
  }

  void Append(std::vector<PipelineStep> steps, Value* list) {
    list->steps.insert(list->steps.end(), std::make_move_iterator(steps.begin()), std::make_move_iterator(steps.end()));
    if (list->steps.size() > kMaxSteps) *list = Unknown();
  }

  // `list.extend(e)` / `list += e`.
  void Extend(TSNode e, Scope* s, std::set<const void*>* consumed, Value* list) {
    Value v = Eval(e, s, consumed, /*direct=*/true);
    if (v.kind == Value::Kind::kList) {
      Append(std::move(v.steps), list);
    } else {
      Append({Step(e, "", *s, false)}, list);
    }
  }

  // A module chain made by two applications or more is a pipeline.
  void Record(const Value& v, Scope* s) {
    if (v.kind == Value::Kind::kModule && v.applications >= 2 && s->chains.size() < kMaxSteps) {
      s->chains.push_back(v.steps);
    }
  }

  // `if` / `elif` / `else`: each arm runs from the state before; what an arm adds is in its arm.
  void If(TSNode n, Scope* s) {
    Header(Field(n, "condition"), s);
    std::vector<TSNode> arms = {Field(n, "consequence")};
    bool has_else = false;
    for (TSNode c : NamedChildren(n)) {
      if (Is(c, "elif_clause")) {
        Header(Field(c, "condition"), s);
        arms.push_back(Field(c, "consequence"));
      } else if (Is(c, "else_clause")) {
        arms.push_back(Field(c, "body"));
        has_else = true;
      }
    }
    Branches(arms, has_else, s);
  }

  void Match(TSNode n, Scope* s) {
    for (TSNode c : NamedChildren(n)) {
      if (!Is(c, "block")) Header(c, s);
    }
    std::vector<TSNode> arms;
    for (TSNode c : NamedChildren(Field(n, "body"))) {
      if (Is(c, "case_clause")) arms.push_back(Field(c, "consequence"));
    }
    Branches(arms, /*exhaustive=*/false, s);
  }

  // Runs each arm (excluding each other) from the current state and merges: a name keeps what
  // all arms agree on, then what each added, in its arm.
  void Branches(const std::vector<TSNode>& arms, bool exhaustive, Scope* s) {
    uint32_t choice = next_choice_++;
    std::vector<Vars> states;
    for (size_t k = 0; k < arms.size(); ++k) {
      Scope arm{s->vars, s->cond, s->function, {}};
      PipelineStep probe;
      probe.cond = s->cond;
      AddArm(&probe, choice, static_cast<uint32_t>(k));
      arm.cond = probe.cond;
      Block(arms[k], &arm);
      for (auto& c : arm.chains) s->chains.push_back(std::move(c));
      states.push_back(std::move(arm.vars));
    }
    if (!exhaustive) states.push_back(s->vars);
    std::set<std::string> names;
    for (const Vars& st : states) {
      for (const auto& [name, v] : st) names.insert(name);
    }
    for (const std::string& name : names) s->vars[name] = Merge(states, name, choice);
  }

  static Value Merge(const std::vector<Vars>& states, const std::string& name, uint32_t choice) {
    std::vector<const Value*> values;
    for (const Vars& st : states) {
      auto it = st.find(name);
      if (it == st.end() || it->second.kind == Value::Kind::kUnknown) return Unknown();
      values.push_back(&it->second);
    }
    const Value& first = *values[0];
    for (const Value* v : values) {
      if (v->kind != first.kind) return Unknown();
    }
    if (first.kind == Value::Kind::kPass) {
      for (const Value* v : values) {
        if (!SameValue(*v, first)) return Unknown();
      }
      return first;
    }
    size_t prefix = first.steps.size();
    for (const Value* v : values) {
      size_t k = 0;
      while (k < prefix && k < v->steps.size() && SameStep(v->steps[k], first.steps[k])) ++k;
      prefix = k;
    }
    Value out;
    out.kind = first.kind;
    out.steps.assign(first.steps.begin(), first.steps.begin() + static_cast<long>(prefix));
    for (size_t arm = 0; arm < values.size(); ++arm) {
      out.applications = std::max(out.applications, values[arm]->applications);
      for (size_t k = prefix; k < values[arm]->steps.size(); ++k) {
        PipelineStep st = values[arm]->steps[k];
        AddArm(&st, choice, static_cast<uint32_t>(arm));
        out.steps.push_back(std::move(st));
      }
    }
    return Capped(std::move(out));
  }

  // `for` / `while` / `try`: the body may run any number of times, or stop anywhere. Its
  // Sequential calls are found (as of a first run); a name it changes is unknown after it.
  void Loop(TSNode n, Scope* s) {
    for (const char* header : {"right", "condition"}) Header(Field(n, header), s);
    std::vector<TSNode> bodies;
    if (!ts_node_is_null(Field(n, "body"))) bodies.push_back(Field(n, "body"));
    for (TSNode c : NamedChildren(n)) {
      if (Is(c, "else_clause") || Is(c, "except_clause") || Is(c, "finally_clause")) {
        if (Is(c, "except_clause")) Header(Field(c, "value"), s);
        bodies.push_back(Field(c, "body"));
      }
    }
    uint32_t choice = next_choice_++;
    Vars before = s->vars;
    TSNode left = Field(n, "left");
    std::vector<Vars> after;
    for (size_t k = 0; k < bodies.size(); ++k) {
      Scope body{before, s->cond, s->function, {}};
      PipelineStep probe;
      probe.cond = s->cond;
      AddArm(&probe, choice, static_cast<uint32_t>(k));
      body.cond = probe.cond;
      if (!ts_node_is_null(left)) Taint(left, &body, {}, /*rebinds=*/true);
      Block(bodies[k], &body);
      for (auto& c : body.chains) s->chains.push_back(std::move(c));
      after.push_back(std::move(body.vars));
    }
    for (const Vars& st : after) {
      for (const auto& [name, v] : st) {
        auto it = before.find(name);
        if (it == before.end() || !SameValue(it->second, v)) s->vars[name] = Unknown();
      }
    }
    if (!ts_node_is_null(left)) Taint(left, s, {}, /*rebinds=*/true);
  }

  // ---- What a statement may do to the names it mentions ----------------------------------

  // Each mention of a list or module name in `n` that was not read as a pass list (`consumed`):
  // a list that may change (a method other than append/extend, an element assigned, given to a
  // call, named in a nested function, bound anew) is unknown from here on; a module that may
  // change (an element assigned, bound anew) gets an unknown step.
  void Taint(TSNode n, Scope* s, const std::set<const void*>& consumed, bool rebinds = false) {
    bool tracked = std::any_of(s->vars.begin(), s->vars.end(), [](const auto& v) {
      return v.second.kind == Value::Kind::kList || v.second.kind == Value::Kind::kModule;
    });
    if (!tracked) return;
    ForEachNode(n, [&](TSNode m) {
      if (skip_.count(m.id) > 0) return false;
      if (!Is(m, "identifier") || consumed.count(m.id) > 0) return true;
      auto it = s->vars.find(std::string(TextOf(m, text_)));
      if (it == s->vars.end()) return true;
      Value& v = it->second;
      if (v.kind != Value::Kind::kList && v.kind != Value::Kind::kModule) return true;
      bool changes = rebinds || MayChange(m, n, v.kind == Value::Kind::kList);
      if (!changes) return true;
      if (v.kind == Value::Kind::kList) {
        v = Unknown();
      } else {
        Append({Step(m, "", *s, false)}, &v);
      }
      return true;
    });
  }

  // Whether the mention `m` (inside `root`) may change what it names.
  bool MayChange(TSNode m, TSNode root, bool list) const {
    for (TSNode p = ts_node_parent(m); !ts_node_is_null(p) && !ts_node_eq(p, root); p = ts_node_parent(p)) {
      if (Is(p, "function_definition") || Is(p, "lambda") || Is(p, "class_definition")) return list;
    }
    if (ts_node_eq(m, root)) return false;
    TSNode parent = ts_node_parent(m);
    if (Is(parent, "attribute") || Is(parent, "subscript")) {
      TSNode base = Field(parent, Is(parent, "attribute") ? "object" : "value");
      if (!ts_node_eq(base, m)) return false;
      if (Target(parent)) return true;
      TSNode call = ts_node_parent(parent);
      if (Is(parent, "attribute") && Is(call, "call") && ts_node_eq(Field(call, "function"), parent)) {
        return !ReadOnlyMethod(TextOf(Field(parent, "attribute"), text_));
      }
      return false;
    }
    if (Target(m)) return true;
    TSNode args = parent;
    if (Is(args, "keyword_argument")) args = ts_node_parent(args);
    if (list && Is(args, "argument_list")) {
      auto path = DottedPath(Field(ts_node_parent(args), "function"), text_);
      return !(path && !path->empty() && ReadOnlyFunction(path->back()));
    }
    return false;
  }

  // Whether `n` is (part of) the target of an assignment or a `del`.
  static bool Target(TSNode n) {
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); n = p, p = ts_node_parent(p)) {
      if (Is(p, "assignment") || Is(p, "augmented_assignment")) return ts_node_eq(Field(p, "left"), n);
      if (Is(p, "delete_statement")) return true;
      if (!Is(p, "pattern_list") && !Is(p, "tuple_pattern") && !Is(p, "list_pattern") && !Is(p, "expression_list") &&
          !Is(p, "tuple") && !Is(p, "list") && !Is(p, "parenthesized_expression")) {
        return false;
      }
    }
    return false;
  }

  // ---- Sequential calls and results ------------------------------------------------------

  // Every Sequential call in `n` (not in nested functions or units) is a pipeline; one that is
  // an element of another Sequential's list is part of that one.
  void ScanSequentials(TSNode n, Scope* s) {
    ForEachNode(n, [&](TSNode m) {
      if (skip_.count(m.id) > 0 || Is(m, "function_definition") || Is(m, "lambda") || Is(m, "class_definition")) {
        return false;
      }
      if (!IsSequential(m) || InsideSequential(m)) return true;
      std::set<const void*> consumed;
      if (auto steps = SequentialSteps(m, s, &consumed)) Add(std::move(*steps));
      return true;
    });
  }

  bool InsideSequential(TSNode call) const {
    TSNode p = ts_node_parent(call);
    while (Is(p, "parenthesized_expression")) p = ts_node_parent(p);
    if (!Is(p, "list") && !Is(p, "tuple")) return false;
    TSNode args = ts_node_parent(p);
    if (Is(args, "keyword_argument")) args = ts_node_parent(args);
    return Is(args, "argument_list") && IsSequential(ts_node_parent(args));
  }

  void Add(std::vector<PipelineStep> steps) {
    if (steps.size() >= 2) out_->push_back(Pipeline{std::move(steps)});
  }

  // A scope's chains, but those that another one continues (or repeats).
  void Finish(Scope* s) {
    std::vector<std::vector<PipelineStep>>& c = s->chains;
    auto extends = [](const std::vector<PipelineStep>& longer, const std::vector<PipelineStep>& shorter) {
      if (shorter.size() > longer.size()) return false;
      for (size_t k = 0; k < shorter.size(); ++k) {
        if (!SameStep(longer[k], shorter[k])) return false;
      }
      return true;
    };
    for (size_t i = 0; i < c.size(); ++i) {
      bool continued = false;
      for (size_t j = 0; j < c.size() && !continued; ++j) {
        if (i == j || !extends(c[j], c[i])) continue;
        continued = c[j].size() > c[i].size() || j > i;  // of two equal ones, the last is kept
      }
      if (!continued) Add(c[i]);
    }
  }

  std::string_view text_;
  const std::set<const void*>& skip_;
  const Aliases& aliases_;
  std::vector<Pipeline>* out_;
  uint32_t next_choice_ = 0;
  int depth_ = 0;  // of Eval, against deeply nested expressions
};

// Whether the statement may build a pipeline: it names Sequential, a transform module or an
// imported pass.
bool MayHavePipeline(std::string_view t, const Aliases& aliases) {
  if (t.find("Sequential") != std::string_view::npos || t.find("transform") != std::string_view::npos) return true;
  for (const auto& [alias, name] : aliases.py_passes) {
    if (t.find(alias) != std::string_view::npos) return true;
  }
  for (const std::string& alias : aliases.py_relax_transform) {
    if (t.find(alias) != std::string_view::npos) return true;
  }
  return aliases.py_pass_star;
}

}  // namespace

void FindPipelines(TSNode stmt, std::string_view text, const std::set<const void*>& skip, const Aliases& aliases,
                   std::vector<Pipeline>* out) {
  if (!MayHavePipeline(TextOf(stmt, text), aliases)) return;
  Finder(text, skip, aliases, out).Top(stmt);
}

}  // namespace tvmls::analysis
