#include "lsp_features.h"

#include <algorithm>
#include <utility>

#include "jsonrpc.h"
#include "lsp_convert.h"
#include "model/model.h"
#include "query/completion.h"
#include "query/navigation.h"
#include "query/queries.h"
#include "query/semantic_tokens.h"

namespace tvmls::server {

using nlohmann::json;

std::optional<uint32_t> QueryContext::Offset(analysis::Position p) const {
  return doc.Lines().ToOffset(doc.Text(), p, encoding);
}

std::optional<uint32_t> QueryContext::ClampedOffset(analysis::Position p) const {
  const analysis::LineIndex& lines = doc.Lines();
  if (p.line >= lines.LineCount()) return static_cast<uint32_t>(doc.Text().size());
  if (std::optional<uint32_t> offset = Offset(p)) return offset;
  uint32_t end = lines.LineContentEnd(doc.Text(), p.line);
  analysis::Position line_end = doc.PositionOf(end, encoding);
  if (p.column >= line_end.column) return end;
  return std::nullopt;
}

json QueryContext::Range(analysis::TextRange r) const { return RangeJson<json>(doc, r, encoding); }

json QueryContext::Location(analysis::TextRange r) const {
  return {{"uri", uri}, {"range", Range(r)}};
}

json QueryContext::WorkspaceEdit(const std::vector<analysis::TextEdit>& edits) const {
  json list = json::array();
  for (const analysis::TextEdit& e : edits) list.push_back(TextEditJson(doc, e, encoding));
  return {{"changes", {{uri, std::move(list)}}}};
}

namespace {

[[noreturn]] void Refuse(const std::string& why) {
  throw protocol::RpcError(protocol::ErrorCode::kRequestFailed, why);
}

const char* FoldingKind(analysis::FoldingRange::Kind kind) {
  switch (kind) {
    case analysis::FoldingRange::Kind::kComment: return "comment";
    case analysis::FoldingRange::Kind::kImports: return "imports";
    case analysis::FoldingRange::Kind::kRegion: return "region";
  }
  return "region";
}

bool IsClosingBracket(char c) { return c == ')' || c == ']' || c == '}'; }

// LSP CompletionItemKind per analysis kind.
int CompletionKind(analysis::CompletionItem::Kind kind) {
  using K = analysis::CompletionItem::Kind;
  switch (kind) {
    case K::kOperator: return 24;        // Operator
    case K::kFunction: return 3;         // Function
    case K::kType: return 7;             // Class
    case K::kNamespace: return 9;        // Module
    case K::kKeyword: return 14;         // Keyword
    case K::kDtype: return 21;           // Constant
    case K::kModuleFunction: return 2;   // Method
    case K::kVariable: return 6;         // Variable
  }
  return 1;  // Text
}

// `$`, `}` and `\` are special in snippet text.
std::string SnippetEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '$' || c == '}' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

int SymbolKind(analysis::OutlineItem::Kind kind) {
  switch (kind) {
    case analysis::OutlineItem::Kind::kModule: return 2;          // Module
    case analysis::OutlineItem::Kind::kDataflowBlock: return 3;   // Namespace
    case analysis::OutlineItem::Kind::kRelaxFunction:
    case analysis::OutlineItem::Kind::kPrimFunction: return 12;   // Function
  }
  return 12;
}

json DocumentSymbol(const QueryContext& ctx, const analysis::OutlineItem& item) {
  json children = json::array();
  for (const analysis::OutlineItem& child : item.children) {
    children.push_back(DocumentSymbol(ctx, child));
  }
  json symbol = {{"name", item.name.empty() ? std::string("<anonymous>") : item.name},
                 {"kind", SymbolKind(item.kind)},
                 {"range", ctx.Range(item.range)},
                 {"selectionRange", ctx.Range(item.selection)},
                 {"children", std::move(children)}};
  if (!item.detail.empty()) symbol["detail"] = item.detail;
  return symbol;
}

void FlatSymbols(const QueryContext& ctx, const analysis::OutlineItem& item,
                 const std::string& container, json* out) {
  json symbol = {{"name", item.name.empty() ? std::string("<anonymous>") : item.name},
                 {"kind", SymbolKind(item.kind)},
                 {"location", ctx.Location(item.range)}};
  if (!container.empty()) symbol["containerName"] = container;
  out->push_back(std::move(symbol));
  for (const analysis::OutlineItem& child : item.children) FlatSymbols(ctx, child, item.name, out);
}

json Locations(const QueryContext& ctx, const std::vector<analysis::TextRange>& ranges) {
  json result = json::array();
  for (analysis::TextRange r : ranges) result.push_back(ctx.Location(r));
  return result;
}

// The inlay hints of the functions without syntax errors in [b, e], in text order.
std::vector<std::pair<uint32_t, const analysis::InlayHint*>> HintsIn(
    const analysis::FileModel& model, uint32_t b, uint32_t e) {
  std::vector<const analysis::FunctionRef*> functions;
  for (const analysis::ModuleModel& m : model.modules) {
    for (const analysis::FunctionRef& f : m.functions) functions.push_back(&f);
  }
  for (const analysis::FunctionRef& f : model.standalone) functions.push_back(&f);
  std::vector<std::pair<uint32_t, const analysis::InlayHint*>> hints;
  for (const analysis::FunctionRef* f : functions) {
    if (f->has_syntax_error) continue;
    for (const analysis::InlayHint& hint : f->fn->inlays) {
      uint32_t offset = f->base + hint.offset;
      if (offset >= b && offset <= e) hints.emplace_back(offset, &hint);
    }
  }
  std::sort(hints.begin(), hints.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  return hints;
}

}  // namespace

json HoverAnswer(const QueryContext& ctx, analysis::Position position) {
  std::optional<uint32_t> offset = ctx.Offset(position);
  const analysis::FileModel* model = ctx.Model();
  if (!offset || model == nullptr) return nullptr;
  std::optional<analysis::Hover> hover = analysis::HoverAt(*model, *offset);
  if (!hover) return nullptr;
  std::string value = "```python\n" + hover->text + "\n```";
  if (!hover->doc.empty()) value += "\n\n" + hover->doc;
  return {{"contents", {{"kind", "markdown"}, {"value", std::move(value)}}},
          {"range", ctx.Range(hover->range)}};
}

json DefinitionAnswer(const QueryContext& ctx, analysis::Position position) {
  std::optional<uint32_t> offset = ctx.Offset(position);
  const analysis::FileModel* model = ctx.Model();
  if (!offset || model == nullptr) return json::array();
  return Locations(ctx, analysis::DefinitionAt(*model, *offset));
}

json ReferencesAnswer(const QueryContext& ctx, analysis::Position position,
                      bool include_declaration) {
  std::optional<uint32_t> offset = ctx.Offset(position);
  const analysis::FileModel* model = ctx.Model();
  if (!offset || model == nullptr) return json::array();
  return Locations(ctx, analysis::ReferencesAt(*model, *offset, include_declaration));
}

json DocumentSymbolAnswer(const QueryContext& ctx, bool hierarchical) {
  json result = json::array();
  const analysis::FileModel* model = ctx.Model();
  if (model == nullptr) return result;
  for (const analysis::OutlineItem& item : analysis::Outline(*model)) {
    if (hierarchical) {
      result.push_back(DocumentSymbol(ctx, item));
    } else {
      FlatSymbols(ctx, item, "", &result);
    }
  }
  return result;
}

json QuickFixActions(const QueryContext& ctx, analysis::Position start, analysis::Position end,
                     const AskedDiagnostics& asked) {
  json result = json::array();
  std::optional<uint32_t> b = ctx.Offset(start);
  std::optional<uint32_t> e = ctx.ClampedOffset(end);
  if (!b || !e) return result;
  analysis::TextRange wanted{std::min(*b, *e), std::max(*b, *e)};
  for (const analysis::Diagnostic* d : ctx.analyzer.Diagnostics()) {
    std::optional<analysis::Severity> severity = ctx.settings.SeverityOf(*d);
    if (!severity) continue;
    bool touched = d->range.Touches(wanted);
    if (!touched && !asked.empty()) {
      int64_t line = ctx.doc.Lines().LineOf(d->range.begin);
      touched = asked.count({d->code, line}) > 0;
    }
    if (!touched) continue;
    std::vector<analysis::Fix> fixes = FixesOffered(ctx.doc, *d);
    if (fixes.empty()) continue;
    json diagnostic = DiagnosticJson(ctx.doc, *d, ctx.uri, ctx.encoding, *severity, ctx.docs_base);
    for (const analysis::Fix& fix : fixes) {
      result.push_back({{"title", fix.title},
                        {"kind", "quickfix"},
                        {"diagnostics", json::array({diagnostic})},
                        {"isPreferred", fix.preferred},
                        {"edit", ctx.WorkspaceEdit(fix.edits)}});
    }
  }
  return result;
}

json InlayHintAnswer(const QueryContext& ctx, analysis::Position start, analysis::Position end) {
  json result = json::array();
  std::optional<uint32_t> b = ctx.Offset(start);
  std::optional<uint32_t> e = ctx.ClampedOffset(end);
  const analysis::FileModel* model = ctx.Model();
  if (!b || !e || model == nullptr) return result;
  for (const auto& [offset, hint] : HintsIn(*model, *b, *e)) {
    json position = PositionJson<json>(ctx.doc, offset, ctx.encoding);
    json item = {{"position", position},
                 {"label", hint->label},
                 {"kind", 1},  // Type
                 {"paddingLeft", false},
                 {"paddingRight", false}};
    // Unpacking targets (`a, b = t`) cannot carry annotations in Python: shown, not inserted.
    if (hint->insertable) {
      item["textEdits"] = json::array(
          {{{"range", {{"start", position}, {"end", position}}}, {"newText", hint->label}}});
    }
    result.push_back(std::move(item));
  }
  return result;
}

json SemanticTokensLegend(const ClientFeatures& client) {
  json types = json::array();
  const analysis::SemanticTokenTypeInfo* legend = analysis::SemanticTokenLegend();
  for (int i = 0; i < analysis::kSemanticTokenTypeCount; ++i) {
    bool known = std::find(client.token_types.begin(), client.token_types.end(), legend[i].name) !=
                 client.token_types.end();
    types.push_back(known ? legend[i].name : legend[i].standard);
  }
  json modifiers = json::array();
  const char* const* names = analysis::SemanticTokenModifierNames();
  for (int i = 0; i < analysis::kSemanticTokenModifierCount; ++i) modifiers.push_back(names[i]);
  return {{"tokenTypes", std::move(types)}, {"tokenModifiers", std::move(modifiers)}};
}

json SemanticTokensAnswer(const QueryContext& ctx, std::optional<analysis::TextRange> range) {
  json data = json::array();
  const analysis::FileModel* model = ctx.Model();
  if (model == nullptr) return {{"data", std::move(data)}};
  std::vector<analysis::SemanticToken> tokens =
      range ? analysis::SemanticTokensInRange(ctx.doc, *model, *range)
            : analysis::SemanticTokens(ctx.doc, *model);
  uint32_t last_line = 0, last_column = 0;
  for (const analysis::SemanticToken& t : tokens) {
    analysis::Position begin = ctx.doc.PositionOf(t.range.begin, ctx.encoding);
    analysis::Position end = ctx.doc.PositionOf(t.range.end, ctx.encoding);
    if (end.line != begin.line || end.column <= begin.column) continue;  // single-line only
    uint32_t delta_line = begin.line - last_line;
    uint32_t delta_column = delta_line == 0 ? begin.column - last_column : begin.column;
    for (uint32_t v : {delta_line, delta_column, end.column - begin.column,
                       static_cast<uint32_t>(t.type), t.modifiers}) {
      data.push_back(v);
    }
    last_line = begin.line;
    last_column = begin.column;
  }
  return {{"data", std::move(data)}};
}

bool WantsSemanticTokens(const Settings& settings, const std::string& language) {
  return language != "python" || settings.semantic_tokens_for_python;
}

json SemanticTokensFullAnswer(const QueryContext& ctx) {
  if (!WantsSemanticTokens(ctx.settings, ctx.language)) return nullptr;
  return SemanticTokensAnswer(ctx);
}

json SemanticTokensRangeAnswer(const QueryContext& ctx, analysis::Position start,
                               analysis::Position end) {
  if (!WantsSemanticTokens(ctx.settings, ctx.language)) return nullptr;
  std::optional<uint32_t> b = ctx.Offset(start);
  std::optional<uint32_t> e = ctx.ClampedOffset(end);
  if (!b || !e || *e < *b) return json{{"data", json::array()}};
  return SemanticTokensAnswer(ctx, analysis::TextRange{*b, *e});
}

json DocumentHighlightAnswer(const QueryContext& ctx, analysis::Position position) {
  json result = json::array();
  std::optional<uint32_t> offset = ctx.Offset(position);
  const analysis::FileModel* model = ctx.Model();
  if (!offset || model == nullptr) return result;
  for (const analysis::Highlight& h : analysis::HighlightsAt(*model, *offset)) {
    result.push_back({{"range", ctx.Range(h.range)}, {"kind", h.write ? 3 : 2}});  // Write / Read
  }
  return result;
}

json PrepareRenameAnswer(const QueryContext& ctx, analysis::Position position) {
  std::optional<uint32_t> offset = ctx.Offset(position);
  const analysis::FileModel* model = ctx.Model();
  if (!offset || model == nullptr) Refuse("no name at this position");
  analysis::PrepareRenameResult r = analysis::PrepareRenameAt(ctx.doc, *model, *offset);
  if (!r.ok()) Refuse(r.error);
  return {{"range", ctx.Range(r.range)}, {"placeholder", r.placeholder}};
}

json RenameAnswer(const QueryContext& ctx, analysis::Position position, const std::string& new_name) {
  std::optional<uint32_t> offset = ctx.Offset(position);
  const analysis::FileModel* model = ctx.Model();
  if (!offset || model == nullptr) Refuse("no name at this position");
  analysis::RenameResult r = analysis::RenameAt(ctx.doc, *model, *offset, new_name);
  if (!r.ok()) Refuse(r.error);
  return ctx.WorkspaceEdit(r.edits);
}

json FoldingRangeAnswer(const QueryContext& ctx) {
  json result = json::array();
  const std::string& text = ctx.doc.Text();
  const analysis::LineIndex& lines = ctx.doc.Lines();
  for (const analysis::FoldingRange& f : analysis::FoldingRanges(ctx.doc)) {
    uint32_t start = lines.LineOf(f.range.begin);
    uint32_t end = lines.LineOf(f.range.end);
    // A closing bracket alone on its line stays visible, as editors fold by indentation.
    if (f.range.end > f.range.begin && IsClosingBracket(text[f.range.end - 1])) {
      uint32_t line_start = lines.LineStart(end);
      bool alone = std::all_of(text.begin() + line_start, text.begin() + (f.range.end - 1),
                               [](char c) { return c == ' ' || c == '\t'; });
      if (alone && end > 0) --end;
    }
    if (end <= start) continue;
    result.push_back({{"startLine", start}, {"endLine", end}, {"kind", FoldingKind(f.kind)}});
  }
  return result;
}

json SelectionRangeAnswer(const QueryContext& ctx, const std::vector<analysis::Position>& positions) {
  json result = json::array();
  for (analysis::Position p : positions) {
    std::optional<uint32_t> offset = ctx.Offset(p);
    std::vector<analysis::TextRange> ranges;
    if (offset) ranges = analysis::SelectionRangesAt(ctx.doc, *offset);
    if (ranges.empty()) {
      // The result array pairs with the positions: an empty range at the position itself.
      uint32_t at = offset.value_or(0);
      ranges.push_back({at, at});
    }
    json node = nullptr;
    for (auto it = ranges.rbegin(); it != ranges.rend(); ++it) {
      json inner = {{"range", ctx.Range(*it)}};
      if (!node.is_null()) inner["parent"] = std::move(node);
      node = std::move(inner);
    }
    result.push_back(std::move(node));
  }
  return result;
}

json AnnotateActions(const QueryContext& ctx, analysis::Position start) {
  json result = json::array();
  std::optional<uint32_t> offset = ctx.Offset(start);
  const analysis::FileModel* model = ctx.Model();
  if (!offset || model == nullptr) return result;
  std::optional<analysis::Fix> fix = analysis::AnnotateAt(*model, *offset);
  if (!fix) return result;
  result.push_back(
      {{"title", fix->title}, {"kind", "refactor.rewrite"}, {"edit", ctx.WorkspaceEdit(fix->edits)}});
  return result;
}

json CompletionAnswer(const QueryContext& ctx, analysis::Position position) {
  json items = json::array();
  std::optional<uint32_t> offset = ctx.Offset(position);
  const analysis::FileModel* model = ctx.Model();
  if (offset && model != nullptr) {
    analysis::CompletionResult r = analysis::CompleteAt(ctx.doc, *model, *offset);
    json range = ctx.Range(r.replace);
    for (const analysis::CompletionItem& c : r.items) {
      json item = {{"label", c.label}, {"kind", CompletionKind(c.kind)}};
      if (!c.detail.empty()) item["detail"] = c.detail;
      if (!c.doc.empty()) item["documentation"] = c.doc;
      std::string insert = c.label;
      bool snippet = false;
      if (c.call && ctx.client.snippets) {
        insert = SnippetEscape(c.label) + "(";
        for (size_t i = 0; i < c.snippet_params.size(); ++i) {
          insert += (i ? ", " : "") + std::string("${") + std::to_string(i + 1) + ":" +
                    SnippetEscape(c.snippet_params[i]) + "}";
        }
        insert += c.snippet_params.empty() ? "$0)" : ")";
        snippet = true;
      }
      item["textEdit"] = {{"range", range}, {"newText", insert}};
      item["insertTextFormat"] = snippet ? 2 : 1;
      if (c.deprecated && ctx.client.completion_deprecated_tag) item["tags"] = json::array({1});
      items.push_back(std::move(item));
    }
  }
  return {{"isIncomplete", false}, {"items", std::move(items)}};
}

json SignatureHelpAnswer(const QueryContext& ctx, analysis::Position position) {
  std::optional<uint32_t> offset = ctx.Offset(position);
  const analysis::FileModel* model = ctx.Model();
  if (!offset || model == nullptr) return nullptr;
  std::optional<analysis::SignatureHelp> help = analysis::SignatureHelpAt(ctx.doc, *model, *offset);
  if (!help) return nullptr;
  // Parameter labels are [start, end) offsets into the label, counted like columns.
  analysis::LineIndex label_lines(help->label);
  auto column = [&](uint32_t at) {
    return label_lines.ToPosition(help->label, at, ctx.encoding).column;
  };
  json params = json::array();
  for (analysis::TextRange p : help->params) {
    params.push_back({{"label", {column(p.begin), column(p.end)}}});
  }
  json signature = {{"label", help->label}, {"parameters", std::move(params)}};
  if (!help->doc.empty()) signature["documentation"] = help->doc;
  json result = {{"signatures", json::array({std::move(signature)})}, {"activeSignature", 0}};
  if (help->active_param >= 0) {
    result["activeParameter"] = help->active_param;
    result["signatures"][0]["activeParameter"] = help->active_param;
  }
  return result;
}

}  // namespace tvmls::server
