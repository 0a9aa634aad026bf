// `undefined-name` in a PrimFunc (CheckPrimUndefinedNames, lower_internal.h): a pass of its own
// over the function's syntax after lower_prim.cc has lowered it.
#include <set>
#include <string>

#include "check/check.h"
#include "model/lower_internal.h"
#include "model/syntax_util.h"

namespace tvmls::analysis {

namespace {

// `undefined-name` in a PrimFunc, flow-insensitively: a name used anywhere in the function that is
// bound nowhere in it (parameters, assignment / loop / `with ... as` targets, nested definitions)
// and is not a name of the surrounding Python, an alias or a builtin. Catches typos without
// judging the order of definitions (TVM's parser does, but ordering mistakes are rare and
// closures make them hard to judge).
class TirNames {
 public:
  TirNames(TSNode def, std::string_view text, const ModuleContext& ctx, FunctionModel* fn)
      : def_(def), text_(text), ctx_(ctx), fn_(fn), base_(ts_node_start_byte(def)) {}

  void Check() {
    if (ctx_.star_import) return;
    TSNode func = Is(def_, "decorated_definition") ? Field(def_, "definition") : def_;
    Bind(Field(func, "parameters"));
    ForEachNode(Field(func, "body"), [&](TSNode n) {
      if (Is(n, "assignment") || Is(n, "augmented_assignment") || Is(n, "for_statement") ||
          Is(n, "for_in_clause")) {
        Targets(Field(n, "left"));
      } else if (Is(n, "with_item")) {
        TSNode alias = Field(n, "alias");
        if (!ts_node_is_null(alias)) Targets(alias);
      } else if (Is(n, "as_pattern_target") || Is(n, "named_expression")) {
        Targets(Is(n, "named_expression") ? Field(n, "name") : n);
      } else if (Is(n, "function_definition") || Is(n, "class_definition")) {
        Targets(Field(n, "name"));
        Bind(Field(n, "parameters"));
      } else if (Is(n, "lambda")) {
        Bind(Field(n, "parameters"));
      } else if (Is(n, "global_statement") || Is(n, "nonlocal_statement") || Is(n, "import_statement") ||
                 Is(n, "import_from_statement")) {
        give_up_ = true;  // Python-level scoping: not ours to judge
      }
      return true;
    });
    if (give_up_) return;
    std::set<std::string> reported;
    ForEachNode(Field(func, "body"), [&](TSNode n) { return Visit(n, &reported); });
  }

 private:
  bool Visit(TSNode n, std::set<std::string>* reported) {
    if (Is(n, "attribute")) {
      Use(Field(n, "object"), reported);
      return false;
    }
    if (Is(n, "keyword_argument")) {
      ForEachNode(Field(n, "value"), [&](TSNode k) { return Visit(k, reported); });
      return false;
    }
    if (Is(n, "identifier")) {
      Use(n, reported);
      return false;
    }
    return !Is(n, "string");
  }

  void Use(TSNode n, std::set<std::string>* reported) {
    if (Is(n, "attribute")) {
      Use(Field(n, "object"), reported);
      return;
    }
    if (!Is(n, "identifier")) {
      ForEachNode(n, [&](TSNode k) { return Visit(k, reported); });
      return;
    }
    std::string name(TextOf(n, text_));
    if (bound_.count(name) || reported->count(name)) return;
    if (Known(name)) {
      bound_.insert(name);  // resolved once per function
      return;
    }
    reported->insert(name);
    check::ScopeProblem p;
    p.kind = check::ScopeProblem::Kind::kUndefinedInPrimFunc;
    p.range = {ts_node_start_byte(n) - base_, ts_node_end_byte(n) - base_};
    p.name = name;
    p.function = fn_->name;
    checks().Report(&check::Check::OnScopeProblem, p);
  }

  bool Known(const std::string& name) const {
    const Aliases& a = *ctx_.aliases;
    if (a.tir.count(name) || a.relax.count(name) || a.ir.count(name) || a.tvm.count(name)) return true;
    bool python = ctx_.IsPythonName(name);
    fn_->outer_lookups[name] = python;
    if (python) return true;
    if (IsPythonBuiltin(name)) return true;
    return name == ctx_.module_name || ctx_.extern_globals.count(name) > 0;
  }

  void Targets(TSNode n) {
    if (ts_node_is_null(n)) return;
    if (Is(n, "identifier")) {
      bound_.insert(std::string(TextOf(n, text_)));
      return;
    }
    if (Is(n, "attribute") || Is(n, "subscript")) return;
    for (TSNode c : NamedChildren(n)) Targets(c);
  }

  void Bind(TSNode params) {
    if (ts_node_is_null(params)) return;
    for (TSNode p : NamedChildren(params)) {
      if (Is(p, "identifier")) {
        Targets(p);
        continue;
      }
      TSNode name = Field(p, "name");
      if (!ts_node_is_null(name)) Targets(name);
      for (TSNode c : NamedChildren(p)) {
        if (Is(c, "identifier") && ts_node_is_null(name)) Targets(c);  // *args, **kw
      }
    }
  }

  TSNode def_;
  std::string_view text_;
  const ModuleContext& ctx_;
  FunctionModel* fn_;
  uint32_t base_;
  std::set<std::string> bound_;
  bool give_up_ = false;
  check::LazyChecks checks{fn_};

 public:
  void Finish() { checks.End(); }
};

}  // namespace

void CheckPrimUndefinedNames(TSNode def, std::string_view text, const ModuleContext& ctx, FunctionModel* fn) {
  TirNames names(def, text, ctx, fn);
  names.Check();
  names.Finish();
}

}  // namespace tvmls::analysis
