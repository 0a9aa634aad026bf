#include "lsp_features.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string_view>
#include <utility>

#include "jsonrpc.h"
#include "lsp_convert.h"
#include "model/model.h"
#include "query/completion.h"
#include "query/navigation.h"
#include "query/queries.h"

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
  for (const auto& [offset, hint] : analysis::InlayHintsIn(*model, {*b, *e})) {
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

namespace {

// Code units of `encoding` in text[b, e) (whole characters).
uint32_t Units(std::string_view text, uint32_t b, uint32_t e, analysis::Encoding encoding) {
  if (encoding == analysis::Encoding::kUtf8) return e - b;
  uint32_t units = 0;
  for (uint32_t i = b; i < e; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) == 0x80) continue;  // a continuation byte
    units += (encoding == analysis::Encoding::kUtf16 && c >= 0xF0) ? 2 : 1;
  }
  return units;
}

}  // namespace

std::vector<uint32_t> SemanticTokenData(const QueryContext& ctx,
                                        const std::vector<analysis::SemanticToken>& tokens,
                                        size_t begin, size_t end) {
  end = std::min(end, tokens.size());
  std::vector<uint32_t> data;
  if (begin >= end) return data;
  data.reserve((end - begin) * 5);
  const std::string& text = ctx.doc.Text();
  const analysis::LineIndex& lines = ctx.doc.Lines();
  // The predecessor's position, and a cursor on the current line: `at` (bytes) is `column` units
  // in.
  uint32_t last_line = 0, last_column = 0;
  if (begin > 0) {
    analysis::Position p = ctx.doc.PositionOf(tokens[begin - 1].range.begin, ctx.encoding);
    last_line = p.line;
    last_column = p.column;
  }
  uint32_t line = UINT32_MAX, at = 0, column = 0, next_line_start = 0;
  for (size_t i = begin; i < end; ++i) {
    const analysis::SemanticToken& t = tokens[i];
    if (line == UINT32_MAX || t.range.begin >= next_line_start) {
      line = lines.LineOf(t.range.begin);
      at = lines.LineStart(line);
      column = 0;
      next_line_start = line + 1 < lines.LineCount() ? lines.LineStart(line + 1) : UINT32_MAX;
    }
    column += Units(text, at, t.range.begin, ctx.encoding);
    at = t.range.begin;
    uint32_t length = Units(text, t.range.begin, t.range.end, ctx.encoding);
    uint32_t delta_line = line - last_line;
    data.insert(data.end(), {delta_line, delta_line == 0 ? column - last_column : column, length,
                             static_cast<uint32_t>(t.type), t.modifiers});
    last_line = line;
    last_column = column;
  }
  return data;
}

void AppendJsonIntegers(std::string* out, const std::vector<uint32_t>& values, size_t begin,
                        size_t end) {
  end = std::min(end, values.size());
  out->reserve(out->size() + 2 + (end > begin ? (end - begin) * 3 : 0));
  *out += '[';
  char buffer[16];
  for (size_t i = begin; i < end; ++i) {
    if (i > begin) *out += ',';
    // Digits backwards: std::to_string allocates per call.
    uint32_t v = values[i];
    char* p = buffer + sizeof(buffer);
    do {
      *--p = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    out->append(p, buffer + sizeof(buffer));
  }
  *out += ']';
}

std::optional<TokensEdit> MinimalTokensEdit(const std::vector<uint32_t>& before,
                                            const std::vector<uint32_t>& after) {
  size_t prefix = 0;
  size_t common = std::min(before.size(), after.size());
  while (prefix < common && before[prefix] == after[prefix]) ++prefix;
  if (prefix == before.size() && prefix == after.size()) return std::nullopt;
  size_t suffix = 0;
  while (suffix < common - prefix &&
         before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix]) {
    ++suffix;
  }
  return TokensEdit{prefix, before.size() - prefix - suffix, prefix, after.size() - suffix};
}

bool WantsSemanticTokens(const Settings& settings, const std::string& language) {
  return language != "python" || settings.semantic_tokens_for_python;
}

std::string SemanticTokensState::ResultId() const {
  return std::to_string(document_) + "." + std::to_string(generation_);
}

std::optional<TokensEdit> SemanticTokensState::Update(const QueryContext& ctx, uint64_t round) {
  if (round_ == round && generation_ != 0) return std::nullopt;
  round_ = round;
  const analysis::FileModel* model = ctx.Model();
  std::vector<uint32_t> data;
  std::optional<TokensEdit> edit;
  if (model == nullptr || !ctx.analyzer.HasTvmScript()) {
    edit = MinimalTokensEdit(data_, data);
    data_.clear();
  } else {
    size_t before = tracker_.Tokens().size();
    analysis::SemanticTokenTracker::Change c = tracker_.Update(ctx.doc, *model);
    const std::vector<analysis::SemanticToken>& tokens = tracker_.Tokens();
    if (data_.size() != before * 5 || c.first + c.removed > before) {
      data = SemanticTokenData(ctx, tokens);
      edit = MinimalTokensEdit(data_, data);
      data_ = std::move(data);
    } else if (c.removed != 0 || c.inserted != 0) {
      // The replaced tokens and the one after them (its deltas are relative to its predecessor)
      // are encoded again; the integers before and after stay.
      size_t tail = std::min(before, c.first + c.removed + 1);
      std::vector<uint32_t> old(data_.begin() + static_cast<std::ptrdiff_t>(c.first * 5),
                                data_.begin() + static_cast<std::ptrdiff_t>(tail * 5));
      std::vector<uint32_t> middle = SemanticTokenData(ctx, tokens, c.first, c.first + c.inserted + 1);
      if (std::optional<TokensEdit> e = MinimalTokensEdit(old, middle)) {
        data_.erase(data_.begin() + static_cast<std::ptrdiff_t>(c.first * 5 + e->start),
                    data_.begin() + static_cast<std::ptrdiff_t>(c.first * 5 + e->start + e->delete_count));
        // Room for 1/64 more, not the vector's doubling (5 MB at 100k lines, kept).
        size_t size = data_.size() + (e->data_end - e->data_begin);
        if (size > data_.capacity()) data_.reserve(size + size / 64);
        data_.insert(data_.begin() + static_cast<std::ptrdiff_t>(c.first * 5 + e->start),
                     middle.begin() + static_cast<std::ptrdiff_t>(e->data_begin),
                     middle.begin() + static_cast<std::ptrdiff_t>(e->data_end));
        edit = TokensEdit{c.first * 5 + e->start, e->delete_count, c.first * 5 + e->data_begin,
                          c.first * 5 + e->data_end};
      }
    }
  }
  if (generation_ == 0 || edit) ++generation_;
  return edit;
}

std::string SemanticTokensState::Full(const QueryContext& ctx, uint64_t round) {
  if (!WantsSemanticTokens(ctx.settings, ctx.language)) return "null";
  Update(ctx, round);
  std::string out = R"({"resultId":")" + ResultId() + R"(","data":)";
  AppendJsonIntegers(&out, data_);
  out += '}';
  return out;
}

std::string SemanticTokensState::Delta(const QueryContext& ctx, uint64_t round,
                                       const std::string& previous) {
  if (!WantsSemanticTokens(ctx.settings, ctx.language)) return "null";
  if (generation_ == 0 || previous != ResultId()) return Full(ctx, round);
  std::optional<TokensEdit> edit = Update(ctx, round);
  std::string out = R"({"resultId":")" + ResultId() + R"(","edits":[)";
  if (edit) {
    out += R"({"start":)" + std::to_string(edit->start) + R"(,"deleteCount":)" +
           std::to_string(edit->delete_count) + R"(,"data":)";
    AppendJsonIntegers(&out, data_, edit->data_begin, edit->data_end);
    out += '}';
  }
  out += "]}";
  return out;
}

std::string SemanticTokensRangeAnswer(const QueryContext& ctx, analysis::Position start,
                                      analysis::Position end) {
  if (!WantsSemanticTokens(ctx.settings, ctx.language)) return "null";
  std::optional<uint32_t> b = ctx.Offset(start);
  std::optional<uint32_t> e = ctx.ClampedOffset(end);
  const analysis::FileModel* model = ctx.Model();
  std::vector<uint32_t> data;
  // As Full: a file without TVMScript has no tokens.
  if (b && e && *b <= *e && model != nullptr && ctx.analyzer.HasTvmScript()) {
    data = SemanticTokenData(ctx, analysis::SemanticTokensInRange(ctx.doc, *model, {*b, *e}));
  }
  std::string out = R"({"data":)";
  AppendJsonIntegers(&out, data);
  out += '}';
  return out;
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

std::string CompletionAnswer(const QueryContext& ctx, analysis::Position position) {
  std::optional<uint32_t> offset = ctx.Offset(position);
  const analysis::FileModel* model = ctx.Model();
  if (!offset || model == nullptr) return kEmptyCompletion;
  analysis::CompletionResult r = analysis::CompleteAt(ctx.doc, *model, *offset);
  if (r.items.empty()) return kEmptyCompletion;
  // Every item replaces the same range: sent once in itemDefaults when the client takes that,
  // else its text copied into each textEdit. insertTextFormat is left out where it is the
  // default, PlainText.
  const std::string range = ctx.Range(r.replace).dump();
  const bool shared_range = ctx.client.completion_edit_range_default;
  std::string out = R"({"isIncomplete":false,)";
  if (shared_range) out += R"("itemDefaults":{"editRange":)" + range + "},";
  out += R"("items":[)";
  out.reserve(r.items.size() * 280);
  std::string insert;
  bool first = true;
  for (const analysis::CompletionItem& c : r.items) {
    out += first ? "{" : ",{";
    first = false;
    out += R"("label":)";
    protocol::AppendJsonString(&out, c.label);
    out += R"(,"kind":)";
    out += std::to_string(CompletionKind(c.kind));
    if (!c.detail.empty()) {
      out += R"(,"detail":)";
      protocol::AppendJsonString(&out, c.detail);
    }
    if (!c.doc.empty()) {
      out += R"(,"documentation":)";
      protocol::AppendJsonString(&out, c.doc);
    }
    bool snippet = c.call && ctx.client.snippets;
    insert.clear();
    if (snippet) {
      insert = SnippetEscape(c.label) + "(";
      for (size_t i = 0; i < c.snippet_params.size(); ++i) {
        insert += (i ? ", " : "") + std::string("${") + std::to_string(i + 1) + ":" +
                  SnippetEscape(c.snippet_params[i]) + "}";
      }
      insert += c.snippet_params.empty() ? "$0)" : ")";
    }
    if (!shared_range) {
      out += R"(,"textEdit":{"range":)";
      out += range;
      out += R"(,"newText":)";
      protocol::AppendJsonString(&out, snippet ? std::string_view(insert) : std::string_view(c.label));
      out += '}';
    } else if (snippet) {
      // With the default edit range, the text inserted is textEditText, else the label.
      out += R"(,"textEditText":)";
      protocol::AppendJsonString(&out, insert);
    }
    if (snippet) out += R"(,"insertTextFormat":2)";
    if (c.deprecated && ctx.client.completion_deprecated_tag) out += R"(,"tags":[1])";
    out += '}';
  }
  out += "]}";
  return out;
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
