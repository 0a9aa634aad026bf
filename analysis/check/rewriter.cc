// invalid-rewriter: an `@R.rewriter` class that TVM parses as an IRModule and then rejects in
// PatternMatchingRewriter::FromModule (src/relax/ir/dataflow_expr_rewriter.cc, both eras):
//  - no function `pattern` / `replacement` (KeyError), or one that is not a Relax function
//    (TypeError);
//  - another function that is publicly exposed (ValueError): TVM gives every function of a
//    module a "global_symbol" unless it is `private=True`;
//  - `pattern` and `replacement` of different signatures (ValueError: their FuncStructInfo must
//    be structurally equal).
//
// Invariants:
//  - All errors, at absolute ranges (a module-level check, asked for by the analyzer while it
//    puts a rewriter's functions together, like DuplicateModuleFunction).
//  - "Missing" only when nothing at the class level takes the name (an undecorated method or a
//    macro named `pattern` is not a Relax function, but tvmls does not claim it is absent).
//  - Signatures differ only when proved from what is written, whatever the symbolic variables
//    are: parameter counts; then per parameter (and for two return annotations) a different
//    kind, dtype, ndim, tuple size or a different literal dim or prim value. Symbolic dims are
//    never compared: each function defines its own variables, and structural equality maps them.
//  - Ranges: the class name (missing); the function's name (not a Relax function, public); the
//    replacement's parameter, else its name (signature), with the pattern's as related.
#include <algorithm>

#include "check/check.h"

namespace tvmls::analysis::check {
namespace {

using types::Kind;
using types::StructInfo;

const char* KindName(Kind k) {
  switch (k) {
    case Kind::kObject: return "Object";
    case Kind::kTensor: return "Tensor";
    case Kind::kShape: return "Shape";
    case Kind::kTuple: return "Tuple";
    case Kind::kPrim: return "Prim";
    case Kind::kCallable: return "Callable";
    case Kind::kUnknown: break;
  }
  return "unknown";
}

// Why `a` and `b` cannot be structurally equal, from what they say whatever their symbolic
// variables are; "" when that is not proved.
std::string Differ(const StructInfo& a, const StructInfo& b) {
  if (a.IsUnknown() || b.IsUnknown()) return "";
  if (a.kind != b.kind) return std::string(KindName(a.kind)) + " vs " + KindName(b.kind);
  switch (a.kind) {
    case Kind::kTensor:
    case Kind::kShape: {
      if (a.kind == Kind::kTensor && !a.dtype.empty() && !b.dtype.empty() && a.dtype != b.dtype) {
        return "dtype " + a.dtype + " vs " + b.dtype;
      }
      if (a.ndim >= 0 && b.ndim >= 0 && a.ndim != b.ndim) {
        return "ndim " + std::to_string(a.ndim) + " vs " + std::to_string(b.ndim);
      }
      if (!a.values || !b.values || a.values->size() != b.values->size()) return "";
      for (size_t i = 0; i < a.values->size(); ++i) {
        auto x = (*a.values)[i].AsConst(), y = (*b.values)[i].AsConst();
        if (x && y && *x != *y) {
          return "dim " + std::to_string(i) + ": " + std::to_string(*x) + " vs " + std::to_string(*y);
        }
      }
      return "";
    }
    case Kind::kPrim: {
      if (!a.dtype.empty() && !b.dtype.empty() && a.dtype != b.dtype) return "dtype " + a.dtype + " vs " + b.dtype;
      auto x = a.prim_value ? a.prim_value->AsConst() : std::nullopt;
      auto y = b.prim_value ? b.prim_value->AsConst() : std::nullopt;
      if (x && y && *x != *y) return "value " + std::to_string(*x) + " vs " + std::to_string(*y);
      return "";
    }
    case Kind::kTuple: {
      if (a.fields.size() != b.fields.size()) {
        return "fields " + std::to_string(a.fields.size()) + " vs " + std::to_string(b.fields.size());
      }
      for (size_t i = 0; i < a.fields.size(); ++i) {
        std::string why = Differ(a.fields[i], b.fields[i]);
        if (!why.empty()) return "field " + std::to_string(i) + ": " + why;
      }
      return "";
    }
    default:
      return "";
  }
}

const FunctionRef* Find(const ModuleModel& m, const std::string& name) {
  for (const FunctionRef& r : m.functions) {
    if (r.fn->name == name) return &r;
  }
  return nullptr;
}

TextRange NameOf(const FunctionRef& r) { return Absolute(r, r.fn->name_range); }

// The parameter's name in the definition (absolute), else the function's name.
TextRange ParamOf(const FunctionRef& r, const std::string& param) {
  for (const Symbol& s : r.fn->symbols) {
    if (s.kind == Symbol::Kind::kRelaxParam && s.name == param) return Absolute(r, s.definition);
  }
  return NameOf(r);
}

Diagnostic Error(TextRange range, std::string message) {
  Diagnostic d;
  d.range = range;
  d.severity = Severity::kError;
  d.code = "invalid-rewriter";
  d.message = std::move(message);
  return d;
}

std::string Quote(const std::string& s) { return "`" + s + "`"; }

}  // namespace

std::vector<Diagnostic> RewriterModule(const ModuleModel& m, const std::set<std::string>& other_definitions,
                                       const types::PrintOptions& print) {
  std::vector<Diagnostic> out;
  const FunctionRef* roles[2] = {nullptr, nullptr};
  const char* const kRoles[2] = {"pattern", "replacement"};
  const char* const kWhat[2] = {"the pattern to be matched", "the replacement to be made on a successful match"};
  for (int i = 0; i < 2; ++i) {
    const std::string role = kRoles[i];
    const FunctionRef* f = Find(m, role);
    if (f == nullptr) {
      if (other_definitions.count(role) == 0 && m.extern_globals.count(role) == 0) {
        out.push_back(Error(m.name_range, "rewriter " + Quote(m.name) + " has no " + Quote(role) +
                                              " function: R.rewriter needs a Relax function " + Quote(role) +
                                              ", " + kWhat[i] + " (TVM: KeyError)"));
      }
    } else if (f->fn->kind != FunctionModel::Kind::kRelax) {
      out.push_back(Error(NameOf(*f), Quote(role) + " of rewriter " + Quote(m.name) +
                                          " is a PrimFunc but must be a Relax function (@R.function) (TVM: TypeError)"));
    } else {
      roles[i] = f;
    }
  }
  for (const FunctionRef& r : m.functions) {
    if (r.fn->name == kRoles[0] || r.fn->name == kRoles[1] || r.fn->is_private) continue;
    out.push_back(Error(NameOf(r), "function " + Quote(r.fn->name) + " of rewriter " + Quote(m.name) +
                                       " is publicly exposed; a rewriter's functions other than `pattern` and "
                                       "`replacement` must be `private=True` (TVM: ValueError)"));
  }
  const FunctionRef* p = roles[0];
  const FunctionRef* r = roles[1];
  if (p == nullptr || r == nullptr || p->has_syntax_error || r->has_syntax_error) return out;
  const RelaxSignature& ps = p->fn->relax;
  const RelaxSignature& rs = r->fn->relax;
  const std::string same = "the pattern and replacement of a rewriter must have the same signature (TVM: ValueError)";
  if (ps.params.size() != rs.params.size()) {
    Diagnostic d = Error(NameOf(*r), "`replacement` takes " + std::to_string(rs.params.size()) + " parameter" +
                                         (rs.params.size() == 1 ? "" : "s") + " but `pattern` takes " +
                                         std::to_string(ps.params.size()) + "; " + same);
    d.related.push_back({NameOf(*p), "the pattern"});
    out.push_back(std::move(d));
    return out;
  }
  for (size_t i = 0; i < ps.params.size() && i < ps.param_names.size() && i < rs.param_names.size(); ++i) {
    std::string why = Differ(rs.params[i], ps.params[i]);
    if (why.empty()) continue;
    Diagnostic d = Error(ParamOf(*r, rs.param_names[i]),
                         "parameter " + std::to_string(i) + " of `replacement` is " + types::Print(rs.params[i], print) +
                             " but the pattern's is " + types::Print(ps.params[i], print) + " (" + why + "); " + same);
    d.related.push_back({ParamOf(*p, ps.param_names[i]), "the pattern's parameter"});
    out.push_back(std::move(d));
  }
  std::string why = Differ(rs.ret, ps.ret);
  if (!why.empty()) {
    Diagnostic d = Error(NameOf(*r), "`replacement` returns " + types::Print(rs.ret, print) + " but `pattern` returns " +
                                         types::Print(ps.ret, print) + " (" + why + "); " + same);
    d.related.push_back({NameOf(*p), "the pattern"});
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace tvmls::analysis::check
