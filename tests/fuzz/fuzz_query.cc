// Fuzz target: text -> parse -> analyse -> every editor query at positions taken from the text.
//
// The input is the whole file. After one analysis, every query of analysis/query runs at up to
// kOffsets cursor offsets picked from the text (fuzz_util.h QueryOffsets): hover, definition,
// references, highlights, prepare-rename and rename (with the edits applied), completion,
// signature help, selection ranges and the annotate action; once per input: semantic tokens
// (whole file and a range), folding ranges, outline, inlay hints, inferred struct info, and the
// fixes of the diagnostics (each applied to the text; the first one's result analysed again), and
// a preview of the text cut at a place the input picks (analysis/preview.h), which must equal the
// whole analysis when the text parses without errors.
// Besides not crashing, what the headers promise is checked: ranges inside the text, sorted and
// non-overlapping where promised, fixes and renames that apply.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis.h"
#include "preview.h"
#include "check/diagnostic.h"
#include "fuzz_util.h"
#include "model/model.h"
#include "query/completion.h"
#include "query/inferred.h"
#include "query/navigation.h"
#include "query/queries.h"
#include "query/semantic_tokens.h"
#include "syntax/document.h"

namespace tvmls::fuzz {
namespace {

using namespace tvmls::analysis;

struct Checker {
  const std::string& text;
  void Range(TextRange r) const {
    FUZZ_CHECK(r.begin <= r.end);
    FUZZ_CHECK(r.end <= text.size());
  }
};

void CheckOutline(const Checker& c, const std::vector<OutlineItem>& items) {
  for (const OutlineItem& item : items) {
    c.Range(item.range);
    c.Range(item.selection);
    CheckOutline(c, item.children);
  }
}

// Applies edits that must be sorted and non-overlapping, each inside the text.
std::string ApplySorted(const std::string& text, const std::vector<TextEdit>& edits) {
  std::string out;
  uint32_t at = 0;
  for (const TextEdit& e : edits) {
    FUZZ_CHECK(e.range.begin >= at && e.range.begin <= e.range.end && e.range.end <= text.size());
    out.append(text, at, e.range.begin - at);
    out += e.new_text;
    at = e.range.end;
  }
  out.append(text, at, std::string::npos);
  return out;
}

void QueryAt(const Document& doc, const FileModel& model, uint32_t offset, uint64_t choice) {
  const std::string& text = doc.Text();
  Checker c{text};
  if (std::optional<Hover> hover = HoverAt(model, offset)) c.Range(hover->range);
  for (TextRange r : DefinitionAt(model, offset)) c.Range(r);
  for (TextRange r : ReferencesAt(model, offset, choice & 1)) c.Range(r);
  std::vector<Highlight> highlights = HighlightsAt(model, offset);
  for (size_t i = 0; i < highlights.size(); ++i) {
    c.Range(highlights[i].range);
    if (i > 0) FUZZ_CHECK(highlights[i - 1].range.begin <= highlights[i].range.begin);
  }
  PrepareRenameResult prepare = PrepareRenameAt(doc, model, offset);
  if (prepare.ok()) c.Range(prepare.range);
  static const char* const kNames[] = {"renamed", "x", "R", "1bad", "lv0", "n", "def", ""};
  RenameResult rename = RenameAt(doc, model, offset, kNames[(choice >> 1) % 8]);
  if (rename.ok()) (void)ApplySorted(text, rename.edits);
  CompletionResult completion = CompleteAt(doc, model, offset);
  c.Range(completion.replace);
  if (std::optional<SignatureHelp> help = SignatureHelpAt(doc, model, offset)) {
    for (TextRange r : help->params) FUZZ_CHECK(r.begin <= r.end && r.end <= help->label.size());
    FUZZ_CHECK(help->active_param >= -1 && help->active_param < static_cast<int>(help->params.size()));
  }
  std::vector<TextRange> selection = SelectionRangesAt(doc, offset);
  for (size_t i = 0; i < selection.size(); ++i) {
    c.Range(selection[i]);
    if (i > 0) {
      FUZZ_CHECK(selection[i].begin <= selection[i - 1].begin && selection[i - 1].end <= selection[i].end);
      FUZZ_CHECK(selection[i].size() > selection[i - 1].size());
    }
  }
  if (std::optional<Fix> annotate = AnnotateAt(model, offset)) {
    std::string annotated = text;
    FUZZ_CHECK(ApplyFix(*annotate, &annotated));
  }
}

// Cursor offsets per input. Each offset costs every query (a completion after `R.` lists the whole
// namespace); the offsets are spread over the text with a phase taken from its hash, so the
// mutations of an input query other places. 24 offsets made an input take three times as long.
constexpr size_t kOffsets = 8;

void CheckTokens(const std::string& text, const std::vector<SemanticToken>& tokens) {
  for (size_t i = 0; i < tokens.size(); ++i) {
    const TextRange r = tokens[i].range;
    FUZZ_CHECK(r.begin < r.end && r.end <= text.size());
    FUZZ_CHECK(text.find('\n', r.begin) >= r.end);
    FUZZ_CHECK(static_cast<int>(tokens[i].type) < kSemanticTokenTypeCount);
    if (i > 0) FUZZ_CHECK(tokens[i - 1].range.end <= r.begin);
  }
}

}  // namespace
}  // namespace tvmls::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tvmls::analysis;
  using namespace tvmls::fuzz;
  if (size > 16384) return -1;  // keep each run short: the per-file work is what is fuzzed
  std::string input(reinterpret_cast<const char*>(data), size);
  uint64_t choice = Hash(input);
  Document doc(input);
  Analyzer analyzer;
  analyzer.Run(doc);
  const std::string& text = doc.Text();
  Checker c{text};

  const FileModel* model = analyzer.Model();
  FUZZ_CHECK(model != nullptr);
  const std::vector<const Diagnostic*>& diagnostics = analyzer.Diagnostics();
  std::string first_fixed;
  for (size_t i = 0; i < diagnostics.size(); ++i) {
    const Diagnostic& d = *diagnostics[i];
    c.Range(d.range);
    if (i > 0) FUZZ_CHECK(diagnostics[i - 1]->range.begin <= d.range.begin);
    for (const RelatedLocation& r : d.related) c.Range(r.range);
    for (const Fix& fix : d.fixes) {
      std::string fixed = text;
      FUZZ_CHECK(ApplyFix(fix, &fixed));
      if (first_fixed.empty()) first_fixed = std::move(fixed);
    }
  }

  for (uint32_t offset : QueryOffsets(text, kOffsets)) {
    QueryAt(doc, *model, offset, choice);
    choice = choice * 6364136223846793005ull + 1442695040888963407ull;
  }

  std::vector<SemanticToken> tokens = SemanticTokens(doc, *model);
  CheckTokens(text, tokens);
  // A range's tokens are the whole file's tokens that intersect it.
  uint32_t a = static_cast<uint32_t>(choice % (text.size() + 1));
  uint32_t b = static_cast<uint32_t>((choice >> 32) % (text.size() + 1));
  TextRange range{std::min(a, b), std::max(a, b)};
  std::vector<SemanticToken> in_range = SemanticTokensInRange(doc, *model, range);
  CheckTokens(text, in_range);
  for (const SemanticToken& t : in_range) FUZZ_CHECK(t.range.begin < range.end || range.empty());

  std::vector<FoldingRange> folds = FoldingRanges(doc);
  for (size_t i = 0; i < folds.size(); ++i) {
    c.Range(folds[i].range);
    if (i > 0) FUZZ_CHECK(folds[i - 1].range.begin <= folds[i].range.begin);
  }
  CheckOutline(c, Outline(*model));
  for (const Inferred& inferred : InferredStructInfo(*model)) c.Range(inferred.range);
  auto check_functions = [&](const std::vector<FunctionRef>& functions) {
    for (const FunctionRef& f : functions) {
      c.Range(Absolute(f, f.fn->range));
      for (const InlayHint& hint : f.fn->inlays) FUZZ_CHECK(hint.offset + f.base <= text.size());
    }
  };
  for (const ModuleModel& m : model->modules) check_functions(m.functions);
  check_functions(model->standalone);

  // The text after a fix is analysed like any other.
  if (!first_fixed.empty()) (void)AnalyzeText(first_fixed);

  // A preview cut by size, or at one of the places IsPreviewCut allows (inside a class too): on a
  // text that parses without errors (the preview's promise) its diagnostics are the whole
  // analysis's before its end.
  std::vector<uint32_t> cuts;
  for (uint32_t at = 1; at < text.size(); ++at) {
    if (text[at - 1] == '\n' && IsPreviewCut(text, at)) cuts.push_back(at);
  }
  std::optional<Preview> preview;
  if ((choice >> 19 & 1) != 0 && !cuts.empty()) {
    preview = PreviewAt(text, AnalysisOptions{}, cuts[(choice >> 20) % cuts.size()]);
  } else {
    preview = PreviewFirstStatements(text, AnalysisOptions{}, static_cast<uint32_t>(1 + (choice >> 20) % (text.size() + 1)));
  }
  if (preview) {
    FUZZ_CHECK(preview->end > 0 && preview->end <= preview->prefix->Text().size());
    if (!ts_node_has_error(doc.Root())) {
      size_t n = 0;
      for (const Diagnostic* d : diagnostics) {
        if (d->range.begin >= preview->end) break;
        FUZZ_CHECK(n < preview->diagnostics.size());
        const Diagnostic& p = preview->diagnostics[n++];
        FUZZ_CHECK(p.range.begin == d->range.begin && p.range.end == d->range.end && p.code == d->code &&
                   p.message == d->message && p.severity == d->severity && p.related.size() == d->related.size());
      }
      FUZZ_CHECK(n == preview->diagnostics.size());
    }
  }
  return 0;
}
