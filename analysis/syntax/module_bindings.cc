#include "syntax/module_bindings.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <unordered_map>
#include <utility>

#include "vocab/text_scan.h"

namespace tvmls::analysis {

namespace {

bool IsWordByte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c >= 0x80;
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// A string prefix: r, u, b, f and their two-letter mixes, in either case.
bool IsStringPrefix(std::string_view w) {
  if (w.empty() || w.size() > 2) return false;
  for (char c : w) {
    char l = static_cast<char>(c | 0x20);
    if (l != 'r' && l != 'u' && l != 'b' && l != 'f') return false;
  }
  return true;
}

struct Token {
  enum Kind : uint8_t { kWord, kOp, kOther } kind = kOther;
  int depth = 0;          // brackets open before it
  std::string_view text;  // a word, or an operator: "=", "+=", ":=", ":", ".", ",", "(", ...
};

class Scan {
 public:
  Scan(std::string_view text, const std::vector<std::string>& names) : text_(text) {
    for (const std::string& n : names) {
      if (n.empty()) continue;
      flags_.emplace(n, std::make_pair(false, false));
      first_[static_cast<unsigned char>(n[0])] = true;
      max_len_ = std::max(max_len_, n.size());
    }
  }

  NamesInText Run() {
    Tokenize();
    NamesInText out;
    out.balanced = balanced_ && depth_ == 0;
    for (const auto& [name, f] : flags_) {
      if (f.first) out.bound.emplace_back(name);
      if (f.second) out.occurring.emplace_back(name);
    }
    std::sort(out.bound.begin(), out.bound.end());
    std::sort(out.occurring.begin(), out.occurring.end());
    return out;
  }

 private:
  // --- tokens -----------------------------------------------------------------------------------
  void Tokenize() {
    const size_t n = text_.size();
    size_t i = 0;
    bool line_start = true;
    while (i < n) {
      char c = text_[i];
      if (line_start && depth_ == 0) {
        // The indentation of a line outside brackets (blank and comment lines start nothing).
        int column = 0;
        while (i < n && (text_[i] == ' ' || text_[i] == '\t' || text_[i] == '\f')) {
          column = text_[i] == '\t' ? (column / 8 + 1) * 8 : column + 1;
          ++i;
        }
        line_start = false;
        if (tokens_.empty()) indent_ = column;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
        ++i;
      } else if (c == '\\' && i + 1 < n && (text_[i + 1] == '\n' || text_[i + 1] == '\r')) {
        i += text_[i + 1] == '\r' && i + 2 < n && text_[i + 2] == '\n' ? 3 : 2;
      } else if (c == '\n') {
        ++i;
        if (depth_ == 0) {
          EndStatement();
          line_start = true;
        }
      } else if (c == '#') {
        while (i < n && text_[i] != '\n') ++i;
      } else if (c == '"' || c == '\'') {
        i = SkipString(i);
        Push(Token::kOther, i, i);
      } else if (IsDigit(c) || (c == '.' && i + 1 < n && IsDigit(text_[i + 1]))) {
        size_t start = i;
        while (i < n && (IsWordByte(static_cast<unsigned char>(text_[i])) || text_[i] == '.')) {
          char e = static_cast<char>(text_[i] | 0x20);
          ++i;
          if (e == 'e' && i < n && (text_[i] == '+' || text_[i] == '-')) ++i;
        }
        Push(Token::kOther, start, i);
      } else if (IsWordByte(static_cast<unsigned char>(c))) {
        size_t start = i;
        while (i < n && IsWordByte(static_cast<unsigned char>(text_[i]))) ++i;
        std::string_view w = text_.substr(start, i - start);
        if (i < n && (text_[i] == '"' || text_[i] == '\'') && IsStringPrefix(w)) {
          i = SkipString(i);
          Push(Token::kOther, start, i);
        } else {
          Push(Token::kWord, start, i);
        }
      } else {
        i = Operator(i);
      }
    }
    EndStatement();
  }

  // The end of the string literal whose quote is at `i` (vocab::StringLiteralAt: a one-quote
  // literal open at its line end ends there, as in the grammar's scanner). A triple-quoted
  // literal open at the end unbalances the text.
  size_t SkipString(size_t i) {
    vocab::StringLiteral literal = vocab::StringLiteralAt(text_, i);
    if (literal.triple && !literal.closed) balanced_ = false;
    return literal.end;
  }

  // Pushes the operator at `i`; returns the index after it.
  size_t Operator(size_t i) {
    const size_t n = text_.size();
    char c = text_[i];
    auto next = [&](size_t k) { return i + k < n ? text_[i + k] : '\0'; };
    size_t len = 1;
    if (c == '(' || c == '[' || c == '{') {
      Push(Token::kOp, i, i + 1);
      ++depth_;
      return i + 1;
    }
    if (c == ')' || c == ']' || c == '}') {
      if (depth_ > 0) --depth_;

      Push(Token::kOp, i, i + 1);
      return i + 1;
    }
    if (c == ';' && depth_ == 0) {
      EndStatement();
      return i + 1;
    }
    if (c == ':' || c == '=' || c == '!') {
      len = next(1) == '=' ? 2 : 1;  // ":=", "==", "!="
    } else if ((c == '<' || c == '>') && next(1) == c) {
      len = next(2) == '=' ? 3 : 2;  // "<<=", ">>=", "<<", ">>"
    } else if ((c == '*' || c == '/') && next(1) == c) {
      len = next(2) == '=' ? 3 : 2;  // "**=", "//=", "**", "//"
    } else if (c == '-' && next(1) == '>') {
      len = 2;
    } else if (std::string_view("+-*/%&|^@<>").find(c) != std::string_view::npos) {
      len = next(1) == '=' ? 2 : 1;
    }
    Push(Token::kOp, i, i + len);
    return i + len;
  }

  void Push(Token::Kind kind, size_t begin, size_t end) {
    Token t;
    t.kind = kind;
    t.depth = depth_;
    t.text = text_.substr(begin, end - begin);
    if (kind == Token::kWord) {
      if (Flags* f = Asked(t.text)) f->second = true;
    }
    tokens_.push_back(t);
  }

  // --- statements -------------------------------------------------------------------------------
  using Flags = std::pair<bool, bool>;  // (bound, occurring)
  Flags* Asked(std::string_view w) {
    if (w.size() > max_len_ || !first_[static_cast<unsigned char>(w[0])]) return nullptr;
    auto it = flags_.find(w);
    return it == flags_.end() ? nullptr : &it->second;
  }
  void Bind(const Token& t) {
    if (t.kind != Token::kWord) return;
    if (Flags* f = Asked(t.text)) f->first = true;
  }
  static bool IsOp(const Token& t, std::string_view op) { return t.kind == Token::kOp && t.text == op; }
  static bool IsWord(const Token& t, std::string_view w) { return t.kind == Token::kWord && t.text == w; }
  static bool IsAssign(const Token& t) {
    if (t.kind != Token::kOp || t.depth != 0) return false;
    std::string_view s = t.text;
    if (s == "=") return true;
    return s.size() >= 2 && s.back() == '=' && s != "==" && s != "!=" && s != "<=" && s != ">=" &&
           s != ":=";
  }

  void EndStatement() {
    if (!tokens_.empty()) Statement(tokens_.data(), tokens_.data() + tokens_.size());
    tokens_.clear();
  }

  // A statement at `indent_`: its place in the blocks, then what it binds.
  void Statement(const Token* b, const Token* e) {
    while (!blocks_.empty() && blocks_.back().indent >= indent_) blocks_.pop_back();
    bool global = std::none_of(blocks_.begin(), blocks_.end(), [](const Block& k) { return k.kind != Block::kOpen; });
    // Discovery counts the names of the definitions in an `I.ir_module` class as the file's
    // (model/discovery.cc, ModuleBody): the names of definitions in any class body count here.
    bool definitions_global = std::none_of(blocks_.begin(), blocks_.end(),
                                           [](const Block& k) { return k.kind == Block::kFunction; });
    const Token* head = b;
    if (IsWord(*head, "async") && head + 1 < e) ++head;
    std::string_view kw = head->kind == Token::kWord ? head->text : std::string_view();
    const Token* colon = std::find_if(b, e, [](const Token& t) { return IsOp(t, ":") && t.depth == 0; });
    bool compound = kw == "if" || kw == "elif" || kw == "else" || kw == "for" || kw == "while" ||
                    kw == "try" || kw == "except" || kw == "finally" || kw == "with" || kw == "def" ||
                    kw == "class";
    if ((kw == "match" || kw == "case") && colon != e && std::none_of(b, colon, IsAssign)) compound = true;
    if (!compound || colon == e) {
      Simple(b, e, global);
      return;
    }
    Block::Kind kind = kw == "def" ? Block::kFunction : kw == "class" ? Block::kClass : Block::kOpen;
    Header(kw, head, colon, kind == Block::kOpen ? global : definitions_global);
    if (colon + 1 < e) {
      Simple(colon + 1, e, global && kind == Block::kOpen);  // `if c: x = 1`
    } else {
      blocks_.push_back({indent_, kind});
    }
  }

  void Walrus(const Token* b, const Token* e) {
    for (const Token* t = b; t + 1 < e; ++t) {
      if (IsOp(t[1], ":=")) Bind(*t);
    }
  }

  void Header(std::string_view kw, const Token* b, const Token* e, bool global) {
    if (!global) return;
    Walrus(b, e);
    if (kw == "def" || kw == "class") {
      if (b + 1 < e) Bind(b[1]);
    } else if (kw == "for") {
      for (const Token* t = b + 1; t < e && !(IsWord(*t, "in") && t->depth == 0); ++t) Target(t, b, e);
    } else if (kw == "with") {
      const Token* as = std::find_if(b, e, [](const Token& t) { return IsWord(t, "as"); });
      for (const Token* t = as; t < e; ++t) Bind(*t);
    } else if (kw == "except" || kw == "case") {
      // Discovery counts every plain name of an `except` clause (`except ImportError:` too).
      for (const Token* t = b; t < e; ++t) Bind(*t);
    }
  }

  // `*t`, a word in a target list [b, e): bound unless it is an attribute (`x.name`) or the base of
  // an attribute, subscript or call (`name.x`, `name[0]`, `name(...)`).
  void Target(const Token* t, const Token* b, const Token* e) {
    if (t->kind != Token::kWord) return;
    if (t > b && IsOp(t[-1], ".")) return;
    if (t + 1 < e && (IsOp(t[1], ".") || IsOp(t[1], "[") || IsOp(t[1], "("))) return;
    Bind(*t);
  }

  void Simple(const Token* b, const Token* e, bool global) {
    std::string_view first = b->kind == Token::kWord ? b->text : std::string_view();
    if (first == "global" || first == "nonlocal") {
      for (const Token* t = b + 1; t < e; ++t) Bind(*t);
      return;
    }
    if (!global) return;
    Walrus(b, e);
    if (first == "import" || first == "from") {
      for (const Token* t = b + 1; t < e; ++t) Bind(*t);
      return;
    }
    if (IsOp(*b, "@")) return;  // a decorator
    // Targets: before an annotation's `:` when it comes first, else before the last `=`.
    const Token* end = nullptr;
    for (const Token* t = b; t < e; ++t) {
      if (IsOp(*t, ":") && t->depth == 0 && end == nullptr) {
        end = t;
        break;
      }
      if (IsAssign(*t)) end = t;
    }
    if (end == nullptr) return;
    for (const Token* t = b; t < end; ++t) Target(t, b, end);
  }

  std::string_view text_;
  std::unordered_map<std::string_view, Flags> flags_;
  std::array<bool, 256> first_{};
  size_t max_len_ = 0;

  int depth_ = 0;
  bool balanced_ = true;
  int indent_ = 0;
  std::vector<Token> tokens_;                 // of the statement being read
  struct Block {
    int indent = 0;  // of its header
    // A function's body binds nothing global; a class's binds the names of its definitions (see
    // Statement); the blocks of `if`, `for`, ... are the scope around them.
    enum Kind { kOpen, kClass, kFunction } kind = kOpen;
  };
  std::vector<Block> blocks_;  // the blocks the statement being read is in
};

}  // namespace

NamesInText FindModuleBindings(std::string_view text, const std::vector<std::string>& names) {
  return Scan(text, names).Run();
}

}  // namespace tvmls::analysis
