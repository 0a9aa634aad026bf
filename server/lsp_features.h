// The answers of the language server's editing features, as LSP JSON: each function turns one
// analysis query (analysis/query/) into the result of one LSP request. They run on a worker, on
// the analysed current version of the document (QueryContext), and throw protocol::RpcError for
// a request that cannot be answered (a refused rename: RequestFailed with the reason).
//
// lsp_server.cc owns documents, scheduling and the lifecycle; this file owns the shapes.
#ifndef TVMLS_SERVER_LSP_FEATURES_H_
#define TVMLS_SERVER_LSP_FEATURES_H_

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis.h"
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
  bool markdown_docs = false;            // completionItem.documentationFormat has markdown
  bool line_folding_only = true;         // foldingRange.lineFoldingOnly (we fold lines anyway)
  bool progress = false;                 // window.workDoneProgress
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
/// SemanticTokens {data} (relative encoding, columns in the negotiated encoding), of the whole
/// document or of `range`.
nlohmann::json SemanticTokensAnswer(const QueryContext& ctx,
                                    std::optional<analysis::TextRange> range = std::nullopt);
/// A CompletionList (isIncomplete false).
nlohmann::json CompletionAnswer(const QueryContext& ctx, analysis::Position position);
/// SignatureHelp or null.
nlohmann::json SignatureHelpAnswer(const QueryContext& ctx, analysis::Position position);

}  // namespace tvmls::server

#endif  // TVMLS_SERVER_LSP_FEATURES_H_
