#include "query/completion.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string_view>

#include "model/syntax_util.h"
#include "ops/registry.h"
#include "query/query_internal.h"
#include "types/struct_info.h"
#include "vocab/dtype.h"

namespace tvmls::analysis {

namespace {

using Kind = CompletionItem::Kind;
using query_internal::FunctionAt;
using query_internal::IsIdentChar;
using query_internal::IsPythonKeyword;
using query_internal::ScanStart;
using vocab::Dialect;
using vocab::EraTag;
using vocab::NameKind;
using vocab::ScriptName;

// ---------------------------------------------------------------- characters and lines

bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool IsBlank(char c) { return c == ' ' || c == '\t'; }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

uint32_t LineEnd(std::string_view text, uint32_t offset) {
  while (offset < text.size() && text[offset] != '\n') ++offset;
  return offset;
}

// Indentation width of the line starting at `line` and the offset of its first other character.
uint32_t Indent(std::string_view text, uint32_t line, uint32_t* first) {
  uint32_t i = line;
  while (i < text.size() && IsBlank(text[i])) ++i;
  *first = i;
  return i - line;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// A line with nothing but blanks or a comment.
bool IsBlankLine(std::string_view text, uint32_t first) {
  return first >= text.size() || text[first] == '\n' || text[first] == '\r' || text[first] == '#';
}

// ---------------------------------------------------------------- bracket scan

// An open bracket at the scanned offset, with where each of its arguments starts (after the
// bracket and after each comma directly inside it).
struct OpenBracket {
  char ch = '(';
  uint32_t pos = 0;
  std::vector<uint32_t> arg_starts;
};

// The lexical state at an offset: inside a comment, inside a string, and the open brackets.
struct ScanState {
  bool in_comment = false;
  bool in_string = false;
  bool triple = false;
  uint32_t string_begin = 0;   // the opening quote
  uint32_t content_begin = 0;  // after the opening quote(s)
  std::vector<OpenBracket> open;
};

// The end of the string whose content starts at `content` (after its quote(s)): the offset after
// the closing quote(s); for an unterminated string, the end of its line (single-quoted) or of the
// text (triple-quoted), with *terminated false.
uint32_t StringEnd(std::string_view text, uint32_t content, char quote, bool triple, bool* terminated) {
  *terminated = true;
  for (uint32_t j = content; j < text.size(); ++j) {
    char c = text[j];
    if (c == '\\') {
      ++j;
      continue;
    }
    if (!triple && c == '\n') {
      *terminated = false;
      return j;
    }
    if (c == quote) {
      if (!triple) return j + 1;
      if (j + 2 < text.size() && text[j + 1] == quote && text[j + 2] == quote) return j + 3;
    }
  }
  *terminated = false;
  return static_cast<uint32_t>(text.size());
}

char Opener(char closer) { return closer == ')' ? '(' : closer == ']' ? '[' : '{'; }

// Scans from ScanStart to `offset`. Brackets left open by a statement that was abandoned (a line
// that is not indented deeper than the statement's first line, and does not start with a closing
// bracket) are dropped there: the text being typed is usually broken, and an unclosed `R.add(x,`
// two lines up is not the call the cursor is in.
ScanState Scan(std::string_view text, uint32_t offset) {
  ScanState s;
  uint32_t i = ScanStart(text, offset);
  uint32_t statement_indent = 0;  // indentation of the line where the open brackets' statement began
  uint32_t empty_line_indent = 0; // indentation of the last line that began with no open bracket
  bool line_start = true;
  while (i < offset) {
    if (line_start) {
      line_start = false;
      uint32_t first;
      uint32_t indent = Indent(text, i, &first);
      if (!IsBlankLine(text, first)) {
        char c = text[first];
        if (!s.open.empty() && indent <= statement_indent && c != ')' && c != ']' && c != '}') {
          s.open.clear();
        }
        if (s.open.empty()) empty_line_indent = indent;
      }
    }
    char c = text[i];
    switch (c) {
      case '\n':
        line_start = true;
        ++i;
        break;
      case '\\':
        i += 2;  // a line continuation or an escaped character outside strings
        break;
      case '#': {
        uint32_t end = LineEnd(text, i);
        if (end >= offset) {
          s.in_comment = true;
          return s;
        }
        i = end;
        break;
      }
      case '"':
      case '\'': {
        bool triple = i + 2 < text.size() && text[i + 1] == c && text[i + 2] == c;
        uint32_t content = i + (triple ? 3 : 1);
        bool terminated;
        uint32_t end = StringEnd(text, content, c, triple, &terminated);
        if (terminated ? offset < end : offset <= end) {
          s.in_string = true;
          s.triple = triple;
          s.string_begin = i;
          s.content_begin = std::min(content, offset);
          return s;
        }
        i = end;
        break;
      }
      case '(':
      case '[':
      case '{':
        if (s.open.empty()) statement_indent = empty_line_indent;
        s.open.push_back(OpenBracket{c, i, {i + 1}});
        ++i;
        break;
      case ')':
      case ']':
      case '}': {
        char want = Opener(c);
        for (size_t k = s.open.size(); k > 0; --k) {
          if (s.open[k - 1].ch == want) {
            s.open.resize(k - 1);
            break;
          }
        }
        ++i;
        break;
      }
      case ',':
        if (!s.open.empty()) s.open.back().arg_starts.push_back(i + 1);
        ++i;
        break;
      default:
        ++i;
    }
  }
  return s;
}

// ---------------------------------------------------------------- dotted names in the text

// `R.nn.conv2d` ending at `end` (exclusive), read backwards: the parts and where the head starts.
// Whitespace is not allowed around the dots. `rooted` is false when the chain hangs off something
// that is not a name (`f(x).g`, `a[0].b`, `1.5`): an attribute of a value.
struct Chain {
  std::vector<std::string> parts;
  uint32_t begin = 0;
  bool rooted = true;
};

// Nullopt when no name ends at `end`.
std::optional<Chain> ChainEndingAt(std::string_view text, uint32_t end) {
  Chain chain;
  uint32_t e = end;
  while (true) {
    uint32_t b = e;
    while (b > 0 && IsIdentChar(text[b - 1])) --b;
    if (b == e || IsDigit(text[b])) {
      if (chain.parts.empty()) return std::nullopt;
      chain.rooted = false;
      return chain;
    }
    chain.parts.insert(chain.parts.begin(), std::string(text.substr(b, e - b)));
    chain.begin = b;
    if (b > 0 && text[b - 1] == '.') {
      e = b - 1;
      continue;
    }
    return chain;
  }
}

// ---------------------------------------------------------------- the enclosing module

// The nearest line above `offset` that is less indented than the cursor's line and starts with
// `keyword` (`class `, `def `): its start, or nullopt.
std::optional<uint32_t> EnclosingLine(std::string_view text, uint32_t offset, std::string_view keyword) {
  uint32_t line = LineStart(text, offset);
  uint32_t first;
  uint32_t limit = Indent(text, line, &first);
  if (first >= offset) limit = offset - line;  // the cursor is in the indentation
  while (line > 0 && limit > 0) {
    line = LineStart(text, line - 1);
    uint32_t indent = Indent(text, line, &first);
    if (IsBlankLine(text, first) || indent >= limit) continue;
    limit = indent;
    std::string_view rest = text.substr(first);
    if (StartsWith(rest, keyword) || (keyword == "def " && StartsWith(rest, "async def "))) return line;
  }
  return std::nullopt;
}

const ModuleModel* ModuleAt(const FileModel& model, std::string_view text, uint32_t offset) {
  for (const ModuleModel& m : model.modules) {
    if (m.range.begin <= offset && offset <= m.range.end) return &m;
  }
  // The text being typed may have cut the class short in the tree: find it by indentation.
  std::optional<uint32_t> line = EnclosingLine(text, offset, "class ");
  if (!line) return nullptr;
  uint32_t first;
  Indent(text, *line, &first);
  uint32_t b = first + 6;
  while (b < text.size() && IsBlank(text[b])) ++b;
  uint32_t e = b;
  while (e < text.size() && IsIdentChar(text[e])) ++e;
  std::string_view name = text.substr(b, e - b);
  for (const ModuleModel& m : model.modules) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

// `name` refers to `module` at `offset`: its own name, or bound by `name = Module` on a line of
// the enclosing function before the offset (the printer's `cls = Module`).
bool IsModuleAlias(const ModuleModel& module, std::string_view text, uint32_t offset, std::string_view name) {
  if (name == module.name) return true;
  std::optional<uint32_t> from = EnclosingLine(text, offset, "def ");
  uint32_t line = from ? *from : std::min<uint32_t>(module.range.begin, offset);
  while (line < offset) {
    uint32_t end = LineEnd(text, line);
    std::string_view s = text.substr(line, std::min(end, offset) - line);
    while (!s.empty() && IsBlank(s.front())) s.remove_prefix(1);
    if (StartsWith(s, name)) {
      s.remove_prefix(name.size());
      while (!s.empty() && IsBlank(s.front())) s.remove_prefix(1);
      if (!s.empty() && s.front() == '=' && (s.size() < 2 || s[1] != '=')) {
        s.remove_prefix(1);
        while (!s.empty() && IsBlank(s.front())) s.remove_prefix(1);
        if (StartsWith(s, module.name)) {
          s.remove_prefix(module.name.size());
          while (!s.empty() && (IsBlank(s.back()) || s.back() == '\r')) s.remove_suffix(1);
          if (s.empty() || s.front() == '#' || IsBlank(s.front())) return true;
        }
      }
    }
    line = end + 1;
  }
  return false;
}

// ---------------------------------------------------------------- callables

// One parameter as signature help matches it.
struct Slot {
  std::string name;
  std::string alt;  // the other era's keyword, or ""
  bool required = false;
  bool var_positional = false;
  bool var_keyword = false;
  bool keyword_only = false;
};

// A signature: the label with parameter ranges, the slots, the doc.
struct Callable {
  std::string label;
  std::vector<TextRange> ranges;
  std::vector<Slot> slots;
  std::string doc;
  int dtype_slot = -1;  // positional slot taking a dtype string
  std::vector<std::string> snippet;
};

class LabelWriter {
 public:
  explicit LabelWriter(Callable* c, const std::string& callee) : c_(c) { c_->label = callee + "("; }
  void Param(const std::string& text, Slot slot) {
    if (!c_->slots.empty()) c_->label += ", ";
    if (slot.var_positional) star_ = true;
    if (slot.keyword_only && !star_) {
      c_->label += "*, ";
      star_ = true;
    }
    uint32_t b = static_cast<uint32_t>(c_->label.size());
    c_->label += text;
    c_->ranges.push_back({b, static_cast<uint32_t>(c_->label.size())});
    if (slot.required && !slot.var_positional && !slot.var_keyword && !slot.keyword_only) {
      c_->snippet.push_back(slot.name);
    }
    c_->slots.push_back(std::move(slot));
  }
  void Close(const std::string& tail = "") { c_->label += ")" + tail; }

 private:
  Callable* c_;
  bool star_ = false;
};

bool IsDtypeKeyword(std::string_view name) { return name == "dtype" || name == "out_dtype"; }

Callable OpCallable(const ops::OpInfo& op, const std::string& callee, bool current) {
  Callable c;
  LabelWriter w(&c, callee);
  bool positional_ok = true;
  for (const ops::Param& p : op.params) {
    if (current && p.classic_only) continue;
    Slot s;
    s.var_positional = ops::IsVarPositional(p);
    s.var_keyword = ops::IsVarKeyword(p);
    s.keyword_only = p.keyword_only || !positional_ok;
    s.required = p.default_text == nullptr;
    const char* spelled = (!current && p.classic_name) ? p.classic_name : p.name;
    s.name = spelled;
    if (p.classic_name) s.alt = current ? p.classic_name : p.name;
    if (IsDtypeKeyword(s.name) && !s.keyword_only && !s.var_positional && c.dtype_slot < 0) {
      c.dtype_slot = static_cast<int>(c.slots.size());
    }
    if (s.var_positional) positional_ok = false;
    std::string text = spelled;
    if (p.default_text) text += std::string("=") + p.default_text;
    w.Param(text, std::move(s));
  }
  w.Close();
  // `R.dtype("float32")`: the one argument is a dtype.
  if (std::string_view(op.name) == "script.dtype") c.dtype_slot = 0;
  c.doc = op.doc ? op.doc : "";
  return c;
}

// Null params: not callable with known parameters.
std::optional<Callable> NameCallable(const ScriptName& n, const std::string& callee) {
  if (n.params == nullptr) return std::nullopt;
  Callable c;
  LabelWriter w(&c, callee);
  for (const vocab::ParamText& p : vocab::ParamsOf(n)) {
    Slot s;
    s.name = p.name;
    s.required = !p.has_default;
    s.var_positional = p.var_positional;
    s.var_keyword = p.var_keyword;
    s.keyword_only = p.keyword_only;
    std::string text = (p.var_positional ? "*" : p.var_keyword ? "**" : "") + p.name;
    if (p.has_default) text += "=" + p.default_text;
    w.Param(text, std::move(s));
  }
  w.Close();
  c.dtype_slot = n.dtype_arg;
  c.doc = n.doc;
  return c;
}

Callable FunctionCallable(const FunctionModel& fn, const std::string& callee, bool current) {
  Callable c;
  LabelWriter w(&c, callee);
  types::PrintOptions print;
  print.current_era = current;
  if (fn.kind == FunctionModel::Kind::kPrim) {
    for (size_t i = 0; i < fn.prim.params.size(); ++i) {
      Slot s;
      s.name = fn.prim.params[i].name;
      s.required = true;
      w.Param(PrimParamText(fn.prim, i), std::move(s));
    }
    w.Close();
    c.doc = "PrimFunc of the module; a direct call passes every buffer, outputs included.";
    return c;
  }
  for (size_t i = 0; i < fn.relax.param_names.size(); ++i) {
    std::string text = fn.relax.param_names[i];
    if (i < fn.relax.params.size()) {
      std::string t = types::Print(fn.relax.params[i], print);
      if (!t.empty()) text += ": " + t;
    }
    Slot s;
    s.name = fn.relax.param_names[i];
    s.required = true;
    w.Param(text, std::move(s));
  }
  std::string ret = types::Print(fn.relax.ret, print);
  w.Close(ret.empty() ? "" : " -> " + ret);
  c.doc = fn.relax.pure ? "Relax function of the module." : "Relax function of the module (impure).";
  return c;
}

// What a file accepts, and how it spells parameters.
struct Era {
  bool classic = true;
  bool current = true;
  bool spell_current() const { return current && !classic; }
};

Era EraOf(const FileModel& model) { return Era{model.aliases.classic, model.aliases.current}; }

enum class Root { kNone, kRelax, kTir, kIr, kModule };

Root RootOf(const FileModel& model, std::string_view text, uint32_t offset, const std::string& head,
            const ModuleModel** module) {
  *module = nullptr;
  if (model.aliases.relax.count(head)) return Root::kRelax;
  if (model.aliases.tir.count(head)) return Root::kTir;
  if (model.aliases.ir.count(head)) return Root::kIr;
  const ModuleModel* m = ModuleAt(model, text, offset);
  if (m != nullptr && IsModuleAlias(*m, text, offset, head)) {
    *module = m;
    return Root::kModule;
  }
  return Root::kNone;
}

Dialect DialectOf(Root root) {
  return root == Root::kRelax ? Dialect::kRelax : root == Root::kTir ? Dialect::kTir : Dialect::kIr;
}

// The callable named by `chain` at `offset`, if known.
std::optional<Callable> ResolveCallable(const FileModel& model, std::string_view text, uint32_t offset,
                                        const Chain& chain) {
  if (chain.parts.size() < 2) return std::nullopt;
  const ModuleModel* module = nullptr;
  Root root = RootOf(model, text, offset, chain.parts[0], &module);
  Era era = EraOf(model);
  std::string callee = Join(chain.parts, 0);
  std::string path = Join(chain.parts, 1);
  switch (root) {
    case Root::kNone:
      return std::nullopt;
    case Root::kModule: {
      if (chain.parts.size() != 2) return std::nullopt;
      for (const FunctionRef& f : module->functions) {
        if (f.fn->name == path) return FunctionCallable(*f.fn, callee, era.spell_current());
      }
      return std::nullopt;
    }
    case Root::kRelax:
      if (const ops::OpInfo* op = ops::FindOp(path)) {
        bool current = op->current_script && path == op->current_script ? true
                       : op->current_script && path == op->script  ? false
                                                                    : era.spell_current();
        return OpCallable(*op, callee, current);
      }
      [[fallthrough]];
    case Root::kTir:
    case Root::kIr:
      if (const ScriptName* n = vocab::FindScriptName(DialectOf(root), path, era.classic, era.current)) {
        return NameCallable(*n, callee);
      }
      return std::nullopt;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------- arguments

std::string_view TrimLeft(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  return s;
}

// `name =` at the start of an argument (not `==`): the name, or "".
std::string_view KeywordOf(std::string_view arg) {
  arg = TrimLeft(arg);
  size_t e = 0;
  while (e < arg.size() && IsIdentChar(arg[e])) ++e;
  if (e == 0 || IsDigit(arg[0])) return {};
  size_t j = e;
  while (j < arg.size() && IsBlank(arg[j])) ++j;
  if (j < arg.size() && arg[j] == '=' && (j + 1 >= arg.size() || arg[j + 1] != '=')) return arg.substr(0, e);
  return {};
}

int SlotByName(const Callable& c, std::string_view name) {
  for (size_t i = 0; i < c.slots.size(); ++i) {
    const Slot& s = c.slots[i];
    if (s.var_positional || s.var_keyword) continue;
    if (s.name == name || (!s.alt.empty() && s.alt == name)) return static_cast<int>(i);
  }
  for (size_t i = 0; i < c.slots.size(); ++i) {
    if (c.slots[i].var_keyword) return static_cast<int>(i);
  }
  return -1;
}

// What the argument under the cursor binds to.
struct ArgPosition {
  int slot = -1;
  std::string keyword;       // the `name=` of the current argument, if any
  int positional = -1;       // its positional index when it is positional
  uint32_t begin = 0;        // where the current argument starts
};

ArgPosition LocateArgument(const Callable& c, std::string_view text, const OpenBracket& call, uint32_t offset) {
  ArgPosition at;
  const std::vector<uint32_t>& starts = call.arg_starts;
  int positional = 0;
  bool keywords = false;
  bool splat = false;
  std::set<int> bound;
  for (size_t k = 0; k + 1 < starts.size(); ++k) {
    std::string_view arg = TrimLeft(text.substr(starts[k], starts[k + 1] - 1 - starts[k]));
    if (arg.empty()) continue;
    if (arg.front() == '*') {
      splat = true;
    } else if (std::string_view kw = KeywordOf(arg); !kw.empty()) {
      keywords = true;
      bound.insert(SlotByName(c, kw));
    } else {
      ++positional;
    }
  }
  at.begin = starts.back();
  std::string_view current = TrimLeft(text.substr(starts.back(), offset - starts.back()));
  if (!current.empty() && current.front() == '*') return at;
  if (std::string_view kw = KeywordOf(current); !kw.empty()) {
    at.keyword = std::string(kw);
    at.slot = SlotByName(c, kw);
    return at;
  }
  if (splat) return at;
  if (keywords) {
    // Typing a keyword's name after other keywords: the one unbound parameter it can start.
    bool ident = !current.empty();
    for (char ch : current) ident = ident && IsIdentChar(ch);
    if (!ident) return at;
    int match = -1;
    for (size_t i = 0; i < c.slots.size(); ++i) {
      const Slot& s = c.slots[i];
      if (s.var_positional || s.var_keyword || bound.count(static_cast<int>(i))) continue;
      if (StartsWith(s.name, current) || (!s.alt.empty() && StartsWith(s.alt, current))) {
        if (match >= 0) return at;
        match = static_cast<int>(i);
      }
    }
    at.slot = match;
    return at;
  }
  at.positional = positional;
  int p = 0;
  for (size_t i = 0; i < c.slots.size(); ++i) {
    const Slot& s = c.slots[i];
    if (s.var_keyword || s.keyword_only) break;
    if (s.var_positional) {
      at.slot = static_cast<int>(i);
      break;
    }
    if (p == positional) {
      at.slot = static_cast<int>(i);
      break;
    }
    ++p;
  }
  return at;
}

// The innermost call around the scanned offset: its bracket and callee chain. Enclosing tuples,
// lists, dicts and subscripts are skipped (they are part of an argument of the call around them).
struct CallSite {
  const OpenBracket* bracket = nullptr;
  Chain chain;
};

std::optional<CallSite> InnermostCall(std::string_view text, const ScanState& scan) {
  for (size_t k = scan.open.size(); k > 0; --k) {
    const OpenBracket& b = scan.open[k - 1];
    if (b.ch != '(') continue;
    uint32_t e = b.pos;
    while (e > 0 && IsBlank(text[e - 1])) --e;
    std::optional<Chain> chain = ChainEndingAt(text, e);
    if (!chain) continue;  // a parenthesized expression or tuple
    if (chain->parts.size() == 1 && IsPythonKeyword(chain->parts[0])) continue;  // `if (`, `in (`
    if (!chain->rooted) return std::nullopt;  // `f(x).g(`: a method of a value
    return CallSite{&b, std::move(*chain)};
  }
  return std::nullopt;
}

// ---------------------------------------------------------------- completion items

void SortItems(std::vector<CompletionItem>* items) {
  std::stable_sort(items->begin(), items->end(),
                   [](const CompletionItem& a, const CompletionItem& b) { return a.label < b.label; });
}

Kind KindOf(NameKind k) {
  switch (k) {
    case NameKind::kFunction: return Kind::kFunction;
    case NameKind::kType: return Kind::kType;
    case NameKind::kNamespace: return Kind::kNamespace;
    case NameKind::kKeyword: return Kind::kKeyword;
    case NameKind::kDtype: return Kind::kDtype;
  }
  return Kind::kFunction;
}

CompletionItem ItemOf(const ScriptName& n, const std::string& label, const std::string& callee) {
  CompletionItem item;
  item.label = label;
  item.kind = KindOf(n.kind);
  item.doc = n.doc;
  item.deprecated = n.deprecated;
  item.era = n.era;
  if (std::optional<Callable> c = NameCallable(n, callee)) {
    item.detail = std::move(c->label);
    item.call = true;
    item.snippet_params = std::move(c->snippet);
  }
  return item;
}

// Items one level below `head.path.` in a dialect's namespace (ops too for Relax).
std::vector<CompletionItem> BuildNamespaceItems(Dialect dialect, const Chain& chain, const Era& era) {
  std::vector<CompletionItem> items;
  const std::string ns = Join(chain.parts, 1);
  const std::string prefix = ns.empty() ? "" : ns + ".";
  const std::string callee_prefix = chain.parts[0] + ".";  // the alias as typed
  // Labels already offered (a namespace, or a name in one era): views into the static tables.
  std::set<std::string_view> seen;
  items.reserve(256);  // `R.` offers some hundreds
  bool known = ns.empty();
  for (const ScriptName& n : vocab::AllScriptNames()) {
    if (n.dialect != dialect || !vocab::InEra(n.era, era.classic, era.current)) continue;
    std::string_view path(n.path);
    if (path == ns) known = true;
    if (!StartsWith(path, prefix)) continue;
    std::string_view rest = path.substr(prefix.size());
    size_t dot = rest.find('.');
    std::string_view label = rest.substr(0, dot);
    if (dot != std::string_view::npos || seen.count(label)) continue;
    // Of two rows for one path, the one the file's era prefers.
    if (vocab::FindScriptName(dialect, path, era.classic, era.current) != &n) continue;
    seen.insert(label);
    items.push_back(ItemOf(n, std::string(label), callee_prefix + std::string(path)));
  }
  if (dialect == Dialect::kRelax) {
    for (const ops::OpInfo& op : ops::AllOps()) {
      struct Spelling {
        const char* path;
        bool current;
        EraTag era;
      };
      if (op.script == nullptr) continue;
      // An op whose current-era spelling differs is offered once per era.
      const Spelling both[] = {{op.script, era.spell_current(), EraTag::kBoth}};
      const Spelling per_era[] = {{op.script, false, EraTag::kClassic},
                                  {op.current_script, true, EraTag::kCurrent}};
      const Spelling* first = op.current_script ? per_era : both;
      const Spelling* last = op.current_script ? per_era + 2 : both + 1;
      for (const Spelling* it = first; it != last; ++it) {
        const Spelling& sp = *it;
        if (!vocab::InEra(sp.era, era.classic, era.current)) continue;
        std::string_view path(sp.path);
        if (!StartsWith(path, prefix)) continue;
        known = true;
        std::string_view rest = path.substr(prefix.size());
        size_t dot = rest.find('.');
        std::string_view label = rest.substr(0, dot);
        if (seen.count(label)) continue;
        seen.insert(label);
        CompletionItem item;
        item.label = std::string(label);
        item.era = sp.era;
        if (dot != std::string_view::npos) {
          item.kind = Kind::kNamespace;  // a sub-namespace the table does not describe
          item.doc = "Relax operators under " + callee_prefix + prefix + item.label + ".";
        } else {
          Callable c = OpCallable(op, callee_prefix + std::string(path), sp.current);
          item.kind = Kind::kOperator;
          item.detail = std::move(c.label);
          item.doc = std::move(c.doc);
          item.call = true;
          item.snippet_params = std::move(c.snippet);
        }
        items.push_back(std::move(item));
      }
    }
  }
  if (!known) items.clear();  // `R.add.`: nothing lives below an operator
  SortItems(&items);
  return items;
}

// BuildNamespaceItems, memoised: the lists depend only on the static tables, the chain as typed
// and the era, and building the biggest (`T.`: 489 items) costs milliseconds (signatures are
// split per item). At most kMaxLists lists are kept (the chains typed are unbounded: `R.foo.`).
std::vector<CompletionItem> NamespaceItems(Dialect dialect, const Chain& chain, const Era& era) {
  constexpr size_t kMaxLists = 256;
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const std::vector<CompletionItem>>> lists;
  std::string key = std::to_string(static_cast<int>(dialect)) + (era.classic ? "c" : "-") +
                    (era.current ? "n" : "-") + Join(chain.parts, 0);
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = lists.find(key);
    if (it != lists.end()) return *it->second;
  }
  auto built = std::make_shared<const std::vector<CompletionItem>>(BuildNamespaceItems(dialect, chain, era));
  std::lock_guard<std::mutex> lock(mu);
  if (lists.size() >= kMaxLists) lists.clear();
  lists.emplace(std::move(key), built);
  return *built;
}

}  // namespace

void WarmNamespaceCompletions() {
  const std::pair<Dialect, const char*> heads[] = {{Dialect::kRelax, "R"}, {Dialect::kTir, "T"}, {Dialect::kIr, "I"}};
  for (const auto& [dialect, head] : heads) {
    Chain chain;
    chain.parts = {head};
    for (Era era : {Era{true, false}, Era{false, true}, Era{true, true}}) NamespaceItems(dialect, chain, era);
  }
}

namespace {

std::vector<CompletionItem> ModuleItems(const ModuleModel& module, const std::string& head, const Era& era) {
  std::vector<CompletionItem> items;
  for (const FunctionRef& f : module.functions) {
    Callable c = FunctionCallable(*f.fn, head + "." + f.fn->name, era.spell_current());
    CompletionItem item;
    item.label = f.fn->name;
    item.kind = Kind::kModuleFunction;
    item.detail = c.label;
    item.doc = c.doc;
    item.call = true;
    item.snippet_params = c.snippet;
    items.push_back(std::move(item));
  }
  for (const std::string& name : module.extern_globals) {
    CompletionItem item;
    item.label = name;
    item.kind = Kind::kModuleFunction;
    item.doc = "External function of the module (R.ExternFunc).";
    item.call = true;
    items.push_back(std::move(item));
  }
  SortItems(&items);
  return items;
}

const char* SymbolKindDoc(Symbol::Kind kind) {
  switch (kind) {
    case Symbol::Kind::kRelaxVar: return "Relax variable";
    case Symbol::Kind::kRelaxParam: return "Relax parameter";
    case Symbol::Kind::kSymbolicVar: return "Symbolic shape variable";
    case Symbol::Kind::kBuffer: return "TIR buffer";
    case Symbol::Kind::kTirVar: return "TIR variable";
    case Symbol::Kind::kFunction: return "Function";
  }
  return "";
}

// Aliases and the names of the enclosing function defined before the identifier being typed.
std::vector<CompletionItem> BareItems(const FileModel& model, std::string_view text, uint32_t prefix_begin) {
  const uint32_t line_begin = LineStart(text, prefix_begin);
  std::vector<CompletionItem> items;
  std::set<std::string> seen;
  Era era = EraOf(model);
  struct AliasSet {
    const std::set<std::string>* names;
    const char* module;
  };
  const AliasSet sets[] = {
      {&model.aliases.relax, "tvm.script.relax"},
      {&model.aliases.tir, era.spell_current() ? "tvm.script.tirx" : "tvm.script.tir"},
      {&model.aliases.ir, "tvm.script.ir"},
  };
  for (const AliasSet& s : sets) {
    for (const std::string& name : *s.names) {
      if (!seen.insert(name).second) continue;
      CompletionItem item;
      item.label = name;
      item.kind = Kind::kNamespace;
      item.detail = s.module;
      item.doc = std::string("The ") + s.module + " namespace.";
      items.push_back(std::move(item));
    }
  }
  const ModuleModel* module = nullptr;
  if (const FunctionRef* f = FunctionAt(model, prefix_begin, &module)) {
    for (const Symbol& s : f->fn->symbols) {
      // Defined on an earlier line: not the target of the binding being typed (`lv = l|`).
      TextRange def = Absolute(*f, s.definition);
      if (s.name.empty() || def.end > line_begin || !seen.insert(s.name).second) continue;
      CompletionItem item;
      item.label = s.name;
      item.kind = Kind::kVariable;
      item.detail = s.detail;
      item.doc = SymbolKindDoc(s.kind);
      items.push_back(std::move(item));
    }
  }
  SortItems(&items);
  return items;
}

// Inside a string that is a dtype argument: the dtypes. The string must be the whole argument
// (`dtype="fl`, `T.Buffer((4,), "`), directly inside the call's parentheses.
std::optional<CompletionResult> DtypeStringItems(const FileModel& model, std::string_view text,
                                                 const ScanState& scan, uint32_t offset) {
  if (scan.triple || scan.open.empty()) return std::nullopt;
  if (scan.string_begin > 0 && IsIdentChar(text[scan.string_begin - 1])) return std::nullopt;  // f"", b""
  for (uint32_t i = scan.content_begin; i < offset; ++i) {
    if (!IsIdentChar(text[i])) return std::nullopt;
  }
  std::optional<CallSite> site = InnermostCall(text, scan);
  if (!site || site->bracket != &scan.open.back()) return std::nullopt;
  std::optional<Callable> c = ResolveCallable(model, text, offset, site->chain);
  if (!c) return std::nullopt;
  ArgPosition at = LocateArgument(*c, text, *site->bracket, scan.string_begin);
  std::string_view before = text.substr(at.begin, scan.string_begin - at.begin);
  if (!at.keyword.empty()) {
    size_t eq = before.find('=');
    before = before.substr(eq + 1);
  }
  if (!TrimLeft(before).empty()) return std::nullopt;  // the string is not the whole argument
  bool dtype = !at.keyword.empty() ? IsDtypeKeyword(at.keyword) || (at.slot >= 0 && at.slot == c->dtype_slot)
                                   : at.slot >= 0 && at.slot == c->dtype_slot;
  if (!dtype) return std::nullopt;
  CompletionResult result;
  result.replace = {scan.content_begin, offset};
  for (const char* name : vocab::CompletionDTypes()) {
    CompletionItem item;
    item.label = name;
    item.kind = Kind::kDtype;
    item.doc = "dtype";
    result.items.push_back(std::move(item));
  }
  SortItems(&result.items);
  return result;
}

// At the start of an argument of an operator or builder call: its keyword parameters not given
// yet. (Module functions take positional arguments only.)
void KeywordItems(const FileModel& model, std::string_view text, const ScanState& scan, uint32_t begin,
                  std::vector<CompletionItem>* items) {
  std::optional<CallSite> site = InnermostCall(text, scan);
  if (!site || site->bracket != &scan.open.back()) return;
  const std::vector<uint32_t>& starts = site->bracket->arg_starts;
  if (!TrimLeft(text.substr(starts.back(), begin - starts.back())).empty()) return;
  const ModuleModel* module = nullptr;
  if (RootOf(model, text, begin, site->chain.parts[0], &module) == Root::kModule) return;
  std::optional<Callable> c = ResolveCallable(model, text, begin, site->chain);
  if (!c) return;
  std::set<int> given;
  size_t positional = 0;
  for (size_t k = 0; k + 1 < starts.size(); ++k) {
    std::string_view arg = TrimLeft(text.substr(starts[k], starts[k + 1] - 1 - starts[k]));
    std::string_view kw = KeywordOf(arg);
    if (!kw.empty()) {
      given.insert(SlotByName(*c, kw));
    } else if (!arg.empty() && arg.front() != '*') {
      ++positional;
    }
  }
  for (size_t i = 0; i < c->slots.size(); ++i) {
    const Slot& s = c->slots[i];
    if (s.var_positional || s.var_keyword || given.count(static_cast<int>(i))) continue;
    if (i < positional && !s.keyword_only) continue;  // bound by position
    CompletionItem item;
    item.label = s.name + "=";
    item.kind = Kind::kVariable;
    TextRange r = c->ranges[i];
    item.detail = c->label.substr(r.begin, r.size());
    item.doc = "Parameter of " + Join(site->chain.parts, 0) + ".";
    items->push_back(std::move(item));
  }
}

// The word before `begin` on its line (skipping blanks).
std::string_view WordBefore(std::string_view text, uint32_t begin) {
  uint32_t e = begin;
  while (e > 0 && IsBlank(text[e - 1])) --e;
  uint32_t b = e;
  while (b > 0 && IsIdentChar(text[b - 1])) --b;
  return text.substr(b, e - b);
}

}  // namespace

CompletionResult CompleteAt(const Document& doc, const FileModel& model, uint32_t offset) {
  std::string_view text = doc.Text();
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text.size()));
  CompletionResult result;
  result.replace = {offset, offset};
  ScanState scan = Scan(text, offset);
  if (scan.in_comment) return result;
  if (scan.in_string) {
    if (std::optional<CompletionResult> dtypes = DtypeStringItems(model, text, scan, offset)) return *dtypes;
    return result;
  }
  uint32_t begin = offset;
  while (begin > 0 && IsIdentChar(text[begin - 1])) --begin;
  result.replace = {begin, offset};
  if (begin < offset && IsDigit(text[begin])) return result;  // a number
  if (begin > 0 && text[begin - 1] == '.') {
    std::optional<Chain> chain = ChainEndingAt(text, begin - 1);
    if (!chain || !chain->rooted) return result;  // `f(x).`, `a[0].`, `1.`
    const ModuleModel* module = nullptr;
    Root root = RootOf(model, text, offset, chain->parts[0], &module);
    switch (root) {
      case Root::kNone:
        return result;
      case Root::kModule:
        if (chain->parts.size() == 1) result.items = ModuleItems(*module, chain->parts[0], EraOf(model));
        return result;
      case Root::kRelax:
      case Root::kTir:
      case Root::kIr:
        result.items = NamespaceItems(DialectOf(root), *chain, EraOf(model));
        return result;
    }
    return result;
  }
  static const char* const kDefining[] = {"def", "class", "as", "import", "for", "from", "lambda", "global",
                                          "nonlocal"};
  std::string_view word = WordBefore(text, begin);
  for (const char* k : kDefining) {
    if (word == k) return result;
  }
  result.items = BareItems(model, text, begin);
  KeywordItems(model, text, scan, begin, &result.items);
  SortItems(&result.items);
  return result;
}

std::optional<SignatureHelp> SignatureHelpAt(const Document& doc, const FileModel& model, uint32_t offset) {
  std::string_view text = doc.Text();
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text.size()));
  ScanState scan = Scan(text, offset);
  if (scan.in_comment) return std::nullopt;
  std::optional<CallSite> site = InnermostCall(text, scan);
  if (!site) return std::nullopt;
  std::optional<Callable> c = ResolveCallable(model, text, offset, site->chain);
  if (!c) return std::nullopt;
  uint32_t at_offset = scan.in_string ? scan.string_begin : offset;
  ArgPosition at = LocateArgument(*c, text, *site->bracket, at_offset);
  SignatureHelp help;
  help.label = std::move(c->label);
  help.params = std::move(c->ranges);
  help.active_param = at.slot;
  help.doc = std::move(c->doc);
  return help;
}

}  // namespace tvmls::analysis
