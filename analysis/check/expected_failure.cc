#include "check/expected_failure.h"

#include <algorithm>
#include <set>

#include "model/syntax_util.h"

namespace tvmls::analysis {

const char* const kExpectedFailureNote = "this test expects TVM to reject this code";

namespace {

// The last part of a call's dotted function name (`raises` of `pytest.raises`), or "".
std::string CalleeName(TSNode call, std::string_view text) {
  if (!Is(call, "call")) return "";
  std::optional<std::vector<std::string>> path = DottedPath(Field(call, "function"), text);
  return path && !path->empty() ? path->back() : "";
}

bool HasPart(TSNode expr, std::string_view text, std::string_view part) {
  TSNode target = Is(expr, "call") ? Field(expr, "function") : expr;
  std::optional<std::vector<std::string>> path = DottedPath(target, text);
  if (!path) return false;
  for (const std::string& p : *path) {
    if (p == part) return true;
  }
  return false;
}

// `check_well_formed=False` among the decorators of a decorated_definition.
std::optional<ExpectedFailure> NotWellFormedDecorator(TSNode decorated, std::string_view text) {
  for (TSNode dec : NamedChildren(decorated)) {
    if (!Is(dec, "decorator")) continue;
    TSNode call = Field(dec, "value");
    if (!Is(call, "call")) continue;
    TSNode keyword = Keyword(ArgsOf(call, text), "check_well_formed");
    if (!ts_node_is_null(keyword) && Is(keyword, "false")) {
      TSNode arg = ts_node_parent(keyword);
      return ExpectedFailure{RangeOf(Is(arg, "keyword_argument") ? arg : keyword),
                             "check_well_formed=False"};
    }
  }
  return std::nullopt;
}

// The `....raises(...)` call of a with_statement, or a null node.
TSNode RaisesItem(TSNode with, std::string_view text) {
  TSNode items = Field(with, "items");
  if (ts_node_is_null(items)) return TSNode{};
  for (TSNode item : NamedChildren(items)) {
    TSNode value = Field(item, "value");
    if (Is(value, "as_pattern")) value = NamedChildren(value).empty() ? TSNode{} : NamedChildren(value)[0];
    if (!ts_node_is_null(value) && CalleeName(value, text) == "raises") return value;
  }
  return TSNode{};
}

bool NamesIdentifier(TSNode root, std::string_view text, std::string_view name) {
  bool found = false;
  ForEachNode(root, [&](TSNode n) {
    if (found) return false;
    if (Is(n, "identifier") && TextOf(n, text) == name) found = true;
    return !found;
  });
  return found;
}

// In the body of the Python function `fn`: `assert not ...well_formed(name, ...)`, or a
// `with ....raises(...)` after `after` whose body names `name`.
std::optional<ExpectedFailure> RejectedInBody(TSNode fn, std::string_view text,
                                              std::string_view name, uint32_t after) {
  TSNode body = Field(fn, "body");
  if (ts_node_is_null(body)) return std::nullopt;
  std::optional<ExpectedFailure> result;
  ForEachNode(body, [&](TSNode n) {
    if (result) return false;
    // Nested functions and classes have their own tests.
    if (Is(n, "function_definition") || Is(n, "class_definition")) return false;
    if (Is(n, "assert_statement")) {
      TSNode cond = Unparen(Field(n, "condition"));
      if (Is(cond, "not_operator")) {
        TSNode call = Unparen(Field(cond, "argument"));
        std::string callee = CalleeName(call, text);
        CallArgs args = ArgsOf(call, text);
        bool well_formed = callee.size() >= 11 &&
                           callee.compare(callee.size() - 11, 11, "well_formed") == 0;
        if (well_formed &&
            !args.positional.empty() && Is(args.positional[0], "identifier") &&
            TextOf(args.positional[0], text) == name) {
          result = ExpectedFailure{RangeOf(n), "assert not well_formed"};
        }
      }
      return false;
    }
    if (Is(n, "with_statement") && ts_node_start_byte(n) >= after) {
      TSNode raises = RaisesItem(n, text);
      if (!ts_node_is_null(raises) && NamesIdentifier(Field(n, "body"), text, name)) {
        result = ExpectedFailure{RangeOf(raises), "pytest.raises"};
        return false;
      }
    }
    return true;
  });
  return result;
}

}  // namespace

std::optional<ExpectedFailure> ExpectedFailureOf(TSNode unit, std::string_view text,
                                                 std::string_view name) {
  TSNode def = unit;
  TSNode parent = ts_node_parent(def);
  if (!Is(def, "decorated_definition") && Is(parent, "decorated_definition")) def = parent;
  if (Is(def, "decorated_definition")) {
    if (auto found = NotWellFormedDecorator(def, text)) return found;
  }
  bool nearest_function = true;
  for (TSNode n = ts_node_parent(def); !ts_node_is_null(n); n = ts_node_parent(n)) {
    if (Is(n, "with_statement")) {
      TSNode raises = RaisesItem(n, text);
      if (!ts_node_is_null(raises)) return ExpectedFailure{RangeOf(raises), "pytest.raises"};
    }
    if (!Is(n, "function_definition")) continue;
    if (nearest_function) {
      nearest_function = false;
      if (auto found = RejectedInBody(n, text, name, ts_node_end_byte(def))) return found;
    }
    TSNode decorated = ts_node_parent(n);
    if (!Is(decorated, "decorated_definition")) continue;
    for (TSNode dec : NamedChildren(decorated)) {
      if (Is(dec, "decorator") && HasPart(Field(dec, "value"), text, "xfail")) {
        return ExpectedFailure{RangeOf(dec), "xfail"};
      }
    }
  }
  return std::nullopt;
}

namespace {

// Collects uses in `node`'s subtree; `expecting` is true inside an expected-failure context,
// `function` the outermost Python function around the node ("" outside any). The names are views
// into `text`, gathered first and made strings once each (this walk visits every node of every
// test function: it was ~10% of `tvmls check` with a string per identifier).
void CollectUses(TSNode node, std::string_view text, bool expecting, std::string_view function,
                 std::set<std::pair<std::string, std::string>>* expect_uses,
                 std::set<std::string>* plain_uses) {
  // An explicit stack instead of recursion: statements nest deeply in generated tests.
  struct Item {
    TSNode node;
    bool expecting;
    std::string_view function;
  };
  std::vector<std::pair<std::string_view, std::string_view>> expecting_found;
  std::vector<std::string_view> plain_found;
  std::vector<Item> stack{{node, expecting, function}};
  std::vector<TSNode> kids;
  while (!stack.empty()) {
    Item item = stack.back();
    stack.pop_back();
    TSNode n = item.node;
    if (Is(n, "identifier")) {
      std::string_view name = TextOf(n, text);
      if (item.expecting) expecting_found.emplace_back(name, item.function);
      else plain_found.push_back(name);
      continue;
    }
    // `x.name` and `f(name=...)`: the names are not uses (children are skipped here rather than
    // asking each identifier for its parent, which tree-sitter finds by walking from the root).
    TSNode not_a_use{};
    if (Is(n, "attribute")) not_a_use = Field(n, "attribute");
    else if (Is(n, "keyword_argument")) not_a_use = Field(n, "name");
    bool inner_expecting = item.expecting;
    std::string_view inner_function = item.function;
    if (Is(n, "function_definition") && inner_function.empty()) inner_function = TextOf(Field(n, "name"), text);
    if (Is(n, "decorated_definition")) {
      for (TSNode dec : NamedChildren(n)) {
        if (Is(dec, "decorator") && HasPart(Field(dec, "value"), text, "xfail")) inner_expecting = true;
      }
    }
    TSNode raises_body{};
    if (Is(n, "with_statement") && !ts_node_is_null(RaisesItem(n, text))) raises_body = Field(n, "body");
    NamedChildren(n, &kids);  // in order, in one pass (ts_node_named_child(i) walks from the start)
    for (size_t i = kids.size(); i-- > 0;) {
      TSNode child = kids[i];
      if (!ts_node_is_null(not_a_use) && ts_node_eq(child, not_a_use)) continue;
      bool in_raises = !ts_node_is_null(raises_body) && ts_node_eq(child, raises_body);
      stack.push_back({child, inner_expecting || in_raises, inner_function});
    }
  }
  std::sort(plain_found.begin(), plain_found.end());
  plain_found.erase(std::unique(plain_found.begin(), plain_found.end()), plain_found.end());
  for (std::string_view name : plain_found) plain_uses->emplace(name);
  std::sort(expecting_found.begin(), expecting_found.end());
  expecting_found.erase(std::unique(expecting_found.begin(), expecting_found.end()), expecting_found.end());
  for (const auto& [name, fn] : expecting_found) expect_uses->emplace(std::string(name), std::string(fn));
}

}  // namespace

void CollectNameUses(TSNode stmt, std::string_view text, NameUses* out) {
  std::set<std::pair<std::string, std::string>> expect_uses;
  std::set<std::string> plain_uses;
  CollectUses(stmt, text, false, std::string_view(), &expect_uses, &plain_uses);
  out->expecting.assign(expect_uses.begin(), expect_uses.end());
  out->plain.assign(plain_uses.begin(), plain_uses.end());
}

std::optional<ExpectedFailure> ExpectedFailureByUse(TextRange name_range,
                                                    const std::vector<std::string>& expecting_functions,
                                                    int plain_uses) {
  if (expecting_functions.empty() || plain_uses > 0) return std::nullopt;
  std::string where;
  for (const std::string& f : expecting_functions) {
    if (f.empty()) continue;
    where += (where.empty() ? "" : ", ") + f;
  }
  return ExpectedFailure{name_range, "used only where tests expect failure" +
                                         (where.empty() ? std::string() : ": " + where)};
}

void MarkExpectedFailure(const ExpectedFailure& why, TextRange unit_range,
                         std::vector<Diagnostic>* diagnostics) {
  for (Diagnostic& d : *diagnostics) {
    if (d.code == "syntax-error") continue;
    if (d.severity != Severity::kError && d.severity != Severity::kWarning) continue;
    if (d.range.begin < unit_range.begin || d.range.end > unit_range.end) continue;
    d.severity = Severity::kInformation;
    d.related.push_back({why.marker, std::string(kExpectedFailureNote) + " (" + why.why + ")"});
  }
}

}  // namespace tvmls::analysis
