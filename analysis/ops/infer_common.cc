// Shared inference machinery: argument access, broadcasting, dtype and axis rules, layouts.
#include "ops/infer_common.h"

#include <algorithm>
#include <set>

namespace tvmls::ops {

namespace {

const arith::Facts& NoFacts() {
  static const arith::Facts facts;
  return facts;
}

const ArgValue& AbsentArg() {
  static const ArgValue absent;
  return absent;
}

constexpr int64_t kSmallLimit = int64_t{1} << 31;

const char* KindName(types::Kind kind) {
  switch (kind) {
    case types::Kind::kUnknown:
      return "unknown";
    case types::Kind::kObject:
      return "an object";
    case types::Kind::kTensor:
      return "a tensor";
    case types::Kind::kShape:
      return "a shape";
    case types::Kind::kTuple:
      return "a tuple";
    case types::Kind::kPrim:
      return "a primitive value";
    case types::Kind::kCallable:
      return "a function";
  }
  return "unknown";
}

}  // namespace

Call::Call(const std::vector<ArgValue>& args, const InferContext& ctx)
    : args_(args), facts_(ctx.facts ? ctx.facts : &NoFacts()) {}

const ArgValue& Call::Arg(size_t i) const { return i < args_.size() ? args_[i] : AbsentArg(); }

const StructInfo* Call::Tensor(size_t i, const char* what) {
  const StructInfo& info = Info(i);
  if (info.kind == types::Kind::kTensor) return &info;
  if (info.kind != types::Kind::kUnknown) {
    std::string name = what ? what : "argument " + std::to_string(i);
    Error(static_cast<int>(i),
          name + " must be a tensor, but got " + KindName(info.kind) + " (" + Describe(i) + ")");
  }
  return nullptr;
}

void Call::Error(int param, std::string message) { errors_.push_back({param, std::move(message)}); }

InferResult Call::Done(StructInfo info) {
  InferResult result;
  result.info = errors_.empty() ? std::move(info) : StructInfo::Unknown();
  result.errors = std::move(errors_);
  errors_.clear();
  return result;
}

std::string Call::Describe(size_t i) const {
  const StructInfo& info = Info(i);
  if (info.IsUnknown()) return "unknown";
  return types::Print(info);
}

// ---- Struct info helpers ------------------------------------------------------------------

StructInfo MakeTensor(const std::optional<std::vector<arith::Expr>>& shape, int ndim,
                      const std::string& dtype, const std::string& vdevice) {
  StructInfo out = shape ? StructInfo::Tensor(*shape, dtype) : StructInfo::TensorNdim(ndim, dtype);
  out.vdevice = vdevice;
  return out;
}

std::string DimsText(const std::vector<arith::Expr>& dims) { return types::PrintShape(dims); }

bool ProvablyEqual(const Call& call, const arith::Expr& a, const arith::Expr& b) {
  return call.Facts().ProveEqual(a, b) == arith::Tri::kProved;
}

bool ProvablyDifferent(const Call& call, const arith::Expr& a, const arith::Expr& b) {
  return call.Facts().ProveEqual(a, b) == arith::Tri::kDisproved;
}

arith::Expr Product(const std::vector<arith::Expr>& dims) {
  arith::Expr out = 1;
  for (const arith::Expr& d : dims) out = out * d;
  return out;
}

arith::Expr CeilDiv(const arith::Expr& a, const arith::Expr& b) {
  return arith::Expr::FloorDiv(a + b - 1, b);
}

// ---- Attributes ---------------------------------------------------------------------------

std::optional<int64_t> SmallInt(const Literal& literal) {
  auto v = literal.AsInt();
  if (!v || *v >= kSmallLimit || *v <= -kSmallLimit) return std::nullopt;
  return v;
}

std::optional<std::vector<int64_t>> SmallIntList(const Literal& literal, bool allow_scalar) {
  auto list = literal.AsIntList(allow_scalar);
  if (!list) return std::nullopt;
  for (int64_t v : *list) {
    if (v >= kSmallLimit || v <= -kSmallLimit) return std::nullopt;
  }
  return list;
}

std::optional<std::string> DTypeAttr(const Literal& literal) {
  // The printer writes out_dtype="void" for "not given".
  if (literal.kind != Literal::Kind::kString || literal.string_value.empty() ||
      literal.string_value == "void") {
    return std::nullopt;
  }
  return literal.string_value;
}

std::optional<std::vector<int>> NormalizeAxes(Call& call, int param, int ndim,
                                              const std::vector<int64_t>& axes) {
  std::vector<int> out;
  std::vector<bool> seen(static_cast<size_t>(std::max(ndim, 0)), false);
  for (int64_t axis : axes) {
    if (axis < -ndim || axis >= ndim) {
      call.Error(param, "axis " + std::to_string(axis) + " is out of range for a tensor of ndim " +
                            std::to_string(ndim) + " (valid: [" + std::to_string(-ndim) + ", " +
                            std::to_string(ndim) + "))");
      return std::nullopt;
    }
    int normalized = static_cast<int>(axis < 0 ? axis + ndim : axis);
    if (seen[static_cast<size_t>(normalized)]) {
      call.Error(param, "axis " + std::to_string(normalized) + " appears more than once");
      return std::nullopt;
    }
    seen[static_cast<size_t>(normalized)] = true;
    out.push_back(normalized);
  }
  return out;
}

std::optional<int> NormalizeAxis(Call& call, int param, int ndim, int64_t axis) {
  auto axes = NormalizeAxes(call, param, ndim, {axis});
  if (!axes) return std::nullopt;
  return (*axes)[0];
}

namespace {

const char* LiteralKindName(Literal::Kind kind) {
  switch (kind) {
    case Literal::Kind::kFloat:
      return "a float";
    case Literal::Kind::kList:
      return "a list";
    default:
      return "a value";
  }
}

}  // namespace

std::optional<ShapeArg> GetShapeArg(Call& call, size_t param) {
  const ArgValue& arg = call.Arg(param);
  if (arg.literal.kind == Literal::Kind::kList) {
    // TVM's ShapeExpr holds integer PrimExprs only: a float (a FloatImm) or a nested list fails.
    for (const Literal& item : arg.literal.items) {
      if (item.kind == Literal::Kind::kFloat || item.kind == Literal::Kind::kList) {
        call.Error(static_cast<int>(param), "shape values must be integers, but got " +
                                                std::string(LiteralKindName(item.kind)));
        return std::nullopt;
      }
    }
    ShapeArg out;
    out.ndim = static_cast<int>(arg.literal.items.size());
    out.dims = arg.literal.AsExprList();
    return out;
  }
  const StructInfo& info = arg.info;
  if (info.kind == types::Kind::kShape) {
    ShapeArg out;
    out.var = arg.var;
    out.ndim = info.ndim;
    if (info.values) {
      out.dims = *info.values;
      out.ndim = static_cast<int>(info.values->size());
    }
    return out;
  }
  if (info.kind != types::Kind::kUnknown) {
    call.Error(static_cast<int>(param), "expects a shape, but got " +
                                            std::string(KindName(info.kind)) + " (" +
                                            call.Describe(param) + ")");
  }
  return std::nullopt;
}

StructInfo ShapedTensor(const ShapeArg& shape, const std::string& dtype,
                        const std::string& vdevice) {
  if (shape.var.empty()) return MakeTensor(shape.dims, shape.ndim, dtype, vdevice);
  StructInfo out = MakeTensor(std::nullopt, shape.ndim, dtype, vdevice);
  out.shape_var = shape.var;
  return out;
}

// ---- Shared rules -------------------------------------------------------------------------

Broadcast BroadcastShapes(const Call& call, const std::vector<arith::Expr>& a,
                          const std::vector<arith::Expr>& b) {
  Broadcast out;
  size_t n = std::max(a.size(), b.size());
  out.dims.resize(n);
  for (size_t i = 0; i < n; ++i) {
    // Aligned from the right: position i of the output, counted from the end.
    size_t k = n - 1 - i;
    bool has_a = i < a.size(), has_b = i < b.size();
    if (!has_a || !has_b) {
      out.dims[k] = has_a ? a[a.size() - 1 - i] : b[b.size() - 1 - i];
      continue;
    }
    const arith::Expr& da = a[a.size() - 1 - i];
    const arith::Expr& db = b[b.size() - 1 - i];
    auto ca = da.AsConst(), cb = db.AsConst();
    if (ca && *ca == 1) {
      out.dims[k] = db;
    } else if (cb && *cb == 1) {
      out.dims[k] = da;
    } else if (ProvablyEqual(call, da, db)) {
      out.dims[k] = da;
    } else if (ca && cb) {
      out.status = Broadcast::Status::kConflict;
      out.conflict = "dims " + da.ToString() + " and " + db.ToString() + " are not broadcastable";
      return out;
    } else {
      out.status = Broadcast::Status::kUnknown;
    }
  }
  return out;
}

std::optional<std::string> ArithDType(Call& call, int param, const std::string& lhs,
                                      const std::string& rhs, const std::string& what) {
  if (lhs.empty() || rhs.empty()) return std::string();
  if (lhs != rhs && lhs != "bool" && rhs != "bool") {
    call.Error(param, "dtypes " + lhs + " and " + rhs + " differ; " + what +
                          " requires the same dtype (no implicit promotion)");
    return std::nullopt;
  }
  return lhs;
}

namespace {

std::string NormalizeVDevice(const std::string& v) {
  if (v.empty() || v.find(':') != std::string::npos) return v;
  return v + ":0";
}

}  // namespace

std::optional<std::string> BinaryVDevice(Call& call, int param, const std::string& lhs,
                                         const std::string& rhs) {
  if (lhs.empty()) return rhs;
  if (rhs.empty()) return lhs;
  // "vdevice:3" names an entry of the module's vdevice list by position; which device that is
  // (maybe the very one "cuda:1" names) is not known here.
  if (lhs.rfind("vdevice:", 0) == 0 || rhs.rfind("vdevice:", 0) == 0) return std::string();
  if (NormalizeVDevice(lhs) != NormalizeVDevice(rhs)) {
    call.Error(param,
               "operands are on different virtual devices (\"" + lhs + "\" and \"" + rhs + "\")");
    return std::nullopt;
  }
  return lhs;
}

std::optional<Layout> ParseLayout(Call& call, int param, const Literal& literal,
                                  const std::string& canonical) {
  auto text = literal.AsString();
  if (!text) return std::nullopt;
  Layout out;
  out.text = *text;
  std::vector<char> primal;  // user dims' primal letters, in order ('\0' for sub-axes)
  std::string sub_letters;
  const std::string& s = *text;
  bool ok = true;
  for (size_t i = 0; i < s.size() && ok;) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') {
      primal.push_back(c);
      out.letters.push_back(c);
      out.factors.push_back(0);
      ++i;
    } else if (c >= '0' && c <= '9') {
      size_t j = i;
      while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
      if (j >= s.size() || !(s[j] >= 'a' && s[j] <= 'z') || j - i > 9) {
        ok = false;
        break;
      }
      sub_letters.push_back(static_cast<char>(s[j] - 'a' + 'A'));
      primal.push_back('\0');
      out.letters.push_back(static_cast<char>(s[j] - 'a' + 'A'));
      out.factors.push_back(std::stoll(s.substr(i, j - i)));
      out.has_subaxes = true;
      i = j + 1;
    } else {
      ok = false;
    }
  }
  if (ok) {
    std::string sorted_user;
    for (char c : primal) {
      if (c) sorted_user.push_back(c);
    }
    std::string sorted_canonical = canonical;
    std::sort(sorted_user.begin(), sorted_user.end());
    std::sort(sorted_canonical.begin(), sorted_canonical.end());
    ok = sorted_user == sorted_canonical &&
         std::adjacent_find(sorted_user.begin(), sorted_user.end()) == sorted_user.end();
    for (char c : sub_letters) {
      if (sorted_user.find(c) == std::string::npos) ok = false;
    }
  }
  if (!ok) {
    call.Error(param, "layout \"" + s + "\" cannot be converted to " + canonical);
    return std::nullopt;
  }
  out.ndim = static_cast<int>(primal.size());
  for (char c : canonical) {
    auto it = std::find(primal.begin(), primal.end(), c);
    out.canonical_to_user.push_back(static_cast<int>(it - primal.begin()));
  }
  return out;
}

namespace {

// The product of the sub-axis factors of canonical axis `letter` in `layout` (1 when none; an
// overflowing product is arith::Expr::Overflow()).
arith::Expr SubFactor(const Layout& layout, char letter) {
  arith::Expr product = 1;
  for (size_t j = 0; j < layout.letters.size(); ++j) {
    if (layout.factors[j] > 0 && layout.letters[j] == letter) product = product * layout.factors[j];
  }
  return product;
}

}  // namespace

std::vector<arith::Expr> LayoutToCanonical(const std::vector<arith::Expr>& dims, const Layout& layout) {
  std::vector<arith::Expr> out;
  for (int pos : layout.canonical_to_user) {
    size_t p = static_cast<size_t>(pos);
    out.push_back(dims[p] * SubFactor(layout, layout.letters[p]));
  }
  return out;
}

std::vector<arith::Expr> CanonicalToLayout(const std::vector<arith::Expr>& canonical, const Layout& layout) {
  std::vector<arith::Expr> out(static_cast<size_t>(layout.ndim));
  for (size_t i = 0; i < canonical.size(); ++i) {
    size_t p = static_cast<size_t>(layout.canonical_to_user[i]);
    out[p] = arith::Expr::FloorDiv(canonical[i], SubFactor(layout, layout.letters[p]));
  }
  for (size_t j = 0; j < out.size(); ++j) {
    if (layout.factors[j] > 0) out[j] = layout.factors[j];
  }
  return out;
}

}  // namespace tvmls::ops
