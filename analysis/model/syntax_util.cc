#include "model/syntax_util.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <mutex>

namespace tvmls::analysis {

namespace {

// One cursor per thread for the child lists below, reset for each call: a cursor made per call
// cost a heap allocation for its stack every time (the lists are asked for on most nodes).
// Neither list calls out while it iterates, so the cursor is never in use twice.
class ReusedCursor {
 public:
  ~ReusedCursor() {
    if (made_) ts_tree_cursor_delete(&cursor_);
  }
  TSTreeCursor* At(TSNode n) {
    if (made_) {
      ts_tree_cursor_reset(&cursor_, n);
    } else {
      cursor_ = ts_tree_cursor_new(n);
      made_ = true;
    }
    return &cursor_;
  }

 private:
  TSTreeCursor cursor_{};
  bool made_ = false;
};

thread_local ReusedCursor reused_cursor;

// The grammar's field names by length, for FieldId.
struct FieldTable {
  const TSLanguage* language = nullptr;
  std::vector<std::pair<std::string_view, TSFieldId>> fields;
};

thread_local FieldTable field_table;

}  // namespace

thread_local SymbolNameTable symbol_name_table{nullptr, nullptr, 0};

void LoadSymbolNames(const TSLanguage* language) {
  static std::mutex mutex;
  static std::map<const TSLanguage*, std::vector<const char*>> tables;  // never freed: threads point into it
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, made] = tables.try_emplace(language);
  if (made) {
    const uint32_t count = ts_language_symbol_count(language);
    for (uint32_t id = 0; id < count; ++id) {
      it->second.push_back(ts_language_symbol_name(language, static_cast<TSSymbol>(id)));
    }
  }
  symbol_name_table = {language, it->second.data(), static_cast<uint32_t>(it->second.size())};
}

TSFieldId FieldId(const TSLanguage* language, const char* name) {
  if (field_table.language != language) {
    field_table.language = language;
    field_table.fields.clear();
    const uint32_t count = ts_language_field_count(language);
    for (uint32_t id = 1; id <= count; ++id) {
      if (const char* f = ts_language_field_name_for_id(language, static_cast<TSFieldId>(id))) {
        field_table.fields.emplace_back(f, static_cast<TSFieldId>(id));
      }
    }
  }
  const std::string_view wanted(name);
  for (const auto& [f, id] : field_table.fields) {
    if (f.size() == wanted.size() && f[0] == wanted[0] && f == wanted) return id;
  }
  return 0;
}

void NamedChildren(TSNode n, std::vector<TSNode>* out) {
  out->clear();
  if (ts_node_is_null(n)) return;
  out->reserve(ts_node_named_child_count(n));
  TSTreeCursor* cursor = reused_cursor.At(n);
  if (ts_tree_cursor_goto_first_child(cursor)) {
    do {
      TSNode c = ts_tree_cursor_current_node(cursor);
      if (ts_node_is_named(c)) out->push_back(c);
    } while (ts_tree_cursor_goto_next_sibling(cursor));
  }
}

std::vector<TSNode> NamedChildren(TSNode n) {
  std::vector<TSNode> out;
  NamedChildren(n, &out);
  return out;
}

std::vector<TSNode> Children(TSNode n) {
  std::vector<TSNode> out;
  if (ts_node_is_null(n)) return out;
  out.reserve(ts_node_child_count(n));
  TSTreeCursor* cursor = reused_cursor.At(n);
  if (ts_tree_cursor_goto_first_child(cursor)) {
    do {
      out.push_back(ts_tree_cursor_current_node(cursor));
    } while (ts_tree_cursor_goto_next_sibling(cursor));
  }
  return out;
}

bool MayHoldStatements(TSNode n) {
  if (n.id == nullptr) return false;
  const std::string_view t = TypeOf(n);
  if (t == "block" || t == "module" || t == "ERROR" || t == "else_clause" || t == "elif_clause" ||
      t == "except_clause" || t == "finally_clause" || t == "case_clause" || t == "decorated_definition" ||
      t == "function_definition" || t == "class_definition") {
    return true;
  }
  constexpr std::string_view kSuffix = "_statement";
  if (t.size() <= kSuffix.size() || t.substr(t.size() - kSuffix.size()) != kSuffix) return false;
  return t != "expression_statement" && t != "return_statement" && t != "assert_statement" &&
         t != "pass_statement" && t != "delete_statement" && t != "raise_statement" && t != "global_statement" &&
         t != "nonlocal_statement" && t != "import_statement" && t != "import_from_statement" &&
         t != "break_statement" && t != "continue_statement";
}

std::optional<std::vector<std::string>> DottedPath(TSNode n, std::string_view text) {
  std::vector<std::string> parts;
  for (int guard = 0; guard < 64; ++guard) {
    if (Is(n, "identifier")) {
      parts.emplace_back(TextOf(n, text));
      std::reverse(parts.begin(), parts.end());
      return parts;
    }
    if (!Is(n, "attribute")) return std::nullopt;
    TSNode attr = Field(n, "attribute");
    if (ts_node_is_null(attr)) return std::nullopt;
    parts.emplace_back(TextOf(attr, text));
    n = Field(n, "object");
  }
  return std::nullopt;
}

std::string Join(const std::vector<std::string>& parts, size_t from, const char* sep) {
  std::string out;
  for (size_t i = from; i < parts.size(); ++i) {
    if (i > from) out += sep;
    out += parts[i];
  }
  return out;
}

std::optional<std::string> StringValue(TSNode n, std::string_view text) {
  if (!Is(n, "string")) return std::nullopt;
  std::string_view s = TextOf(n, text);
  size_t q = s.find_first_of("\"'");
  if (q == std::string_view::npos) return std::nullopt;
  std::string_view prefix = s.substr(0, q);
  for (char c : prefix) {
    if (c == 'f' || c == 'F' || c == 'b' || c == 'B') return std::nullopt;
  }
  bool raw = prefix.find_first_of("rR") != std::string_view::npos;
  s.remove_prefix(q);
  size_t quote_len = (s.size() >= 6 && s.substr(0, 3) == std::string(3, s[0])) ? 3 : 1;
  if (s.size() < 2 * quote_len) return std::nullopt;
  std::string_view body = s.substr(quote_len, s.size() - 2 * quote_len);
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (!raw && body[i] == '\\' && i + 1 < body.size()) {
      char c = body[++i];
      switch (c) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case '\\': out += '\\'; break;
        case '\'': out += '\''; break;
        case '"': out += '"'; break;
        default: out += '\\'; out += c;
      }
    } else {
      out += body[i];
    }
  }
  return out;
}

std::optional<int64_t> IntValue(TSNode n, std::string_view text) {
  n = Unparen(n);
  if (Is(n, "unary_operator")) {
    TSNode op = Field(n, "operator");
    auto v = IntValue(Field(n, "argument"), text);
    if (!v) return std::nullopt;
    std::string_view o = TextOf(op, text);
    if (o == "-") {
      if (*v == INT64_MIN) return std::nullopt;
      return -*v;
    }
    if (o == "+") return v;
    return std::nullopt;
  }
  if (!Is(n, "integer")) return std::nullopt;
  std::string digits;
  for (char c : TextOf(n, text)) {
    if (c != '_') digits += c;
  }
  if (digits.empty() || digits.back() == 'l' || digits.back() == 'L' || digits.back() == 'j' ||
      digits.back() == 'J') {
    return std::nullopt;
  }
  int base = 10;
  std::string body = digits;
  if (digits.size() > 2 && digits[0] == '0') {
    char p = static_cast<char>(digits[1] | 0x20);
    if (p == 'x') base = 16;
    if (p == 'o') base = 8;
    if (p == 'b') base = 2;
    if (base != 10) body = digits.substr(2);
  }
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(body.c_str(), &end, base);
  if (errno != 0 || end == body.c_str() || *end != '\0') return std::nullopt;
  return static_cast<int64_t>(v);
}

CallArgs ArgsOf(TSNode call, std::string_view text) {
  CallArgs args;
  TSNode list = Field(call, "arguments");
  args.list = list;
  if (ts_node_is_null(list)) return args;
  if (Is(list, "generator_expression")) {
    args.splat = true;
    return args;
  }
  for (TSNode c : NamedChildren(list)) {
    if (Is(c, "comment")) continue;
    if (Is(c, "keyword_argument")) {
      TSNode name = Field(c, "name");
      args.keywords.emplace_back(std::string(TextOf(name, text)), Field(c, "value"));
      args.keyword_nodes.push_back(c);
    } else if (Is(c, "list_splat") || Is(c, "dictionary_splat")) {
      args.splat = true;
    } else {
      args.positional.push_back(c);
    }
  }
  return args;
}

TSNode Keyword(const CallArgs& args, std::string_view name) {
  for (const auto& [k, v] : args.keywords) {
    if (k == name) return v;
  }
  return TSNode{};
}

TSNode Unparen(TSNode n) {
  for (int guard = 0; guard < 256 && Is(n, "parenthesized_expression"); ++guard) {
    std::vector<TSNode> kids = NamedChildren(n);
    TSNode inner{};
    for (TSNode k : kids) {
      if (!Is(k, "comment")) {
        inner = k;
        break;
      }
    }
    if (ts_node_is_null(inner)) return n;
    n = inner;
  }
  return n;
}

std::vector<TSNode> SubscriptIndices(TSNode subscript) {
  std::vector<TSNode> indices;
  TSTreeCursor c = ts_tree_cursor_new(subscript);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      const char* field = ts_tree_cursor_current_field_name(&c);
      if (field != nullptr && std::string_view(field) == "subscript") indices.push_back(ts_tree_cursor_current_node(&c));
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  if (indices.size() == 1 && Is(Unparen(indices[0]), "tuple")) {
    TSNode t = Unparen(indices[0]);
    indices.clear();
    for (TSNode k : NamedChildren(t)) {
      if (!Is(k, "comment")) indices.push_back(k);
    }
  }
  return indices;
}

uint32_t LineStart(std::string_view text, uint32_t offset) {
  if (offset > text.size()) offset = static_cast<uint32_t>(text.size());
  while (offset > 0 && text[offset - 1] != '\n') --offset;
  return offset;
}

std::string IndentOf(std::string_view text, uint32_t offset) {
  uint32_t b = LineStart(text, offset), e = b;
  while (e < text.size() && (text[e] == ' ' || text[e] == '\t')) ++e;
  return std::string(text.substr(b, e - b));
}

std::string NumberSpelling(std::string_view dim) {
  auto digits = [](std::string_view s) {
    if (s.empty()) return false;
    for (char c : s) {
      if (c < '0' || c > '9') return false;
    }
    return true;
  };
  if (digits(dim)) return "{}";
  size_t open = dim.find('(');
  if (open == std::string_view::npos || dim.back() != ')') return "";
  std::string_view inner = dim.substr(open + 1, dim.size() - open - 2);
  while (!inner.empty() && inner.front() == ' ') inner.remove_prefix(1);
  while (!inner.empty() && inner.back() == ' ') inner.remove_suffix(1);
  if (!digits(inner)) return "";
  for (char c : dim.substr(0, open)) {
    bool ok = c == '.' || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!ok) return "";
  }
  return std::string(dim.substr(0, open)) + "({})";
}

}  // namespace tvmls::analysis
