// Semantic tokens: what each TVMScript name in a file is, for highlighting beyond the syntax.
// Byte ranges; the server encodes them as LSP's relative line/character integers.
//
// Sources: the semantic model for names (its symbols' definitions and references, function and
// module names, `cls.f` references), and a lexical pass over the text (strings, comments, brackets
// and identifiers) for attribute chains of the TVMScript aliases (`R.nn.conv2d`, `T.axis.remap`,
// `I.ir_module`), import aliases and dtype strings. The pass is lexical rather than a walk of the
// syntax tree because it is several times cheaper (visiting the 1.8 million nodes of a 100k-line
// file with a tree-sitter cursor alone takes about 135 ms; the whole pass takes about 25 ms) and
// does not depend on how the parser recovered from a broken line.
//
// Only what is known is marked: an `R.` path that is neither an operator nor in the namespace
// table (vocab/script_names.h) for the file's era gets no token past its last known part (`T.block`
// in a current-era file has none); a string is a dtype only when it is a whole argument in a dtype
// position of an R./T./I. call (the op's `dtype`/`out_dtype` parameter, the table's dtype_arg, a
// `dtype=` keyword, the lone argument of `R.Tensor("float32")`) and spells a dtype.
//
// Not marked: TIR loop and block iteration variables (the model has no symbols for them), plain
// Python names, the module alias (`cls`) itself.
#ifndef TVMLS_ANALYSIS_QUERY_SEMANTIC_TOKENS_H_
#define TVMLS_ANALYSIS_QUERY_SEMANTIC_TOKENS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/model.h"
#include "syntax/document.h"
#include "text/text_range.h"

namespace tvmls::analysis {

/// Token types. SemanticTokenLegend() names each for the LSP legend; two of them are custom
/// (`dtype`, `buffer`) and carry the standard type a client without them should fall back to.
enum class SemanticTokenType : uint8_t {
  kNamespace,    // the R/T/I aliases (uses and import declarations) and sub-namespaces: nn, memory, axis
  kClass,        // the name of an `@I.ir_module` class at its definition
  kType,         // type / annotation constructors: R.Tensor, R.Shape, R.Object, R.Any, T.Buffer, T.handle
  kDtype,        // dtypes: T.float32-style names and dtype strings in dtype positions ("float32")
  kFunction,     // Relax operators (R.nn.conv2d: `conv2d`), T./R./I. builder functions, module
                 // functions (their `def` names and `cls.f` references)
  kDecorator,    // the last part of a decorator: R.function, T.prim_func, I.ir_module
  kParameter,    // Relax function parameters
  kVariable,     // Relax variables, TIR scalar variables and parameters
  kBuffer,       // TIR buffers (parameters, match_buffer, alloc_buffer, decl_buffer)
  kSymbolicVar,  // symbolic shape variables, also inside string annotations: ("n", 4)
};
constexpr int kSemanticTokenTypeCount = 10;

/// Modifier bits.
enum SemanticTokenModifier : uint32_t {
  kModDeclaration = 1u << 0,     // the defining occurrence
  kModReadonly = 1u << 1,        // symbolic shape variables
  kModDefaultLibrary = 1u << 2,  // names TVMScript provides: operators, builders, types, dtypes
  kModDeprecated = 1u << 3,      // superseded names (T.var, T.buffer_decl, R.Object in a current file)
};
constexpr int kSemanticTokenModifierCount = 4;

struct SemanticTokenTypeInfo {
  const char* name;      // the legend name
  const char* standard;  // the LSP standard type to use instead when the client lacks `name`
};

/// Indexed by SemanticTokenType: {"namespace", "namespace"}, ..., {"dtype", "type"},
/// {"buffer", "variable"}, {"typeParameter", "typeParameter"} (symbolic variables).
const SemanticTokenTypeInfo* SemanticTokenLegend();
/// Modifier names in bit order: "declaration", "readonly", "defaultLibrary", "deprecated".
const char* const* SemanticTokenModifierNames();

struct SemanticToken {
  TextRange range;
  SemanticTokenType type = SemanticTokenType::kVariable;
  uint32_t modifiers = 0;
};

/// Every token of the file, sorted by position, non-overlapping, non-empty and within one line
/// (multi-line candidates are dropped). Where candidates overlap, the one starting first (the
/// shorter on a tie) is kept. Cost: one pass over the text plus the model's symbols and a sort of
/// the latter; about 0.7 ms at 2k lines and 27 ms at 100k lines.
std::vector<SemanticToken> SemanticTokens(const Document& doc, const FileModel& model);

/// The tokens that intersect `range` (LSP's semanticTokens/range), the same as SemanticTokens's
/// that intersect it: the text is scanned from the nearest definition line (`def`, `class`, a
/// decorator) at or before the range to the end of the range's last line, and only the functions
/// that intersect it are read.
std::vector<SemanticToken> SemanticTokensInRange(const Document& doc, const FileModel& model, TextRange range);

/// The tokens of one document kept across its edits (LSP semanticTokens/full/delta), equal to
/// SemanticTokens(doc, model) after every Update. After an edit only a stretch is computed again,
/// from the top-level definition line (`def`, `class`, a decorator at column 0, where the lexer's
/// state does not depend on the text before) at or before the first edited byte to the one after
/// the line of the last, widened to cover every function whose model changed (a new model
/// object) or went, and every module whose name changed or went. Everything else is kept, moved
/// by the edits. From scratch (everything changed) when the aliases changed, the document is
/// another one, its edit log no longer reaches back (Document::EditsSince), or the edited text
/// has a quote or a backslash (a string opened there may run past any boundary).
class SemanticTokenTracker {
 public:
  /// Tokens()[first, first + inserted) replaced the `removed` tokens at `first` of the list
  /// before the Update; the rest are the same tokens (moved by the edits).
  struct Change {
    size_t first = 0;
    size_t removed = 0;
    size_t inserted = 0;
  };
  /// Brings the tokens to `doc` at its current revision and `model`, its analysis.
  Change Update(const Document& doc, const FileModel& model);
  const std::vector<SemanticToken>& Tokens() const { return tokens_; }

 private:
  // A function of the last Update's model. Not kept alive (a round that re-lowers most of the
  // file must not leave the old models held here until the next tokens request): `fn` is the
  // model's address, its identity only while `alive` has not expired.
  struct Function {
    const FunctionModel* fn = nullptr;
    std::weak_ptr<const FunctionModel> alive;
    TextRange range;  // absolute
  };
  struct Module {
    std::string name;
    TextRange name_range;
  };
  Change FromScratch(const Document& doc, const FileModel& model);
  void Remember(const Document& doc, const FileModel& model);

  bool valid_ = false;
  uint64_t document_ = 0;
  uint64_t revision_ = 0;
  uint32_t size_ = 0;  // of the text at revision_
  Aliases aliases_;
  std::vector<Function> functions_;
  std::vector<Module> modules_;
  std::vector<SemanticToken> tokens_;
};

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_QUERY_SEMANTIC_TOKENS_H_
