// Test-only parsing of op inference rows: struct info in printer syntax, argument lists and
// keyword arguments. Header-only so every ops test can include it.
//
// Struct info: `R.Tensor((2, n * 2), "float32")`, `R.Tensor((2, 3), dtype="f32",
// vdevice="cuda:0")`, `R.Tensor("float32")`, `R.Tensor(dtype="float32", ndim=2)`, `R.Tensor(s,
// "float32", ndim=2)` (shape var s), `R.Tensor`, `R.Shape([1, n])`, `R.Shape(ndim=3)`,
// `R.Prim("int64")`, `R.Prim("int64", value=n)`, `R.Object`, `R.Any`, `R.Tuple(a, b)`, `R.Tuple()`.
// Argument values: struct info; `R.shape([...])` (a Shape value with its literal list);
// `R.prim_value(3)` (an int64 Prim with its literal); a parenthesized tuple of struct info
// (`(R.Tensor(...), R.Tensor(...))`, a Relax tuple); `[R.Tensor(...), ...]` (for annotation
// parameters: a list of annotations); anything else is an ops::ParseLiteral literal.
#ifndef TVMLS_TESTS_OPS_ROW_PARSER_H_
#define TVMLS_TESTS_OPS_ROW_PARSER_H_

#include <cctype>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "arith/expr.h"
#include "ops/registry.h"
#include "types/struct_info.h"
#include "vocab/text_scan.h"

namespace tvmls::testing::ops_rows {

inline std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

/// Splits at top-level occurrences of `sep` (outside brackets and quotes: vocab::SplitTopLevel),
/// trimmed; a trailing empty item is dropped.
inline std::vector<std::string_view> SplitTop(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (std::string_view piece : vocab::SplitTopLevel(s, sep).pieces) out.push_back(Trim(piece));
  if (out.back().empty()) out.pop_back();
  return out;
}

/// `name=value` at top level (not `==`); returns the name and sets *value.
inline std::optional<std::string> KeywordOf(std::string_view item, std::string_view* value) {
  size_t i = 0;
  while (i < item.size() && (std::isalnum(static_cast<unsigned char>(item[i])) || item[i] == '_')) {
    ++i;
  }
  if (i == 0 || i >= item.size() || item[i] != '=' || (i + 1 < item.size() && item[i + 1] == '=')) {
    return std::nullopt;
  }
  *value = Trim(item.substr(i + 1));
  return std::string(item.substr(0, i));
}

inline bool StartsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

/// The inside of `Name(...)` when `s` is exactly that call; nullopt otherwise.
inline std::optional<std::string_view> CallBody(std::string_view s, std::string_view name) {
  if (!StartsWith(s, name) || s.size() < name.size() + 2 || s[name.size()] != '(' ||
      s.back() != ')') {
    return std::nullopt;
  }
  return s.substr(name.size() + 1, s.size() - name.size() - 2);
}

inline std::optional<std::string> Unquote(std::string_view s) {
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) {
    return std::string(s.substr(1, s.size() - 2));
  }
  return std::nullopt;
}

inline std::optional<std::vector<arith::Expr>> ParseDims(std::string_view s) {
  if (s.size() < 2 ||
      !((s.front() == '(' && s.back() == ')') || (s.front() == '[' && s.back() == ']'))) {
    return std::nullopt;
  }
  std::vector<arith::Expr> dims;
  for (std::string_view item : SplitTop(s.substr(1, s.size() - 2), ',')) {
    if (auto quoted = Unquote(item)) item = *quoted;
    auto e = arith::ParseExpr(item);
    if (!e) return std::nullopt;
    dims.push_back(*e);
  }
  return dims;
}

inline bool IsIdentifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

/// Struct info in printer syntax; nullopt when `s` is not one.
inline std::optional<types::StructInfo> ParseStructInfo(std::string_view s) {
  using types::StructInfo;
  s = Trim(s);
  if (s == "R.Object" || s == "R.Any") return StructInfo::Object();
  if (s == "R.Tensor" || s == "R.Tensor()") return StructInfo::TensorNdim(-1, "");
  if (s == "R.Shape" || s == "R.Shape()") return StructInfo::ShapeNdim(-1);
  if (s == "R.Tuple" || s == "R.Tuple()") return StructInfo::Void();
  if (auto body = CallBody(s, "R.Tensor")) {
    StructInfo out = StructInfo::TensorNdim(-1, "");
    bool first = true;
    for (std::string_view item : SplitTop(*body, ',')) {
      std::string_view value;
      if (auto kw = KeywordOf(item, &value)) {
        if (*kw == "dtype") {
          auto d = Unquote(value);
          if (!d) return std::nullopt;
          out.dtype = *d;
        } else if (*kw == "ndim") {
          out.ndim = std::stoi(std::string(value));
        } else if (*kw == "vdevice") {
          auto v = Unquote(value);
          if (!v) return std::nullopt;
          out.vdevice = *v;
        } else if (*kw == "shape") {
          auto dims = ParseDims(value);
          if (!dims) return std::nullopt;
          out.values = dims;
          out.ndim = static_cast<int>(dims->size());
        } else {
          return std::nullopt;
        }
      } else if (auto quoted = Unquote(item)) {
        out.dtype = *quoted;
      } else if (first && IsIdentifier(item)) {
        out.shape_var = std::string(item);
      } else if (first) {
        auto dims = ParseDims(item);
        if (!dims) return std::nullopt;
        out.values = dims;
        out.ndim = static_cast<int>(dims->size());
      } else {
        return std::nullopt;
      }
      first = false;
    }
    return out;
  }
  if (auto body = CallBody(s, "R.Shape")) {
    StructInfo out = StructInfo::ShapeNdim(-1);
    for (std::string_view item : SplitTop(*body, ',')) {
      std::string_view value;
      if (auto kw = KeywordOf(item, &value)) {
        if (*kw != "ndim") return std::nullopt;
        out.ndim = std::stoi(std::string(value));
      } else {
        auto dims = ParseDims(item);
        if (!dims) return std::nullopt;
        out = StructInfo::Shape(*dims);
      }
    }
    return out;
  }
  if (auto body = CallBody(s, "R.Prim")) {
    StructInfo out = StructInfo::Prim("");
    for (std::string_view item : SplitTop(*body, ',')) {
      std::string_view value;
      if (auto kw = KeywordOf(item, &value)) {
        if (*kw == "value") {
          auto e = arith::ParseExpr(Unquote(value).value_or(std::string(value)));
          if (!e) return std::nullopt;
          out.prim_value = *e;
          if (out.dtype.empty()) out.dtype = "int64";
        } else if (*kw == "dtype") {
          out.dtype = Unquote(value).value_or("");
        } else {
          return std::nullopt;
        }
      } else if (auto quoted = Unquote(item)) {
        out.dtype = *quoted;
      } else {
        return std::nullopt;
      }
    }
    return out;
  }
  if (auto body = CallBody(s, "R.Tuple")) {
    std::vector<StructInfo> fields;
    for (std::string_view item : SplitTop(*body, ',')) {
      auto field = ParseStructInfo(item);
      if (!field) return std::nullopt;
      fields.push_back(*field);
    }
    return StructInfo::Tuple(fields);
  }
  return std::nullopt;
}

/// One argument value of a row, before it is bound to a parameter.
struct RowArg {
  std::optional<std::string> keyword;
  ops::ArgValue value;
  /// A list or tuple of struct info: becomes an annotation list for annotation parameters.
  bool info_list = false;
  /// Written as struct info (`R.Shape([2, 3])`, `R.Tensor(...)`): the value of a variable, the
  /// parameter `a<i>` of the function a row becomes (i: the argument's position in the row).
  bool variable = false;
  std::vector<types::StructInfo> items;
};

/// Parses one argument; nullopt when it cannot be read.
inline std::optional<RowArg> ParseArg(std::string_view text) {
  RowArg arg;
  std::string_view value = Trim(text);
  if (auto kw = KeywordOf(value, &value)) arg.keyword = *kw;
  ops::ArgValue& v = arg.value;
  v.present = true;
  if (auto body = CallBody(value, "R.shape")) {
    v.literal = ops::ParseLiteral(*body);
    if (v.literal.kind != ops::Literal::Kind::kList) return std::nullopt;
    auto dims = v.literal.AsExprList();
    v.info = dims ? types::StructInfo::Shape(*dims)
                  : types::StructInfo::ShapeNdim(static_cast<int>(v.literal.items.size()));
    return arg;
  }
  if (auto body = CallBody(value, "R.prim_value")) {
    v.literal = ops::ParseLiteral(*body);
    v.info = types::StructInfo::Prim("int64");
    v.info.prim_value = v.literal.AsExpr();
    return arg;
  }
  if (auto body = CallBody(value, "R.dtype")) {
    v.literal = ops::ParseLiteral(*body);
    v.info = types::StructInfo::Object();
    return arg;
  }
  if (auto info = ParseStructInfo(value)) {
    v.info = *info;
    v.annotation = *info;
    arg.variable = true;
    return arg;
  }
  if (value.size() >= 2 && (value.front() == '(' || value.front() == '[') &&
      StartsWith(Trim(value.substr(1)), "R.")) {
    for (std::string_view item : SplitTop(value.substr(1, value.size() - 2), ',')) {
      auto info = ParseStructInfo(item);
      if (!info) return std::nullopt;
      arg.items.push_back(*info);
    }
    arg.info_list = true;
    v.info = types::StructInfo::Tuple(arg.items);
    v.annotation = v.info;
    v.literal.kind = ops::Literal::Kind::kList;
    v.literal.items.resize(arg.items.size());
    return arg;
  }
  v.literal = ops::ParseLiteral(value);
  if (v.literal.kind != ops::Literal::Kind::kOther || v.literal.lambda) return arg;
  // A dotted name (`cls.f`): a value tvmls knows nothing about.
  bool dotted = !value.empty();
  for (char c : value)
    dotted = dotted && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.');
  if (!dotted) return std::nullopt;
  return arg;
}

/// Every variable of the struct info values and literal expressions of `args`.
inline void CollectVars(const ops::Literal& lit, std::set<std::string>* out) {
  if (lit.kind == ops::Literal::Kind::kExpr) lit.expr.CollectVars(out);
  for (const ops::Literal& item : lit.items) CollectVars(item, out);
}

inline void CollectVars(const types::StructInfo& info, std::set<std::string>* out) {
  if (info.values) {
    for (const arith::Expr& e : *info.values) e.CollectVars(out);
  }
  if (info.prim_value) info.prim_value->CollectVars(out);
  for (const types::StructInfo& f : info.fields) CollectVars(f, out);
}

}  // namespace tvmls::testing::ops_rows

#endif  // TVMLS_TESTS_OPS_ROW_PARSER_H_
