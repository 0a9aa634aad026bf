// The registry around the operator table (op_table.cc): FindOp, defaults, argument binding,
// signatures, ops::Infer and the Literal helpers.
#include "ops/registry.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>

#include "ops/infer_common.h"
#include "ops/op_table.h"
#include "vocab/text_scan.h"

namespace tvmls::ops {

// ---- Literal ------------------------------------------------------------------------------

std::optional<int64_t> Literal::AsInt() const {
  if (kind == Kind::kInt) return int_value;
  if (kind == Kind::kExpr) return expr.AsConst();
  return std::nullopt;
}

std::optional<arith::Expr> Literal::AsExpr() const {
  if (kind == Kind::kInt) return arith::Expr(int_value);
  if (kind == Kind::kExpr) return expr;
  return std::nullopt;
}

std::optional<std::vector<arith::Expr>> Literal::AsExprList(bool allow_scalar) const {
  if (kind != Kind::kList) {
    if (!allow_scalar) return std::nullopt;
    auto single = AsExpr();
    if (!single) return std::nullopt;
    return std::vector<arith::Expr>{*single};
  }
  std::vector<arith::Expr> out;
  out.reserve(items.size());
  for (const Literal& item : items) {
    auto e = item.AsExpr();
    if (!e) return std::nullopt;
    out.push_back(*e);
  }
  return out;
}

std::optional<std::vector<int64_t>> Literal::AsIntList(bool allow_scalar) const {
  if (kind != Kind::kList) {
    if (!allow_scalar) return std::nullopt;
    auto single = AsInt();
    if (!single) return std::nullopt;
    return std::vector<int64_t>{*single};
  }
  std::vector<int64_t> out;
  out.reserve(items.size());
  for (const Literal& item : items) {
    auto v = item.AsInt();
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

std::optional<std::string> Literal::AsString() const {
  if (kind == Kind::kString) return string_value;
  return std::nullopt;
}

Literal Literal::None() {
  Literal l;
  l.kind = Kind::kNone;
  return l;
}

Literal Literal::Bool(bool value) {
  Literal l;
  l.kind = Kind::kBool;
  l.bool_value = value;
  return l;
}

Literal Literal::Int(int64_t value) {
  Literal l;
  l.kind = Kind::kInt;
  l.int_value = value;
  l.expr = arith::Expr(value);
  return l;
}

Literal Literal::Float(double value) {
  Literal l;
  l.kind = Kind::kFloat;
  l.float_value = value;
  return l;
}

Literal Literal::String(std::string value) {
  Literal l;
  l.kind = Kind::kString;
  l.string_value = std::move(value);
  return l;
}

Literal Literal::List(std::vector<Literal> items) {
  Literal l;
  l.kind = Kind::kList;
  l.items = std::move(items);
  return l;
}

Literal Literal::FromExpr(arith::Expr expr) {
  if (auto c = expr.AsConst()) return Int(*c);
  Literal l;
  l.kind = Kind::kExpr;
  l.expr = std::move(expr);
  return l;
}

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n')) {
    s.remove_suffix(1);
  }
  return s;
}

// Splits the inside of a bracket at top-level commas (vocab::SplitTopLevel), trimmed; nullopt
// when brackets or quotes do not balance or an item is empty (`(1,,2)`). A trailing comma leaves
// no empty last item; `(1,)` is one item.
std::optional<std::vector<std::string_view>> SplitTopLevel(std::string_view s) {
  vocab::TopLevelSplit split = vocab::SplitTopLevel(s);
  if (!split.balanced) return std::nullopt;
  std::vector<std::string_view> parts;
  for (std::string_view piece : split.pieces) parts.push_back(Trim(piece));
  if (parts.back().empty()) parts.pop_back();
  for (std::string_view part : parts) {
    if (part.empty()) return std::nullopt;
  }
  return parts;
}

bool IsNumberText(std::string_view s) {
  if (s.empty()) return false;
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i >= s.size()) return false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    bool ok = (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+';
    if (!ok) return false;
  }
  return true;
}

bool IsIdentifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

// `lambda a, b: (expr, expr)` / `lambda a: expr`.
std::optional<Literal::Lambda> ParseLambda(std::string_view s) {
  constexpr std::string_view kLambda = "lambda";
  if (s.substr(0, kLambda.size()) != kLambda || s.size() == kLambda.size()) return std::nullopt;
  char after = s[kLambda.size()];
  if (after != ' ' && after != ':') return std::nullopt;
  size_t colon = s.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  Literal::Lambda out;
  std::string_view params = Trim(s.substr(kLambda.size(), colon - kLambda.size()));
  if (!params.empty()) {
    auto names = SplitTopLevel(params);
    if (!names) return std::nullopt;
    for (std::string_view name : *names) {
      if (!IsIdentifier(name)) return std::nullopt;
      out.params.emplace_back(name);
    }
  }
  std::string_view body = Trim(s.substr(colon + 1));
  if (body.empty()) return std::nullopt;
  if ((body.front() == '(' || body.front() == '[') && vocab::MatchingClose(body) == body.size() - 1 &&
      (body.front() == '[' || body.substr(1, body.size() - 2).find(',') != std::string_view::npos)) {
    auto results = SplitTopLevel(body.substr(1, body.size() - 2));
    if (!results) return std::nullopt;
    for (std::string_view r : *results) out.results.emplace_back(r);
  } else {
    out.results.emplace_back(body);
  }
  return out;
}

Literal ParseValue(std::string_view s, int depth) {
  s = Trim(s);
  Literal other;
  if (s.empty() || depth > 32) return other;
  if (s == "None") return Literal::None();
  if (s == "True") return Literal::Bool(true);
  if (s == "False") return Literal::Bool(false);
  if ((s.front() == '\'' || s.front() == '"') && s.size() >= 2 && s.back() == s.front()) {
    std::string_view body = s.substr(1, s.size() - 2);
    if (body.find(s.front()) != std::string_view::npos) return other;
    return Literal::String(std::string(body));
  }
  if ((s.front() == '(' || s.front() == '[') && vocab::MatchingClose(s) == s.size() - 1) {
    auto parts = SplitTopLevel(s.substr(1, s.size() - 2));
    if (!parts) return other;
    // `(x)` without a comma is a parenthesized value, not a tuple.
    if (s.front() == '(' && parts->size() == 1 &&
        s.substr(1, s.size() - 2).find(',') == std::string_view::npos) {
      return ParseValue((*parts)[0], depth + 1);
    }
    std::vector<Literal> items;
    for (std::string_view part : *parts) items.push_back(ParseValue(part, depth + 1));
    return Literal::List(std::move(items));
  }
  constexpr std::string_view kPrimValue = "prim_value(";
  if (s.substr(0, kPrimValue.size()) == kPrimValue && s.back() == ')') {
    return ParseValue(s.substr(kPrimValue.size(), s.size() - kPrimValue.size() - 1), depth + 1);
  }
  if (IsNumberText(s)) {
    std::string text(s);
    bool is_float = text.find_first_of(".eE") != std::string::npos;
    char* end = nullptr;
    errno = 0;
    if (!is_float) {
      long long v = std::strtoll(text.c_str(), &end, 10);
      if (errno == 0 && end == text.c_str() + text.size()) return Literal::Int(v);
      return other;
    }
    double v = std::strtod(text.c_str(), &end);
    if (errno == 0 && end == text.c_str() + text.size()) return Literal::Float(v);
    return other;
  }
  constexpr std::string_view kIndexMap = "T.index_map(";
  if (s.substr(0, kIndexMap.size()) == kIndexMap && s.back() == ')') {
    // T.index_map(lambda i, j: ..., index_dtype=...): the lambda is everything before the
    // keyword arguments (its own parameter list has top-level commas).
    auto parts = SplitTopLevel(s.substr(kIndexMap.size(), s.size() - kIndexMap.size() - 1));
    if (!parts || parts->empty()) return other;
    std::string lambda;
    for (std::string_view part : *parts) {
      size_t eq = part.find('=');
      bool keyword = eq != std::string_view::npos && eq > 0 && IsIdentifier(Trim(part.substr(0, eq))) &&
                     (eq + 1 >= part.size() || part[eq + 1] != '=');
      if (keyword) break;
      if (!lambda.empty()) lambda += ", ";
      lambda += part;
    }
    return ParseValue(lambda, depth + 1);
  }
  if (auto lambda = ParseLambda(s)) {
    other.lambda = std::move(lambda);
    return other;
  }
  if (auto e = arith::ParseExpr(s)) return Literal::FromExpr(*e);
  return other;
}

}  // namespace

Literal ParseLiteral(std::string_view text) { return ParseValue(text, 0); }

bool IsVarPositional(const Param& param) { return param.name[0] == '*' && param.name[1] != '*'; }

bool IsVarKeyword(const Param& param) { return param.name[0] == '*' && param.name[1] == '*'; }

// ---- The table ----------------------------------------------------------------------------

namespace {

// The rows of op_table.cc, their parsed defaults and the script-path index, built once.
struct Tables {
  std::vector<OpInfo> ops = BuildOpTable();
  std::vector<std::vector<Literal>> defaults;  // defaults[row][param]; kOther when required
  std::unordered_map<std::string_view, const OpInfo*> by_path;

  Tables();
};

const Tables& GetTables() {
  static const Tables tables;
  return tables;
}

Tables::Tables() {
  defaults.reserve(ops.size());
  for (const OpInfo& op : ops) {
    std::vector<Literal> row;
    for (const Param& param : op.params) {
      row.push_back(param.default_text ? ParseLiteral(param.default_text) : Literal());
    }
    defaults.push_back(std::move(row));
    if (op.script) by_path.emplace(op.script, &op);
    if (op.current_script) by_path.emplace(op.current_script, &op);
  }
}

}  // namespace

const std::vector<OpInfo>& AllOps() { return GetTables().ops; }

bool HasInference(const OpInfo& op) { return op.infer != nullptr && op.infer != InferUnknown; }

const OpInfo* FindOp(std::string_view path) {
  const auto& by_path = GetTables().by_path;
  auto it = by_path.find(path);
  return it == by_path.end() ? nullptr : it->second;
}

Literal DefaultOf(const OpInfo& op, size_t index) {
  const Tables& tables = GetTables();
  if (index >= op.params.size()) return Literal();
  const OpInfo* first = tables.ops.data();
  if (&op >= first && &op < first + tables.ops.size()) {
    return tables.defaults[static_cast<size_t>(&op - first)][index];
  }
  const char* text = op.params[index].default_text;
  return text ? ParseLiteral(text) : Literal();
}

// ---- Binding ------------------------------------------------------------------------------

namespace {

bool NameMatches(const Param& param, std::string_view keyword) {
  if (IsVarPositional(param) || IsVarKeyword(param)) return false;
  return keyword == param.name || (param.classic_name && keyword == param.classic_name);
}

}  // namespace

Binding BindArguments(const OpInfo& op, int positional, const std::vector<std::string>& keywords,
                      bool has_splat) {
  Binding binding;
  const size_t n = op.params.size();
  binding.arg_of_param.assign(n, -1);
  auto problem = [&](int arg, std::string message) {
    if (!has_splat) binding.problems.push_back({arg, std::move(message)});
  };

  // Positional arguments fill the parameters before the first `*args` / keyword-only one.
  size_t next = 0;
  int positional_capacity = 0;
  for (const Param& param : op.params) {
    if (IsVarPositional(param) || IsVarKeyword(param) || param.keyword_only) break;
    ++positional_capacity;
  }
  for (int arg = 0; arg < positional; ++arg) {
    while (next < n && IsVarKeyword(op.params[next])) ++next;
    if (next < n && IsVarPositional(op.params[next])) {
      if (binding.rest_args.empty()) binding.arg_of_param[next] = arg;
      binding.rest_args.push_back(arg);
      continue;
    }
    if (next >= n || op.params[next].keyword_only) {
      problem(arg, "takes " + std::to_string(positional_capacity) + " positional argument" +
                       (positional_capacity == 1 ? "" : "s") + " but " +
                       std::to_string(positional) + " were given");
      break;
    }
    binding.arg_of_param[next++] = arg;
  }

  int var_keyword = -1;
  for (size_t i = 0; i < n; ++i) {
    if (IsVarKeyword(op.params[i])) var_keyword = static_cast<int>(i);
  }
  for (size_t k = 0; k < keywords.size(); ++k) {
    int arg = positional + static_cast<int>(k);
    const std::string& keyword = keywords[k];
    int found = -1;
    for (size_t i = 0; i < n; ++i) {
      if (NameMatches(op.params[i], keyword)) {
        found = static_cast<int>(i);
        break;
      }
    }
    if (found < 0) {
      if (var_keyword >= 0) {
        if (binding.extra_keywords.empty()) binding.arg_of_param[var_keyword] = arg;
        binding.extra_keywords.push_back(arg);
      } else {
        problem(arg, "unexpected keyword argument '" + keyword + "'");
      }
      continue;
    }
    if (binding.arg_of_param[found] >= 0) {
      problem(arg, std::string("got multiple values for argument '") + op.params[found].name + "'");
      continue;
    }
    binding.arg_of_param[found] = arg;
  }

  for (size_t i = 0; i < n; ++i) {
    const Param& param = op.params[i];
    if (param.default_text || IsVarPositional(param) || IsVarKeyword(param)) continue;
    if (binding.arg_of_param[i] < 0) {
      problem(-1, std::string("missing required argument '") + param.name + "'");
    }
  }
  return binding;
}

std::string Signature(const OpInfo& op, bool current_era) {
  std::string out;
  if (op.script) {
    out = "R.";
    out += (current_era && op.current_script) ? op.current_script : op.script;
  } else {
    out = op.name;
  }
  out += "(";
  bool first = true;
  bool star_written = false;
  for (const Param& param : op.params) {
    if (current_era && param.classic_only) continue;
    if (!first) out += ", ";
    first = false;
    if (IsVarPositional(param)) star_written = true;
    if (param.keyword_only && !star_written) {
      out += "*, ";
      star_written = true;
    }
    out += (!current_era && param.classic_name) ? param.classic_name : param.name;
    if (param.default_text) {
      out += "=";
      out += param.default_text;
    }
  }
  out += ")";
  return out;
}

namespace {

// A literal that is provably no integer: a float or a string (a bool converts to an Integer;
// kOther and symbolic values may be integers).
bool IsNonInteger(const Literal& literal) {
  return literal.kind == Literal::Kind::kFloat || literal.kind == Literal::Kind::kString;
}

// TVM converts `axis`/`axes` attributes to Integer / Array<Integer>: a float or string there (or
// a nested list) fails when the call is built. The first such value, else nullopt.
std::optional<std::string> BadAxisValue(const Literal& literal) {
  auto spell = [](const Literal& l) -> std::string {
    if (l.kind == Literal::Kind::kFloat) {
      std::ostringstream os;
      os << l.float_value;
      return os.str();
    }
    if (l.kind == Literal::Kind::kString) return "\"" + l.string_value + "\"";
    return "a list";
  };
  if (IsNonInteger(literal)) return spell(literal);
  if (literal.kind != Literal::Kind::kList) return std::nullopt;
  for (const Literal& item : literal.items) {
    if (IsNonInteger(item) || item.kind == Literal::Kind::kList) return spell(item);
  }
  return std::nullopt;
}

}  // namespace

InferResult Infer(const OpInfo& op, std::vector<ArgValue> args, const InferContext& ctx) {
  if (args.size() < op.params.size()) args.resize(op.params.size());
  for (size_t i = 0; i < op.params.size(); ++i) {
    ArgValue& arg = args[i];
    if (!arg.present && arg.literal.kind == Literal::Kind::kOther) arg.literal = DefaultOf(op, i);
  }
  if (!op.infer) return {types::StructInfo::Unknown(), {}};
  for (size_t i = 0; i < op.params.size(); ++i) {
    std::string_view name = op.params[i].name;
    if (!args[i].present || (name != "axis" && name != "axes")) continue;
    // An `axis` whose default is an integer (softmax's -1, concat's 0) is one Integer in TVM.
    const char* default_text = op.params[i].default_text;
    bool single = name == "axis" && default_text != nullptr &&
                  DefaultOf(op, i).kind == Literal::Kind::kInt;
    if (single && args[i].literal.kind == Literal::Kind::kList) {
      return {types::StructInfo::Unknown(),
              {InferError{static_cast<int>(i), "axis takes one integer, but got a list"}}};
    }
    if (auto bad = BadAxisValue(args[i].literal)) {
      return {types::StructInfo::Unknown(),
              {InferError{static_cast<int>(i), std::string(name) + " takes integers, but got " + *bad}}};
    }
  }
  return op.infer(op, args, ctx);
}

}  // namespace tvmls::ops
