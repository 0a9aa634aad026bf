// The `T.` names of a function (PrimFunc or Relax) against the TIR rows of the name table
// (vocab/script_names.h): hover text for each known name, and events for the checks: a name the
// table lacks for the file's era (check::UnknownOp) and a call whose arguments cannot bind to the
// row's parameters (check::OpCall).
#include <string>
#include <vector>

#include "check/check.h"
#include "model/annotation.h"
#include "model/lower_internal.h"
#include "model/syntax_util.h"
#include "vocab/script_names.h"

namespace tvmls::analysis {

namespace {

using vocab::Dialect;
using vocab::FindScriptName;
using vocab::NameKind;
using vocab::ScriptName;

// Whether some row lies below the namespace `path` ("axis" has "axis.remap"): only then are the
// names under it judged.
bool HasChildren(std::string_view path) {
  for (const ScriptName& n : vocab::AllScriptNames()) {
    std::string_view p(n.path);
    if (n.dialect == Dialect::kTir && p.size() > path.size() && p.substr(0, path.size()) == path &&
        p[path.size()] == '.') {
      return true;
    }
  }
  return false;
}

// "T.exp(x, span=None)" for hover; the path alone when the row takes no call.
std::string SignatureText(const std::string& alias, const ScriptName& n) {
  std::string s = alias + "." + n.path;
  if (n.params != nullptr && n.kind != NameKind::kNamespace) s += std::string("(") + n.params + ")";
  return s;
}

// What the positional and keyword arguments of a call leave wrong for the row's parameters: more
// positional arguments than it takes (without `*args`), or a required parameter bound neither by
// position nor by keyword. Unknown keywords are not judged (TVM's wrappers accept `dtype=`).
std::vector<std::string> ArityProblems(const ScriptName& n, size_t positional,
                                       const std::vector<std::string>& keywords, size_t* surplus_at) {
  std::vector<std::string> out;
  const std::vector<vocab::ParamText>& params = vocab::ParamsOf(n);
  size_t capacity = 0;
  bool var_positional = false;
  for (const vocab::ParamText& p : params) {
    if (p.var_positional) var_positional = true;
    if (p.var_positional || p.var_keyword || p.keyword_only) break;
    ++capacity;
  }
  if (!var_positional && positional > capacity) {
    *surplus_at = capacity;
    out.push_back("takes " + std::to_string(capacity) + " positional argument" + (capacity == 1 ? "" : "s") +
                  " but " + std::to_string(positional) + " were given");
    return out;
  }
  size_t index = 0;
  for (const vocab::ParamText& p : params) {
    const bool by_position = !p.keyword_only && !p.var_positional && !p.var_keyword && index < positional;
    if (!p.var_positional && !p.var_keyword && !p.keyword_only) ++index;
    if (p.has_default || p.var_positional || p.var_keyword || by_position) continue;
    bool by_keyword = false;
    for (const std::string& k : keywords) by_keyword = by_keyword || k == p.name;
    if (!by_keyword) out.push_back("missing required argument '" + p.name + "'");
  }
  return out;
}

class TirNameScan {
 public:
  TirNameScan(TSNode def, std::string_view text, const Aliases& aliases, FunctionModel* fn)
      : def_(def), text_(text), aliases_(aliases), fn_(fn), base_(ts_node_start_byte(def)) {}

  void Run() {
    ForEachNode(def_, [&](TSNode n) { return Visit(n); });
    checks.End();
  }

 private:
  TextRange Rel(TSNode n) const { return {ts_node_start_byte(n) - base_, ts_node_end_byte(n) - base_}; }

  bool Visit(TSNode n) {
    if (Is(n, "call")) {
      TSNode callee = Field(n, "function");
      if (const ScriptName* row = Name(callee)) Arguments(n, callee, *row);
      if (!IsTirPath(callee)) Walk(callee);
      Walk(Field(n, "arguments"));
      return false;
    }
    if (Is(n, "attribute")) {
      if (IsTirPath(n)) {
        Name(n);
      } else {
        Walk(Field(n, "object"));  // the name after the dot is an attribute of a value
      }
      return false;
    }
    return !Is(n, "string");
  }

  void Walk(TSNode n) {
    if (!ts_node_is_null(n)) ForEachNode(n, [&](TSNode k) { return Visit(k); });
  }

  // `T.x` or `T.x.y`: a dotted chain of identifiers rooted at a TIR alias.
  bool IsTirPath(TSNode n) const {
    if (!Is(n, "attribute")) return false;
    auto path = DottedPath(n, text_);
    return path && path->size() >= 2 && IsAlias(aliases_.tir, *path);
  }

  // Judges the name `n` (when it is a TIR path): hover for a known one, unknown-op for the first
  // segment the table lacks. Returns the row of the whole path when it has one.
  const ScriptName* Name(TSNode n) {
    if (!IsTirPath(n)) return nullptr;
    std::vector<std::string> path = *DottedPath(n, text_);
    const std::string& alias = path[0];
    std::string sub;
    const ScriptName* row = nullptr;
    for (size_t i = 1; i < path.size(); ++i) {
      sub += (i > 1 ? "." : "") + path[i];
      row = FindScriptName(Dialect::kTir, sub, aliases_.classic, aliases_.current);
      if (row == nullptr) {
        Unknown(Prefix(n, path.size() - 1 - i), alias + "." + sub);
        return nullptr;
      }
      // Below a row that is not a namespace with described members: attributes of a value.
      if (i + 1 < path.size() && !(row->kind == NameKind::kNamespace && HasChildren(sub))) return nullptr;
    }
    fn_->hovers.push_back({Rel(n), SignatureText(alias, *row), row->doc});
    return row;
  }

  // The attribute `levels` objects inside `n` (`T.ptxx` of `T.ptxx.mma` is 1 level in).
  static TSNode Prefix(TSNode n, size_t levels) {
    for (size_t k = 0; k < levels && Is(n, "attribute"); ++k) n = Field(n, "object");
    return n;
  }

  void Unknown(TSNode n, const std::string& spelling) {
    check::UnknownOp u;
    u.callee_range = Rel(n);
    u.spelling = spelling;
    std::string sub = spelling.substr(spelling.find('.') + 1);
    const ScriptName* any = FindScriptName(Dialect::kTir, sub, true, true);
    if (any != nullptr) {
      u.other_era = any->era == vocab::EraTag::kClassic ? "classic (`tir`)" : "current (`tirx`)";
    }
    checks().Report(&check::Check::OnUnknownOp, u);
  }

  void Arguments(TSNode call, TSNode callee, const ScriptName& row) {
    if (row.params == nullptr || row.kind == NameKind::kNamespace) return;
    CallArgs args = ArgsOf(call, text_);
    if (args.splat) return;  // *xs / **kw: the count is not known
    // TVM's `_dtype_forward` wrappers (T.call_extern, T.reinterpret, ...) pass a `dtype=` keyword
    // on as the first positional argument; for any signature that starts with `dtype` it binds
    // the same parameter either way.
    const std::vector<vocab::ParamText>& params = vocab::ParamsOf(row);
    const bool dtype_first = !params.empty() && params[0].name == "dtype" && !params[0].keyword_only;
    std::vector<std::string> keywords;
    size_t positional = args.positional.size();
    for (const auto& kw : args.keywords) {
      if (dtype_first && kw.first == "dtype") {
        ++positional;
      } else {
        keywords.push_back(kw.first);
      }
    }
    size_t surplus_at = 0;
    std::vector<std::string> problems = ArityProblems(row, positional, keywords, &surplus_at);
    if (positional != args.positional.size()) surplus_at = surplus_at == 0 ? 0 : surplus_at - 1;
    if (problems.empty()) return;
    check::OpCall c;
    c.spelling = std::string(TextOf(callee, text_));
    for (const std::string& p : problems) {
      const bool surplus = p.rfind("takes ", 0) == 0;
      c.argument_problems.push_back({surplus ? Rel(args.positional[surplus_at]) : Rel(callee), p});
    }
    checks().Report(&check::Check::OnOpCall, c);
  }

  TSNode def_;
  std::string_view text_;
  const Aliases& aliases_;
  FunctionModel* fn_;
  uint32_t base_;
  check::LazyChecks checks{fn_};
};

}  // namespace

void LowerTirNames(TSNode def, std::string_view text, const Aliases& aliases, FunctionModel* fn) {
  TirNameScan(def, text, aliases, fn).Run();
}

}  // namespace tvmls::analysis
