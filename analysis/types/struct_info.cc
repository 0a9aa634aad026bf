// StructInfo: constructors, printing, TVM's base check and LCA. (Dtypes: vocab/dtype.h.)
#include "types/struct_info.h"

#include <algorithm>
#include <utility>

namespace tvmls::types {

using arith::Expr;
using arith::Facts;
using arith::Tri;

// ---------------------------------------------------------------------------------------------
// Constructors and traversals

StructInfo StructInfo::Unknown() { return StructInfo(); }

StructInfo StructInfo::Object() {
  StructInfo s;
  s.kind = Kind::kObject;
  return s;
}

StructInfo StructInfo::Void() { return Tuple({}); }

StructInfo StructInfo::Tensor(std::vector<Expr> shape, std::string dtype) {
  StructInfo s;
  s.kind = Kind::kTensor;
  s.ndim = static_cast<int>(shape.size());
  s.values = std::move(shape);
  s.dtype = std::move(dtype);
  return s;
}

StructInfo StructInfo::TensorNdim(int ndim, std::string dtype) {
  StructInfo s;
  s.kind = Kind::kTensor;
  s.ndim = ndim < 0 ? -1 : ndim;
  s.dtype = std::move(dtype);
  return s;
}

StructInfo StructInfo::Shape(std::vector<Expr> values) {
  StructInfo s;
  s.kind = Kind::kShape;
  s.ndim = static_cast<int>(values.size());
  s.values = std::move(values);
  return s;
}

StructInfo StructInfo::ShapeNdim(int ndim) {
  StructInfo s;
  s.kind = Kind::kShape;
  s.ndim = ndim < 0 ? -1 : ndim;
  return s;
}

StructInfo StructInfo::Tuple(std::vector<StructInfo> fields) {
  StructInfo s;
  s.kind = Kind::kTuple;
  s.fields = std::move(fields);
  return s;
}

StructInfo StructInfo::Prim(std::string dtype) {
  StructInfo s;
  s.kind = Kind::kPrim;
  s.dtype = std::move(dtype);
  return s;
}

StructInfo StructInfo::Callable(std::optional<std::vector<StructInfo>> params, StructInfo ret,
                                bool pure) {
  StructInfo s;
  s.kind = Kind::kCallable;
  s.params = std::move(params);
  s.ret = std::make_shared<StructInfo>(std::move(ret));
  s.pure = pure;
  return s;
}

void StructInfo::CollectVars(std::set<std::string>* out) const {
  if (values) {
    for (const Expr& e : *values) e.CollectVars(out);
  }
  if (prim_value) prim_value->CollectVars(out);
  for (const StructInfo& f : fields) f.CollectVars(out);
  if (params) {
    for (const StructInfo& p : *params) p.CollectVars(out);
  }
  if (ret) ret->CollectVars(out);
}

StructInfo StructInfo::Substitute(const std::map<std::string, Expr>& map) const {
  StructInfo out = *this;
  if (map.empty()) return out;
  if (out.values) {
    for (Expr& e : *out.values) e = e.Substitute(map);
  }
  if (out.prim_value) out.prim_value = out.prim_value->Substitute(map);
  for (StructInfo& f : out.fields) f = f.Substitute(map);
  if (out.params) {
    for (StructInfo& p : *out.params) p = p.Substitute(map);
  }
  if (out.ret) out.ret = std::make_shared<StructInfo>(out.ret->Substitute(map));
  return out;
}

namespace {

bool MentionsOnly(const Expr& e, const std::set<std::string>& keep) {
  std::set<std::string> vars;
  e.CollectVars(&vars);
  return std::all_of(vars.begin(), vars.end(),
                     [&](const std::string& v) { return keep.count(v) != 0; });
}

}  // namespace

StructInfo StructInfo::EraseVarsNotIn(const std::set<std::string>& keep) const {
  // Callables define their own parameter variables and are kept as they are.
  if (kind == Kind::kCallable) return *this;
  StructInfo out = *this;
  if (out.values && !std::all_of(out.values->begin(), out.values->end(),
                                 [&](const Expr& e) { return MentionsOnly(e, keep); })) {
    out.values.reset();  // ndim stays
  }
  if (out.prim_value && !MentionsOnly(*out.prim_value, keep)) out.prim_value.reset();
  for (StructInfo& f : out.fields) f = f.EraseVarsNotIn(keep);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Printing

namespace {

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += ", ";
    out += parts[i];
  }
  return out;
}

std::string Quote(const std::string& s) { return "\"" + s + "\""; }

std::string Call(const std::string& name, const std::vector<std::string>& args) {
  return args.empty() ? name : name + "(" + Join(args) + ")";
}

}  // namespace

std::string PrintShape(const std::vector<Expr>& dims) {
  std::vector<std::string> parts;
  for (const Expr& e : dims) parts.push_back(e.ToString());
  return "(" + Join(parts) + (parts.size() == 1 ? ",)" : ")");
}

namespace {

// A nested value: kUnknown is spelled as the top type so the result stays valid TVMScript.
std::string PrintNested(const StructInfo& info, const PrintOptions& options) {
  return Print(info.IsUnknown() ? StructInfo::Object() : info, options);
}

}  // namespace

bool HasOpaque(const std::vector<arith::Expr>& dims) {
  for (const arith::Expr& e : dims) {
    for (const auto& t : e.Terms()) {
      for (const auto& a : t.atoms) {
        if (a.kind == arith::Atom::Kind::kOpaque) return true;
      }
    }
  }
  return false;
}

bool FullyKnown(const StructInfo& s) {
  switch (s.kind) {
    case Kind::kUnknown: return false;
    case Kind::kTensor: return s.values.has_value() && !s.dtype.empty() && !HasOpaque(*s.values);
    case Kind::kShape: return s.values.has_value() && !HasOpaque(*s.values);
    case Kind::kTuple:
      for (const StructInfo& f : s.fields) {
        if (!FullyKnown(f)) return false;
      }
      return true;
    case Kind::kPrim: return !s.dtype.empty();
    case Kind::kObject: return true;
    case Kind::kCallable: return false;
  }
  return false;
}

std::string Print(const StructInfo& info, const PrintOptions& options) {
  switch (info.kind) {
    case Kind::kUnknown:
      return "";
    case Kind::kObject:
      return options.current_era ? "R.Any" : "R.Object";
    case Kind::kTensor: {
      std::vector<std::string> args;
      if (info.values) {
        args.push_back(PrintShape(*info.values));
      } else if (!info.shape_var.empty()) {
        args.push_back(info.shape_var);
      }
      if (!info.dtype.empty()) args.push_back("dtype=" + Quote(info.dtype));
      if (!info.values && info.shape_var.empty() && info.ndim >= 0) {
        args.push_back("ndim=" + std::to_string(info.ndim));
      }
      if (!info.vdevice.empty()) args.push_back("vdevice=" + Quote(info.vdevice));
      return Call("R.Tensor", args);
    }
    case Kind::kShape: {
      if (!info.values) return "R.Shape(ndim=" + std::to_string(info.ndim) + ")";
      std::vector<std::string> parts;
      for (const Expr& e : *info.values) parts.push_back(e.ToString());
      return "R.Shape([" + Join(parts) + "])";
    }
    case Kind::kTuple: {
      std::vector<std::string> parts;
      for (const StructInfo& f : info.fields) parts.push_back(PrintNested(f, options));
      return Call("R.Tuple", parts);
    }
    case Kind::kPrim:
      if (info.prim_value) return "R.Prim(value=" + info.prim_value->ToString() + ")";
      return info.dtype.empty() ? "R.Prim" : "R.Prim(" + Quote(info.dtype) + ")";
    case Kind::kCallable: {
      std::string ret = PrintNested(info.ret ? *info.ret : StructInfo::Unknown(), options);
      if (!info.params) {
        // Opaque: keyword arguments, `ret` only when it says more than Object, `purity` when pure.
        std::vector<std::string> kwargs;
        if (info.ret && info.ret->kind != Kind::kObject && !info.ret->IsUnknown()) {
          kwargs.push_back("ret=" + ret);
        }
        if (info.pure) kwargs.push_back("purity=True");
        return "R.Callable(" + Join(kwargs) + ")";
      }
      std::vector<std::string> parts;
      for (const StructInfo& p : *info.params) parts.push_back(PrintNested(p, options));
      std::string tuple = "(" + Join(parts) + (parts.size() == 1 ? ",)" : ")");
      return "R.Callable(" + tuple + ", " + ret + ", " + (info.pure ? "True" : "False") + ")";
    }
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// Base check (TVM's TypeBaseChecker)

namespace {

const char* KindName(Kind kind) {
  switch (kind) {
    case Kind::kUnknown:
      return "unknown";
    case Kind::kObject:
      return "Object";
    case Kind::kTensor:
      return "Tensor";
    case Kind::kShape:
      return "Shape";
    case Kind::kTuple:
      return "Tuple";
    case Kind::kPrim:
      return "Prim";
    case Kind::kCallable:
      return "Callable";
  }
  return "unknown";
}

BaseCheckDetail Fail(BaseCheck result, std::string reason, int dim = -1) {
  BaseCheckDetail d;
  d.result = result;
  d.reason = std::move(reason);
  d.dim = dim;
  return d;
}

BaseCheckDetail Pass() { return BaseCheckDetail(); }

bool Worse(BaseCheck a, BaseCheck b) { return static_cast<int>(a) > static_cast<int>(b); }

std::string Known(const std::string& s) { return s.empty() ? "unknown" : s; }
std::string NdimString(int ndim) { return ndim < 0 ? "unknown" : std::to_string(ndim); }

// One value (a dim or a prim value): literals compare exactly, otherwise the prover decides.
BaseCheck ValueCheck(const Expr& base, const Expr& derived, const Facts& facts) {
  std::optional<int64_t> cb = base.AsConst(), cd = derived.AsConst();
  if (cb && cd) return *cb == *cd ? BaseCheck::kPass : BaseCheck::kFailL0;
  switch (facts.ProveEqual(base, derived)) {
    case Tri::kProved:
      return BaseCheck::kPass;
    case Tri::kDisproved:
      return BaseCheck::kFailL0;
    case Tri::kUnknown:
      return BaseCheck::kFailL2;
  }
  return BaseCheck::kFailL2;
}

BaseCheckDetail ValuesCheck(const std::vector<Expr>& base, const std::vector<Expr>& derived,
                            const Facts& facts) {
  if (base.size() != derived.size()) {
    return Fail(BaseCheck::kFailL0,
                "ndim " + std::to_string(base.size()) + " vs " + std::to_string(derived.size()));
  }
  BaseCheckDetail worst;
  for (size_t i = 0; i < base.size(); ++i) {
    BaseCheck r = ValueCheck(base[i], derived[i], facts);
    if (!Worse(r, worst.result)) continue;
    int dim = static_cast<int>(i);
    worst = Fail(
        r, "dim " + std::to_string(i) + ": " + base[i].ToString() + " vs " + derived[i].ToString(),
        dim);
    if (r == BaseCheck::kFailL0) break;
  }
  return worst;
}

// Shapes of two tensors: values, a shape variable, or nothing.
BaseCheckDetail TensorShapeCheck(const StructInfo& base, const StructInfo& derived,
                                 const Facts& facts) {
  bool base_has = base.values || !base.shape_var.empty();
  bool derived_has = derived.values || !derived.shape_var.empty();
  if (!base_has) return Pass();
  std::string base_text = base.values ? PrintShape(*base.values) : base.shape_var;
  if (!derived_has) return Fail(BaseCheck::kFailL2, "shape " + base_text + " vs unknown");
  if (!base.shape_var.empty() && base.shape_var == derived.shape_var) return Pass();
  if (base.values && derived.values) return ValuesCheck(*base.values, *derived.values, facts);
  std::string derived_text = derived.values ? PrintShape(*derived.values) : derived.shape_var;
  return Fail(BaseCheck::kFailL2, "shape " + base_text + " vs " + derived_text);
}

BaseCheckDetail Check(const StructInfo& base, const StructInfo& derived, const Facts& facts);

// Fieldwise check of two lists: length mismatch is L0, otherwise the worst field.
BaseCheckDetail ListCheck(const std::vector<StructInfo>& base,
                          const std::vector<StructInfo>& derived, const Facts& facts,
                          const char* what, bool path) {
  if (base.size() != derived.size()) {
    return Fail(BaseCheck::kFailL0, std::string(what) + " " + std::to_string(base.size()) + " vs " +
                                        std::to_string(derived.size()));
  }
  BaseCheckDetail worst;
  for (size_t i = 0; i < base.size(); ++i) {
    BaseCheckDetail d = Check(base[i], derived[i], facts);
    if (!Worse(d.result, worst.result)) continue;
    if (path) {
      d.field_path.insert(d.field_path.begin(), static_cast<int>(i));
    } else {
      d.reason = "param " + std::to_string(i) + ": " + d.reason;
    }
    worst = std::move(d);
    if (worst.result == BaseCheck::kFailL0) break;
  }
  return worst;
}

BaseCheckDetail TensorCheck(const StructInfo& base, const StructInfo& derived, const Facts& facts) {
  if (!base.dtype.empty() && base.dtype != derived.dtype) {
    return Fail(derived.dtype.empty() ? BaseCheck::kFailL1 : BaseCheck::kFailL0,
                "dtype " + base.dtype + " vs " + Known(derived.dtype));
  }
  if (base.ndim >= 0 && base.ndim != derived.ndim) {
    return Fail(derived.ndim < 0 ? BaseCheck::kFailL1 : BaseCheck::kFailL0,
                "ndim " + NdimString(base.ndim) + " vs " + NdimString(derived.ndim));
  }
  if (!base.vdevice.empty() && base.vdevice != derived.vdevice) {
    return Fail(
        derived.vdevice.empty() ? BaseCheck::kFailL1 : BaseCheck::kFailL0,
        "vdevice " + base.vdevice + " vs " + (derived.vdevice.empty() ? "none" : derived.vdevice));
  }
  return TensorShapeCheck(base, derived, facts);
}

BaseCheckDetail ShapeCheck(const StructInfo& base, const StructInfo& derived, const Facts& facts) {
  if (base.ndim < 0) return Pass();
  if (base.ndim != derived.ndim) {
    return Fail(derived.ndim < 0 ? BaseCheck::kFailL1 : BaseCheck::kFailL0,
                "ndim " + NdimString(base.ndim) + " vs " + NdimString(derived.ndim));
  }
  if (!base.values) return Pass();
  if (!derived.values)
    return Fail(BaseCheck::kFailL2, "values " + PrintShape(*base.values) + " vs unknown");
  return ValuesCheck(*base.values, *derived.values, facts);
}

BaseCheckDetail PrimCheck(const StructInfo& base, const StructInfo& derived, const Facts& facts) {
  if (!base.dtype.empty() && base.dtype != derived.dtype) {
    return Fail(derived.dtype.empty() ? BaseCheck::kFailL1 : BaseCheck::kFailL0,
                "dtype " + base.dtype + " vs " + Known(derived.dtype));
  }
  if (!base.prim_value) return Pass();
  if (!derived.prim_value) {
    return Fail(BaseCheck::kFailL2, "value " + base.prim_value->ToString() + " vs unknown");
  }
  BaseCheck r = ValueCheck(*base.prim_value, *derived.prim_value, facts);
  if (r == BaseCheck::kPass) return Pass();
  return Fail(r, "value " + base.prim_value->ToString() + " vs " + derived.prim_value->ToString());
}

BaseCheckDetail RetCheck(const StructInfo& base, const StructInfo& derived, const Facts& facts) {
  if (!base.ret || !derived.ret) return Pass();
  BaseCheckDetail d = Check(*base.ret, *derived.ret, facts);
  if (d.result != BaseCheck::kPass) d.reason = "ret: " + d.reason;
  return d;
}

BaseCheckDetail CallableCheck(const StructInfo& base, const StructInfo& derived,
                              const Facts& facts) {
  if (base.pure && !derived.pure) return Fail(BaseCheck::kFailL0, "purity: pure vs impure");
  if (!base.params) return RetCheck(base, derived, facts);
  if (!derived.params) return Fail(BaseCheck::kFailL2, "params vs opaque params");
  BaseCheckDetail params = ListCheck(*base.params, *derived.params, facts, "params", false);
  if (params.result == BaseCheck::kFailL1) params.result = BaseCheck::kFailL2;
  BaseCheckDetail ret = RetCheck(base, derived, facts);
  return Worse(ret.result, params.result) ? ret : params;
}

BaseCheckDetail Check(const StructInfo& base, const StructInfo& derived, const Facts& facts) {
  if (base.IsUnknown() || derived.IsUnknown()) return Pass();
  if (base.kind == Kind::kObject) return Pass();
  if (base.kind != derived.kind) {
    BaseCheck r = derived.kind == Kind::kObject ? BaseCheck::kFailL1 : BaseCheck::kFailL0;
    return Fail(r, std::string(KindName(base.kind)) + " vs " + KindName(derived.kind));
  }
  switch (base.kind) {
    case Kind::kTensor:
      return TensorCheck(base, derived, facts);
    case Kind::kShape:
      return ShapeCheck(base, derived, facts);
    case Kind::kPrim:
      return PrimCheck(base, derived, facts);
    case Kind::kTuple:
      return ListCheck(base.fields, derived.fields, facts, "fields", true);
    case Kind::kCallable:
      return CallableCheck(base, derived, facts);
    case Kind::kUnknown:
    case Kind::kObject:
      break;
  }
  return Pass();
}

}  // namespace

BaseCheckDetail CheckBase(const StructInfo& base, const StructInfo& derived, const Facts& facts) {
  return Check(base, derived, facts);
}

// ---------------------------------------------------------------------------------------------
// Join (TVM's TypeLCA)

namespace {

bool ValuesProvablyEqual(const std::vector<Expr>& a, const std::vector<Expr>& b,
                         const Facts& facts) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (facts.ProveEqual(a[i], b[i]) != Tri::kProved) return false;
  }
  return true;
}

bool SameInfo(const StructInfo& a, const StructInfo& b) {
  return Print(a) == Print(b) && a.kind == b.kind;
}

}  // namespace

StructInfo Join(const StructInfo& a, const StructInfo& b, const Facts& facts) {
  if (a.IsUnknown() || b.IsUnknown()) return StructInfo::Unknown();
  if (a.kind != b.kind || a.kind == Kind::kObject) return StructInfo::Object();
  switch (a.kind) {
    case Kind::kTensor: {
      StructInfo out =
          StructInfo::TensorNdim(a.ndim == b.ndim ? a.ndim : -1, a.dtype == b.dtype ? a.dtype : "");
      out.vdevice = a.vdevice == b.vdevice ? a.vdevice : "";
      if (a.ndim != b.ndim) return out;
      if (!a.shape_var.empty() && a.shape_var == b.shape_var) {
        out.shape_var = a.shape_var;
      } else if (a.values && b.values && ValuesProvablyEqual(*a.values, *b.values, facts)) {
        out.values = a.values;
      }
      return out;
    }
    case Kind::kShape: {
      if (a.ndim != b.ndim) return StructInfo::ShapeNdim(-1);
      if (a.values && b.values && ValuesProvablyEqual(*a.values, *b.values, facts)) return a;
      return StructInfo::ShapeNdim(a.ndim);
    }
    case Kind::kPrim: {
      if (a.dtype != b.dtype) return StructInfo::Object();
      StructInfo out = StructInfo::Prim(a.dtype);
      if (a.prim_value && b.prim_value &&
          facts.ProveEqual(*a.prim_value, *b.prim_value) == Tri::kProved) {
        out.prim_value = a.prim_value;
      }
      return out;
    }
    case Kind::kTuple: {
      if (a.fields.size() != b.fields.size()) return StructInfo::Object();
      std::vector<StructInfo> fields;
      for (size_t i = 0; i < a.fields.size(); ++i)
        fields.push_back(Join(a.fields[i], b.fields[i], facts));
      return StructInfo::Tuple(std::move(fields));
    }
    case Kind::kCallable: {
      bool pure = a.pure && b.pure;
      StructInfo ret = a.ret && b.ret ? Join(*a.ret, *b.ret, facts) : StructInfo::Unknown();
      bool same_params =
          a.params && b.params && a.params->size() == b.params->size() &&
          std::equal(a.params->begin(), a.params->end(), b.params->begin(), SameInfo);
      StructInfo out = StructInfo::Callable(same_params ? a.params : std::nullopt, ret, pure);
      if (ret.IsUnknown()) out.ret = nullptr;
      return out;
    }
    case Kind::kUnknown:
    case Kind::kObject:
      break;
  }
  return StructInfo::Object();
}

}  // namespace tvmls::types
