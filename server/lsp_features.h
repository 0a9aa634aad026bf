// The answers of the language server's editing features, as LSP JSON: each function turns one
// analysis query (analysis/query/) into the result of one LSP request. They run on a worker, on
// the analysed current version of the document (QueryContext), and throw protocol::RpcError for
// a request that cannot be answered (a refused rename: RequestFailed with the reason).
//
// lsp_server.cc owns the method table, the params and the lifecycle, scheduler.h the documents
// and their scheduling; this file owns the shapes of the answers.
#ifndef TVMLS_SERVER_LSP_FEATURES_H_
#define TVMLS_SERVER_LSP_FEATURES_H_

#include <cstdint>
#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis.h"
#include "query/semantic_tokens.h"
#include "check/diagnostic.h"
#include "settings.h"
#include "syntax/document.h"
#include "text/line_index.h"
#include "text/text_range.h"

namespace tvmls::server {

/// What the client said it can take (initialize capabilities), fixed for the session.
struct ClientFeatures {
  bool snippets = false;                 // completionItem.snippetSupport
  bool completion_deprecated_tag = false;  // completionItem.tagSupport has 1 (Deprecated)
  /// completionList.itemDefaults has "editRange": the range every item replaces is sent once, in
  /// the list's itemDefaults, not copied into each item's textEdit (about 110 of an item's 280
  /// bytes).
  bool completion_edit_range_default = false;
  bool markdown_docs = false;            // completionItem.documentationFormat has markdown
  bool line_folding_only = true;         // foldingRange.lineFoldingOnly (we fold lines anyway)
  bool progress = false;                 // window.workDoneProgress
  /// textDocument.diagnostic: the client pulls diagnostics (textDocument/diagnostic), so the
  /// server publishes none for documents.
  bool pull_diagnostics = false;
  bool diagnostic_refresh = false;       // workspace.diagnostics.refreshSupport
  /// semanticTokens.tokenTypes: the legend uses our custom types (`dtype`, `buffer`) only when
  /// the client lists them, else their standard fallbacks.
  std::vector<std::string> token_types;
};

/// What a query sees on the worker: the analysed current version of its document.
struct QueryContext {
  const analysis::Document& doc;
  analysis::Analyzer& analyzer;
  const std::string& uri;
  analysis::Encoding encoding;
  const Settings& settings;
  const std::string& docs_base;
  const std::string& language;  // the document's languageId
  const ClientFeatures& client;

  /// Byte offset of an LSP position; nullopt when it is outside the text or inside a character.
  std::optional<uint32_t> Offset(analysis::Position p) const;
  /// For range ends: a position past the last line is the end of the text, past the end of its
  /// line the end of that line; nullopt only inside a character.
  std::optional<uint32_t> ClampedOffset(analysis::Position p) const;
  nlohmann::json Range(analysis::TextRange r) const;
  nlohmann::json Location(analysis::TextRange r) const;
  /// A WorkspaceEdit of `edits` in this document.
  nlohmann::json WorkspaceEdit(const std::vector<analysis::TextEdit>& edits) const;
  /// The semantic model, or null (never for a document with TVMScript after a run).
  const analysis::FileModel* Model() const { return analyzer.Model(); }
};

/// The legend of semanticTokensProvider (token types and modifiers, in the order the data uses).
nlohmann::json SemanticTokensLegend(const ClientFeatures& client);

/// Whether `language` documents get semantic tokens (python only when the setting asks).
bool WantsSemanticTokens(const Settings& settings, const std::string& language);

/// Hover {contents (markdown: the code in a fence, the prose below it), range} or null.
nlohmann::json HoverAnswer(const QueryContext& ctx, analysis::Position position);
/// An array of Locations (empty when nothing is known).
nlohmann::json DefinitionAnswer(const QueryContext& ctx, analysis::Position position);
nlohmann::json ReferencesAnswer(const QueryContext& ctx, analysis::Position position,
                                bool include_declaration);
/// The outline: DocumentSymbols when `hierarchical` (the client's
/// hierarchicalDocumentSymbolSupport), else SymbolInformations with containerName.
nlohmann::json DocumentSymbolAnswer(const QueryContext& ctx, bool hierarchical);
/// The diagnostics the client sent with a code action request (context.diagnostics), by code
/// and start line.
using AskedDiagnostics = std::set<std::pair<std::string, int64_t>>;
/// The quickfix CodeActions (FixesOffered) of the reported diagnostics touching [start, end],
/// or listed in `asked` (ALE asks with the word under the cursor, which may sit before the
/// diagnostic on its line).
nlohmann::json QuickFixActions(const QueryContext& ctx, analysis::Position start,
                               analysis::Position end, const AskedDiagnostics& asked);
/// The type InlayHints of the functions in [start, end], in text order; each inserts its
/// annotation (textEdits) unless it is on an unpacking target.
nlohmann::json InlayHintAnswer(const QueryContext& ctx, analysis::Position start,
                               analysis::Position end);
nlohmann::json DocumentHighlightAnswer(const QueryContext& ctx, analysis::Position position);
/// {range, placeholder}; RequestFailed with the reason when the name cannot be renamed.
nlohmann::json PrepareRenameAnswer(const QueryContext& ctx, analysis::Position position);
/// A WorkspaceEdit; RequestFailed with the reason when refused.
nlohmann::json RenameAnswer(const QueryContext& ctx, analysis::Position position,
                            const std::string& new_name);
nlohmann::json FoldingRangeAnswer(const QueryContext& ctx);
nlohmann::json SelectionRangeAnswer(const QueryContext& ctx,
                                    const std::vector<analysis::Position>& positions);
/// The "annotate with the inferred struct info" action at `start` (kind refactor.rewrite), as
/// an array of zero or one CodeAction.
nlohmann::json AnnotateActions(const QueryContext& ctx, analysis::Position start);
/// The LSP integers of tokens[begin, end) (sorted, non-overlapping, non-empty, single-line, as
/// the queries give them): five per token, relative encoding (deltaLine, deltaStart, length,
/// type, modifiers) with tokens[begin - 1] as the first one's predecessor, columns in the
/// negotiated encoding. One forward pass over the text of each token's line up to it:
/// O(tokens + their lines' bytes).
std::vector<uint32_t> SemanticTokenData(const QueryContext& ctx,
                                        const std::vector<analysis::SemanticToken>& tokens,
                                        size_t begin = 0, size_t end = SIZE_MAX);
/// Appends `values` to `out` as a JSON array of integers.
void AppendJsonIntegers(std::string* out, const std::vector<uint32_t>& values, size_t begin = 0,
                        size_t end = SIZE_MAX);

/// A SemanticTokensEdit: replace `delete_count` integers at `start` by after[data_begin,
/// data_end).
struct TokensEdit {
  size_t start = 0;
  size_t delete_count = 0;
  size_t data_begin = 0;
  size_t data_end = 0;
};
/// The one edit turning `before` into `after` with the longest common prefix and then suffix
/// left out; nullopt when they are equal. Applying it to `before` gives `after`.
std::optional<TokensEdit> MinimalTokensEdit(const std::vector<uint32_t>& before,
                                            const std::vector<uint32_t>& after);

/// One document's semantic tokens for semanticTokens/full and /full/delta: the integers last
/// sent and their resultId ("<document>.<generation>": a new generation only when the data
/// changed). After an edit, only the tokens of the stretch the tracker computed again are
/// encoded again (analysis::SemanticTokenTracker). Used by the document's worker only.
class SemanticTokensState {
 public:
  /// `document`: unique among the session's documents, reopened ones included.
  explicit SemanticTokensState(uint64_t document) : document_(document) {}
  /// textDocument/semanticTokens/full as JSON text: SemanticTokens {resultId, data}, or null
  /// for a document that gets no tokens (WantsSemanticTokens). `round` names the analysis the
  /// context shows: the tokens are computed once per round.
  std::string Full(const QueryContext& ctx, uint64_t round);
  /// textDocument/semanticTokens/full/delta as JSON text: SemanticTokensDelta {resultId, edits}
  /// (at most one edit) when `previous` is the last resultId sent, else as Full.
  std::string Delta(const QueryContext& ctx, uint64_t round, const std::string& previous);

 private:
  // Brings data_ to `round`: the edit of its integers (data_begin/data_end index the new data_),
  // nullopt when they stayed the same.
  std::optional<TokensEdit> Update(const QueryContext& ctx, uint64_t round);
  std::string ResultId() const;

  const uint64_t document_;
  uint64_t generation_ = 0;
  uint64_t round_ = 0;  // the round data_ was computed for (0: none)
  analysis::SemanticTokenTracker tracker_;
  std::vector<uint32_t> data_;  // of tracker_.Tokens(), five per token
};

/// textDocument/semanticTokens/range as JSON text: SemanticTokens {data} of the tokens meeting
/// [start, end] (none for a reversed range, and as in Full none for a file without TVMScript),
/// or null for a document that gets no tokens. Costs O(range): analysis::SemanticTokensInRange.
std::string SemanticTokensRangeAnswer(const QueryContext& ctx, analysis::Position start,
                                      analysis::Position end);
/// A CompletionList (isIncomplete false) as JSON text, written directly (the `T.` list has ~490
/// items, ~150 KB: a json tree of it took milliseconds to build and dump). kEmptyCompletion when
/// nothing fits.
std::string CompletionAnswer(const QueryContext& ctx, analysis::Position position);
inline constexpr const char* kEmptyCompletion = R"({"isIncomplete":false,"items":[]})";
/// SignatureHelp or null.
nlohmann::json SignatureHelpAnswer(const QueryContext& ctx, analysis::Position position);

}  // namespace tvmls::server

#endif  // TVMLS_SERVER_LSP_FEATURES_H_
