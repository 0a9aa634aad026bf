#include "query/semantic_tokens.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <string_view>

#include "model/syntax_util.h"
#include "ops/registry.h"
#include "query/query_internal.h"
#include "vocab/dtype.h"
#include "vocab/script_names.h"

namespace tvmls::analysis {

namespace {

using Type = SemanticTokenType;
using query_internal::IsIdentChar;
using query_internal::ScanStart;
using vocab::Dialect;
using vocab::NameKind;
using vocab::ScriptName;

// clang-format off
constexpr SemanticTokenTypeInfo kLegend[kSemanticTokenTypeCount] = {
    {"namespace", "namespace"},
    {"class", "class"},
    {"type", "type"},
    {"dtype", "type"},
    {"function", "function"},
    {"decorator", "decorator"},
    {"parameter", "parameter"},
    {"variable", "variable"},
    {"buffer", "variable"},
    {"typeParameter", "typeParameter"},
};
constexpr const char* kModifierNames[kSemanticTokenModifierCount] = {
    "declaration", "readonly", "defaultLibrary", "deprecated"};
// clang-format on

// The token for `name` at `r`: `r` itself when it spells the name, else the name's first
// whole-word occurrence inside it (a symbolic variable defined by the string `"n"`); empty when
// neither.
TextRange NameRange(std::string_view text, TextRange r, std::string_view name) {
  if (r.end > text.size() || r.begin >= r.end || name.empty()) return {};
  std::string_view s = text.substr(r.begin, r.size());
  if (s == name) return r;
  for (size_t at = s.find(name); at != std::string_view::npos; at = s.find(name, at + 1)) {
    bool left = at == 0 || !IsIdentChar(s[at - 1]);
    bool right = at + name.size() == s.size() || !IsIdentChar(s[at + name.size()]);
    if (left && right) {
      uint32_t b = r.begin + static_cast<uint32_t>(at);
      return {b, b + static_cast<uint32_t>(name.size())};
    }
  }
  return {};
}

bool Intersects(TextRange a, TextRange b) { return a.begin < b.end && b.begin < a.end; }

// What each symbol kind is highlighted as.
struct SymbolStyle {
  Type type;
  uint32_t modifiers;
};
SymbolStyle StyleOf(Symbol::Kind kind) {
  switch (kind) {
    case Symbol::Kind::kRelaxVar: return {Type::kVariable, 0};
    case Symbol::Kind::kRelaxParam: return {Type::kParameter, 0};
    case Symbol::Kind::kSymbolicVar: return {Type::kSymbolicVar, kModReadonly};
    case Symbol::Kind::kBuffer: return {Type::kBuffer, 0};
    case Symbol::Kind::kTirVar: return {Type::kVariable, 0};
    case Symbol::Kind::kFunction: return {Type::kFunction, 0};
  }
  return {Type::kVariable, 0};
}

// A string TVM reads as a dtype, in any spelling it accepts ("float32", "int", "void"); not
// the empty string, which TVM reads as void too.
bool IsDtypeString(std::string_view value) {
  return !value.empty() && vocab::ParseDType(value).has_value();
}

// Sub-namespaces of R. that hold operators: every proper prefix of an op's script path.
const std::set<std::string, std::less<>>& OpNamespaces() {
  static const std::set<std::string, std::less<>> namespaces = [] {
    std::set<std::string, std::less<>> out;
    for (const ops::OpInfo& op : ops::AllOps()) {
      for (const char* path : {op.script, op.current_script}) {
        if (path == nullptr) continue;
        std::string_view p(path);
        for (size_t dot = p.find('.'); dot != std::string_view::npos; dot = p.find('.', dot + 1)) {
          out.emplace(p.substr(0, dot));
        }
      }
    }
    return out;
  }();
  return namespaces;
}

enum class Root { kNone, kRelax, kTir, kIr };

// What a call's arguments are, for dtype strings: the positional slot that takes a dtype, and
// whether a lone first string is one (`R.Tensor("float32")`). `dtype=` / `out_dtype=` keywords
// count in every call of a TVMScript name.
struct CalleeInfo {
  bool known = false;
  int dtype_slot = -1;
  bool lone_first = false;
};

// The positional index of an op's dtype parameter; -1 when none.
int DtypeSlot(const ops::OpInfo& op) {
  if (std::string_view(op.name) == "script.dtype") return 0;
  for (size_t i = 0; i < op.params.size(); ++i) {
    const ops::Param& p = op.params[i];
    if (ops::IsVarPositional(p) || p.keyword_only) return -1;
    std::string_view name(p.name);
    if (name == "dtype" || name == "out_dtype") return static_cast<int>(i);
  }
  return -1;
}

bool IsBlank(char c) { return c == ' ' || c == '\t'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// A lexical pass over the text (strings, comments, brackets, identifiers): the syntax tree is not
// walked because visiting its nodes costs more than the whole pass (a tree-sitter cursor takes
// about 75 ns per node, 135 ms over the 1.8 million nodes of a 100k-line file), and the text is
// what matters on broken lines anyway.
//
// Tokens: attribute chains headed by an alias (`R.nn.conv2d`, `@T.prim_func`), import aliases,
// dtype strings that are a whole argument in a dtype position of an R./T./I. call.
class Lexer {
 public:
  Lexer(std::string_view text, const FileModel& model, TextRange range, std::vector<SemanticToken>* out)
      : text_(text), model_(model), range_(range), out_(out) {}

  void Run() {
    uint32_t i = ScanStart(text_, range_.begin);
    const uint32_t n = static_cast<uint32_t>(text_.size());
    bool line_start = true;
    while (i < n) {
      if (line_start) {
        line_start = false;
        if (i >= range_.end) break;
        i = LineStart(i);
        if (i >= n) break;
      }
      char c = text_[i];
      if (c == '\n') {
        line_start = true;
        if (open_.empty()) statement_ = Statement::kOther;
        ++i;
      } else if (IsBlank(c) || c == '\r' || c == '\f') {
        ++i;
      } else if (c == '\\') {
        i += 2;  // line continuation
      } else if (c == '#') {
        while (i < n && text_[i] != '\n') ++i;
      } else if (c == '"' || c == '\'') {
        i = String(i, i);
      } else if (IsIdentChar(c)) {
        i = Word(i);
      } else if (c == '(' || c == '[' || c == '{') {
        Content();
        open_.push_back(Bracket{c, c == '(' ? pending_ : CalleeInfo{}});
        pending_ = CalleeInfo{};
        ++i;
      } else if (c == ')' || c == ']' || c == '}') {
        char want = c == ')' ? '(' : c == ']' ? '[' : '{';
        for (size_t k = open_.size(); k > 0; --k) {
          if (open_[k - 1].ch == want) {
            open_.resize(k - 1);
            break;
          }
        }
        pending_ = CalleeInfo{};
        ++i;
      } else if (c == ',') {
        if (!open_.empty()) {
          Bracket& b = open_.back();
          if (b.keyword.empty() && b.content) ++b.positional;
          b.keyword = {};
          b.content = false;
          ++b.arg;
        }
        pending_ = CalleeInfo{};
        ++i;
      } else {
        Content();
        pending_ = CalleeInfo{};
        ++i;
      }
    }
  }

 private:
  struct Bracket {
    char ch = '(';
    CalleeInfo callee;
    int arg = 0;          // index of the current argument
    int positional = 0;   // positional arguments before it
    std::string_view keyword;  // `name=` of the current argument
    bool content = false;      // the current argument has begun
  };
  enum class Statement { kOther, kDecorator, kImport };

  void Emit(TextRange r, Type type, uint32_t modifiers) { out_->push_back({r, type, modifiers}); }

  void Content() {
    if (!open_.empty()) open_.back().content = true;
  }

  // At the start of a line: the statement it begins (outside brackets), and dropping the brackets
  // of an abandoned statement (a line not indented deeper than the statement's first line, not
  // starting with a closing bracket: broken code left a bracket open). Returns the first
  // non-blank offset.
  uint32_t LineStart(uint32_t i) {
    uint32_t first = i;
    while (first < text_.size() && IsBlank(text_[first])) ++first;
    uint32_t indent = first - i;
    if (first >= text_.size()) return first;
    char c = text_[first];
    if (c == '\n' || c == '\r' || c == '#') return first;
    if (!open_.empty() && indent <= statement_indent_ && c != ')' && c != ']' && c != '}') open_.clear();
    if (open_.empty()) {
      statement_indent_ = indent;
      std::string_view rest = text_.substr(first);
      if (c == '@') {
        statement_ = Statement::kDecorator;
      } else if ((rest.substr(0, 5) == "from " || rest.substr(0, 7) == "import ")) {
        statement_ = Statement::kImport;
      } else {
        statement_ = Statement::kOther;
      }
    }
    return first;
  }

  // A string literal starting at `begin` (its quote at `quote`): skipped; a dtype token when it
  // is a dtype argument.
  uint32_t String(uint32_t begin, uint32_t quote) {
    char q = text_[quote];
    bool triple = quote + 2 < text_.size() && text_[quote + 1] == q && text_[quote + 2] == q;
    uint32_t content = quote + (triple ? 3 : 1);
    uint32_t end = content;
    bool escapes = false;
    bool closed = false;
    while (end < text_.size()) {
      char c = text_[end];
      if (c == '\\') {
        escapes = true;
        end += 2;
        continue;
      }
      if (!triple && c == '\n') break;
      if (c == q && (!triple || (end + 2 < text_.size() && text_[end + 1] == q && text_[end + 2] == q))) {
        closed = true;
        break;
      }
      ++end;
    }
    end = std::min<uint32_t>(end, static_cast<uint32_t>(text_.size()));
    uint32_t after = closed ? end + (triple ? 3 : 1) : end;
    if (closed && !triple && !escapes && begin == quote && !open_.empty()) {
      DtypeString({begin, after}, text_.substr(content, end - content));
    }
    Content();
    pending_ = CalleeInfo{};
    return after;
  }

  void DtypeString(TextRange literal, std::string_view value) {
    const Bracket& b = open_.back();
    if (!b.callee.known || b.content || !IsDtypeString(value)) return;
    // The string must be the whole argument: a comma or the closing parenthesis follows.
    uint32_t j = literal.end;
    while (j < text_.size() && (IsBlank(text_[j]) || text_[j] == '\n' || text_[j] == '\r')) ++j;
    if (j >= text_.size() || (text_[j] != ',' && text_[j] != ')')) return;
    bool dtype;
    if (!b.keyword.empty()) {
      dtype = b.keyword == "dtype" || b.keyword == "out_dtype";
    } else {
      dtype = b.positional == b.arg &&
              (b.positional == b.callee.dtype_slot ||
               (b.callee.lone_first && b.arg == 0 && text_[j] == ')'));
    }
    if (dtype) Emit(literal, Type::kDtype, 0);
  }

  // An identifier (or number) at `b`: a chain of attributes, a keyword argument name, a string
  // prefix, or an import alias.
  uint32_t Word(uint32_t b) {
    uint32_t e = b;
    while (e < text_.size() && IsIdentChar(text_[e])) ++e;
    if (IsDigit(text_[b])) {  // a number: 1e-05, 0x1f, 1.5 (the dot and the rest come next)
      Content();
      pending_ = CalleeInfo{};
      return e;
    }
    if (e < text_.size() && (text_[e] == '"' || text_[e] == '\'') && e - b <= 2) return String(b, e);
    if (b > 0 && text_[b - 1] == '.') {  // an attribute of something that is not a name: f().x
      Content();
      pending_ = CalleeInfo{};
      return e;
    }
    std::string_view word = text_.substr(b, e - b);
    if (statement_ == Statement::kImport) {
      Import(b, e, word);
      return e;
    }
    // `name=` at the start of an argument.
    if (!open_.empty() && !open_.back().content) {
      uint32_t j = e;
      while (j < text_.size() && IsBlank(text_[j])) ++j;
      if (j < text_.size() && text_[j] == '=' && (j + 1 >= text_.size() || text_[j + 1] != '=')) {
        open_.back().keyword = word;
        return j + 1;
      }
    }
    Content();
    // The chain `word(.ident)*`.
    std::vector<std::string_view>& parts = parts_;
    std::vector<TextRange>& ranges = ranges_;
    parts.assign(1, word);
    ranges.assign(1, TextRange{b, e});
    while (e + 1 < text_.size() && text_[e] == '.' && IsIdentChar(text_[e + 1]) && !IsDigit(text_[e + 1])) {
      uint32_t pb = e + 1;
      uint32_t pe = pb;
      while (pe < text_.size() && IsIdentChar(text_[pe])) ++pe;
      parts.push_back(text_.substr(pb, pe - pb));
      ranges.push_back({pb, pe});
      e = pe;
    }
    bool decorator = statement_ == Statement::kDecorator && b > 0 && LastNonBlankBefore(b) == '@';
    pending_ = Chain(decorator);
    return e;
  }

  char LastNonBlankBefore(uint32_t i) const {
    while (i > 0 && IsBlank(text_[i - 1])) --i;
    return i > 0 ? text_[i - 1] : '\n';
  }

  Root RootOf(std::string_view head) const {
    // The sets hold one or two names: a scan beats building a std::string per identifier.
    auto in = [head](const std::set<std::string>& names) {
      for (const std::string& n : names) {
        if (n == head) return true;
      }
      return false;
    };
    if (in(model_.aliases.relax)) return Root::kRelax;
    if (in(model_.aliases.tir)) return Root::kTir;
    if (in(model_.aliases.ir)) return Root::kIr;
    return Root::kNone;
  }

  // Tokens for an alias and the known parts after it; what a call of the chain takes.
  CalleeInfo Chain(bool decorator) {
    CalleeInfo callee;
    Root root = RootOf(parts_[0]);
    if (root == Root::kNone) return callee;
    callee.known = true;
    Emit(ranges_[0], Type::kNamespace, 0);
    const Dialect dialect = root == Root::kRelax ? Dialect::kRelax : root == Root::kTir ? Dialect::kTir
                                                                                         : Dialect::kIr;
    std::string& path = path_;
    path.clear();
    for (size_t k = 1; k < parts_.size(); ++k) {
      if (k > 1) path += '.';
      path += parts_[k];
      const bool last = k + 1 == parts_.size();
      const uint32_t lib = kModDefaultLibrary;
      if (root == Root::kRelax) {
        if (const ops::OpInfo* op = ops::FindOp(path)) {
          Emit(ranges_[k], decorator && last ? Type::kDecorator : Type::kFunction, lib);
          callee.dtype_slot = last ? DtypeSlot(*op) : -1;
          return callee;
        }
      }
      if (const ScriptName* name = vocab::FindScriptName(dialect, path, model_.aliases.classic, model_.aliases.current)) {
        uint32_t mods = lib | (name->deprecated ? uint32_t{kModDeprecated} : 0u);
        if (last) {
          callee.dtype_slot = name->dtype_arg;
          callee.lone_first = root == Root::kRelax && path == "Tensor";
        }
        if (decorator && last) {
          Emit(ranges_[k], Type::kDecorator, mods);
          return callee;
        }
        switch (name->kind) {
          case NameKind::kNamespace:
            Emit(ranges_[k], Type::kNamespace, mods);
            continue;
          case NameKind::kType: Emit(ranges_[k], Type::kType, mods); break;
          case NameKind::kDtype: Emit(ranges_[k], Type::kDtype, mods); break;
          case NameKind::kFunction:
          case NameKind::kKeyword: Emit(ranges_[k], Type::kFunction, mods); break;
        }
        return callee;
      }
      if (root == Root::kRelax && OpNamespaces().count(path)) {
        Emit(ranges_[k], Type::kNamespace, lib);
        continue;
      }
      if (root == Root::kTir && k == 1 && vocab::IsKnownDType(path)) {  // with lanes: T.float32x4
        Emit(ranges_[k], Type::kDtype, lib);
      }
      return callee;
    }
    return callee;
  }

  // In an import statement: a name bound to a TVMScript namespace (`relax as R`: R; `import
  // relax`: relax) is declared here.
  void Import(uint32_t b, uint32_t e, std::string_view word) {
    if (RootOf(word) == Root::kNone) return;
    uint32_t j = e;
    while (j < text_.size() && IsBlank(text_[j])) ++j;
    if (j < text_.size() && text_[j] == '.') return;                       // a module path
    if (text_.substr(j, 3) == "as " || text_.substr(j, 3) == "as\t") return;  // renamed
    uint32_t p = b;
    while (p > 0 && IsBlank(text_[p - 1])) --p;
    uint32_t q = p;
    while (q > 0 && IsIdentChar(text_[q - 1])) --q;
    std::string_view before = text_.substr(q, p - q);
    bool bound = before == "import" || before == "as" || (p > 0 && (text_[p - 1] == ',' || text_[p - 1] == '('));
    if (bound) Emit({b, e}, Type::kNamespace, kModDeclaration);
  }

  std::string_view text_;
  const FileModel& model_;
  TextRange range_;
  std::vector<SemanticToken>* out_;
  std::vector<Bracket> open_;
  uint32_t statement_indent_ = 0;
  Statement statement_ = Statement::kOther;
  CalleeInfo pending_;  // the chain just read, for a `(` that follows it
  std::vector<std::string_view> parts_;
  std::vector<TextRange> ranges_;
  std::string path_;
};

void ModelTokens(std::string_view text, const FileModel& model, TextRange range, std::vector<SemanticToken>* out) {
  auto emit = [&](TextRange r, std::string_view name, Type type, uint32_t modifiers) {
    TextRange t = NameRange(text, r, name);
    if (!t.empty() && Intersects(t, range)) out->push_back({t, type, modifiers});
  };
  auto function = [&](const FunctionRef& f) {
    if (!Intersects(Absolute(f, f.fn->range), range)) return;
    const FunctionModel& fn = *f.fn;
    emit(Absolute(f, fn.name_range), fn.name, Type::kFunction, kModDeclaration);
    for (const Symbol& s : fn.symbols) {
      SymbolStyle style = StyleOf(s.kind);
      emit(Absolute(f, s.definition), s.name, style.type, style.modifiers | kModDeclaration);
      for (TextRange r : s.references) emit(Absolute(f, r), s.name, style.type, style.modifiers);
    }
    for (const auto& [callee, r] : fn.calls) {
      // The reference is the whole `cls.f`: the token is its last part.
      TextRange abs = Absolute(f, r);
      if (abs.size() > callee.size()) emit({abs.end - static_cast<uint32_t>(callee.size()), abs.end}, callee, Type::kFunction, 0);
    }
  };
  for (const ModuleModel& m : model.modules) {
    emit(m.name_range, m.name, Type::kClass, kModDeclaration);
    for (const FunctionRef& f : m.functions) function(f);
  }
  for (const FunctionRef& f : model.standalone) function(f);
}

bool Before(const SemanticToken& a, const SemanticToken& b) {
  return a.range.begin != b.range.begin ? a.range.begin < b.range.begin : a.range.end < b.range.end;
}

// Sorted, without overlaps, empty or multi-line tokens. `tokens` is sorted from `sorted_from` on
// (the lexer's, in text order): only the model's part is sorted before the merge.
std::vector<SemanticToken> Normalize(std::string_view text, std::vector<SemanticToken> tokens, size_t sorted_from) {
  auto middle = tokens.begin() + static_cast<std::ptrdiff_t>(sorted_from);
  std::sort(tokens.begin(), middle, Before);
  if (!std::is_sorted(middle, tokens.end(), Before)) std::sort(middle, tokens.end(), Before);
  std::inplace_merge(tokens.begin(), middle, tokens.end(), Before);
  std::vector<SemanticToken> out;
  out.reserve(tokens.size());
  uint32_t covered = 0;
  for (const SemanticToken& t : tokens) {
    if (t.range.empty() || t.range.end > text.size() || t.range.begin < covered) continue;
    if (std::memchr(text.data() + t.range.begin, '\n', t.range.size()) != nullptr) continue;
    out.push_back(t);
    covered = t.range.end;
  }
  return out;
}

}  // namespace

const SemanticTokenTypeInfo* SemanticTokenLegend() { return kLegend; }

const char* const* SemanticTokenModifierNames() { return kModifierNames; }

std::vector<SemanticToken> SemanticTokensInRange(const Document& doc, const FileModel& model, TextRange range) {
  std::string_view text = doc.Text();
  range.end = std::min<uint32_t>(range.end, static_cast<uint32_t>(text.size()));
  std::vector<SemanticToken> tokens;
  if (range.begin >= range.end) return tokens;
  ModelTokens(text, model, range, &tokens);
  size_t model_count = tokens.size();
  Lexer(text, model, range, &tokens).Run();
  std::vector<SemanticToken> out = Normalize(text, std::move(tokens), model_count);
  out.erase(std::remove_if(out.begin(), out.end(), [&](const SemanticToken& t) { return !Intersects(t.range, range); }),
            out.end());
  return out;
}

std::vector<SemanticToken> SemanticTokens(const Document& doc, const FileModel& model) {
  return SemanticTokensInRange(doc, model, {0, static_cast<uint32_t>(doc.Text().size())});
}

namespace {

bool SameAliases(const Aliases& a, const Aliases& b) {
  return a.ir == b.ir && a.relax == b.relax && a.tir == b.tir && a.tvm == b.tvm &&
         a.classic == b.classic && a.current == b.current;
}

// A line that begins a definition at column 0 (`def`, `async def`, `class`, a decorator): the
// lexer drops every open bracket there (no line is indented less), so its state there depends on
// no earlier text but an open triple-quoted string.
bool TopLevelDefinition(std::string_view text, uint32_t line) {
  std::string_view rest = text.substr(line);
  auto starts_with = [&](std::string_view prefix) { return rest.substr(0, prefix.size()) == prefix; };
  return starts_with("def ") || starts_with("class ") || starts_with("@") || starts_with("async def ");
}

// The start of the nearest such line at or before `offset`, or 0.
uint32_t TopLevelDefinitionBefore(std::string_view text, uint32_t offset) {
  uint32_t line = LineStart(text, offset);
  while (line > 0 && !TopLevelDefinition(text, line)) line = LineStart(text, line - 1);
  return line;
}

// The start of the first such line at or after `line` (a line start), or the text's size.
uint32_t TopLevelDefinitionAfter(std::string_view text, uint32_t line) {
  while (line < text.size() && !TopLevelDefinition(text, line)) {
    size_t newline = text.find('\n', line);
    if (newline == std::string_view::npos) return static_cast<uint32_t>(text.size());
    line = static_cast<uint32_t>(newline + 1);
  }
  return std::min<uint32_t>(line, static_cast<uint32_t>(text.size()));
}

void Widen(TextRange* r, TextRange by) {
  if (r->empty() && r->begin == UINT32_MAX) {
    *r = by;
  } else {
    r->begin = std::min(r->begin, by.begin);
    r->end = std::max(r->end, by.end);
  }
}

}  // namespace

void SemanticTokenTracker::Remember(const Document& doc, const FileModel& model) {
  valid_ = true;
  document_ = doc.Id();
  revision_ = doc.Revision();
  size_ = static_cast<uint32_t>(doc.Text().size());
  aliases_ = model.aliases;
  functions_.clear();
  modules_.clear();
  auto add = [&](const FunctionRef& f) {
    functions_.push_back({f.fn.get(), f.fn, Absolute(f, f.fn->range)});
  };
  for (const ModuleModel& m : model.modules) {
    modules_.push_back({m.name, m.name_range});
    for (const FunctionRef& f : m.functions) add(f);
  }
  for (const FunctionRef& f : model.standalone) add(f);
}

SemanticTokenTracker::Change SemanticTokenTracker::FromScratch(const Document& doc, const FileModel& model) {
  size_t removed = tokens_.size();
  tokens_ = SemanticTokens(doc, model);
  tokens_.shrink_to_fit();  // kept until the next update: no spare room from Normalize
  Remember(doc, model);
  return {0, removed, tokens_.size()};
}

SemanticTokenTracker::Change SemanticTokenTracker::Update(const Document& doc, const FileModel& model) {
  std::vector<EditSpan> edits;
  if (!valid_ || doc.Id() != document_ || !SameAliases(aliases_, model.aliases) ||
      !doc.EditsSince(revision_, &edits)) {
    return FromScratch(doc, model);
  }
  std::string_view text = doc.Text();
  const uint32_t size = static_cast<uint32_t>(text.size());
  // The edited stretch [lo, hi) in the current text: the text before lo is the old text, the
  // text from hi on is the old text from hi - shift on.
  constexpr uint32_t kNone = UINT32_MAX;
  TextRange stretch{kNone, kNone};
  for (const EditSpan& e : edits) {
    if (stretch.begin == kNone) {
      stretch = {e.begin, e.new_end};
      continue;
    }
    int64_t moved = int64_t{e.new_end} - int64_t{e.old_end};
    auto map = [&](uint32_t at, uint32_t inside) {
      if (at < e.begin) return at;
      if (at >= e.old_end) return static_cast<uint32_t>(at + moved);
      return inside;
    };
    uint32_t b = stretch.begin < e.begin ? stretch.begin : map(stretch.begin, e.begin);
    uint32_t en = stretch.end <= e.begin ? stretch.end : map(stretch.end, e.new_end);
    stretch = {std::min(b, e.begin), std::max(en, e.new_end)};
  }
  const int64_t shift = int64_t{size} - int64_t{size_};
  const bool edited = stretch.begin != kNone;
  // An old range, in current coordinates (a part inside the stretch becomes all of it).
  auto moved = [&](TextRange r) -> TextRange {
    if (!edited) return r;
    auto one = [&](uint32_t at, bool end) -> uint32_t {
      if (at < stretch.begin || (end && at == stretch.begin)) return at;
      if (int64_t{at} >= int64_t{stretch.end} - shift) return static_cast<uint32_t>(at + shift);
      return end ? stretch.end : stretch.begin;
    };
    return {one(r.begin, false), one(r.end, true)};
  };

  // What to compute again: the stretch, the functions whose models are new or gone, the modules
  // whose names are.
  TextRange dirty = edited ? stretch : TextRange{kNone, kNone};
  // A model that is gone is not in `before`: a new model at its address is new.
  std::vector<const FunctionModel*> before;
  before.reserve(functions_.size());
  for (const Function& f : functions_) {
    if (!f.alive.expired()) before.push_back(f.fn);
  }
  std::sort(before.begin(), before.end());
  std::vector<const FunctionModel*> now;
  auto function = [&](const FunctionRef& f) {
    now.push_back(f.fn.get());
    if (!std::binary_search(before.begin(), before.end(), f.fn.get())) Widen(&dirty, Absolute(f, f.fn->range));
  };
  for (const ModuleModel& m : model.modules) {
    for (const FunctionRef& f : m.functions) function(f);
  }
  for (const FunctionRef& f : model.standalone) function(f);
  std::sort(now.begin(), now.end());
  for (const Function& f : functions_) {
    if (f.alive.expired() || !std::binary_search(now.begin(), now.end(), f.fn)) {
      Widen(&dirty, moved(f.range));
    }
  }
  for (const ModuleModel& m : model.modules) {
    bool known = std::any_of(modules_.begin(), modules_.end(), [&](const Module& old) {
      return old.name == m.name && moved(old.name_range) == m.name_range;
    });
    if (!known) Widen(&dirty, m.name_range);
  }
  for (const Module& old : modules_) {
    bool kept = std::any_of(model.modules.begin(), model.modules.end(), [&](const ModuleModel& m) {
      return old.name == m.name && moved(old.name_range) == m.name_range;
    });
    if (!kept) Widen(&dirty, moved(old.name_range));
  }
  if (dirty.begin == kNone) {  // Nothing changed.
    Remember(doc, model);
    return {0, 0, 0};
  }

  // From the definition line at or before the first change to the definition line after the
  // line of the last one: lines, so that no token crosses the boundaries.
  dirty.end = std::min(dirty.end, size);
  dirty.begin = std::min(dirty.begin, dirty.end);
  // Quotes or a line continuation typed may open a string that runs past any boundary.
  if (edited && text.substr(stretch.begin, stretch.size()).find_first_of("\"'\\") != std::string_view::npos) {
    return FromScratch(doc, model);
  }
  uint32_t b = TopLevelDefinitionBefore(text, dirty.begin);
  size_t newline = text.find('\n', dirty.end);
  uint32_t e = newline == std::string_view::npos ? size : TopLevelDefinitionAfter(text, static_cast<uint32_t>(newline + 1));
  std::vector<SemanticToken> fresh = b < e ? SemanticTokensInRange(doc, model, {b, e}) : std::vector<SemanticToken>{};
  // The old tokens of [b, e): b is before the stretch (old coordinates too), e after it.
  const uint32_t old_e = static_cast<uint32_t>(int64_t{e} - shift);
  auto begins_before = [](const SemanticToken& t, uint32_t at) { return t.range.begin < at; };
  auto first = std::lower_bound(tokens_.begin(), tokens_.end(), b, begins_before);
  auto last = std::lower_bound(first, tokens_.end(), old_e, begins_before);
  for (auto it = last; it != tokens_.end(); ++it) {
    it->range.begin = static_cast<uint32_t>(it->range.begin + shift);
    it->range.end = static_cast<uint32_t>(it->range.end + shift);
  }
  Change change{static_cast<size_t>(first - tokens_.begin()), static_cast<size_t>(last - first), fresh.size()};
  size_t common = std::min(change.removed, change.inserted);
  std::copy(fresh.begin(), fresh.begin() + static_cast<std::ptrdiff_t>(common), first);
  if (change.removed > common) {
    tokens_.erase(first + static_cast<std::ptrdiff_t>(common), last);
  } else {
    // Room for 1/64 more, not the vector's doubling: the tokens of a 100k-line file are 4 MB.
    size_t count = tokens_.size() + (change.inserted - common);
    if (count > tokens_.capacity()) {
      size_t at = static_cast<size_t>(last - tokens_.begin());
      tokens_.reserve(count + count / 64);
      last = tokens_.begin() + static_cast<std::ptrdiff_t>(at);
    }
    tokens_.insert(last, fresh.begin() + static_cast<std::ptrdiff_t>(common), fresh.end());
  }
  Remember(doc, model);
  return change;
}

}  // namespace tvmls::analysis
