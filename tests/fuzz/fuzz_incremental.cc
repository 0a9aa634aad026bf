// Fuzz target: edit sequences applied incrementally, as the server applies them, compared with a
// from-scratch analysis of the same text.
//
// Input: a text, optionally followed by "\n###EDITS###\n" and an edit script. The script is a
// sequence of records: 2 bytes offset (little-endian, taken modulo text size + 1), 1 byte
// deletion length, 1 byte flags (bit 0: more edits follow in the same batch; bit 1: skip the
// analysis after this batch, as when the server batches several didChange into one run; bits 2-7:
// insertion length), then the inserted bytes; at most 24 edits. Without a script, 1 to 4 edits
// (MadeUpEditCount) are made up from the input's hash: inserted snippets and pieces of the text
// itself, deletions, and line deletion or duplication (as tests/analysis/incremental_test.cc
// does), so every seed file is useful as is.
//
// After analysed batches: the incremental Analyzer reports exactly what a fresh Analyzer reports
// on the same Document (diagnostics with related locations and fixes, and the model's functions).
// Fuzzing, each analysed batch before the last is compared when two bits of the input's hash say
// so (a quarter of them: a fresh analysis costs more than the incremental run it checks, and a
// mutation of the input picks other batches, or makes up fewer edits so that the batch is the
// last); with TVMLS_FUZZ_EVERY_BATCH set in the environment (ctest's replays of the regressions
// and seeds) every one is. The end state always is: against a fresh
// Analyzer on a from-scratch Document of the text when its tree is the one the incremental
// reparses left (the analyses must then agree), else against a fresh Analyzer on the same
// Document (tree-sitter may recover from errors differently after an incremental reparse);
// with TVMLS_FUZZ_EVERY_BATCH, against both. Then a run without an edit must change nothing.
// After every run, the diagnostics' stretches keep their contract (StretchCheck).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "analysis.h"
#include "check/diagnostic.h"
#include "fuzz_util.h"
#include "support/same_tree.h"
#include "model/model.h"
#include "syntax/document.h"
#include "syntax/syntax_errors.h"

namespace tvmls::fuzz {
namespace {

using namespace tvmls::analysis;

constexpr std::string_view kMarker = "\n###EDITS###\n";

std::string Render(const Analyzer& a) {
  std::ostringstream out;
  for (const Diagnostic* d : a.Diagnostics()) {
    out << d->range.begin << "-" << d->range.end << " " << static_cast<int>(d->severity) << " "
        << d->code << " " << d->message;
    for (const RelatedLocation& r : d->related) {
      out << " | rel " << r.range.begin << "-" << r.range.end << " " << r.message;
    }
    for (const Fix& f : d->fixes) {
      out << " | fix" << (f.preferred ? "*" : "") << " " << f.title;
      for (const TextEdit& e : f.edits) {
        out << " [" << e.range.begin << "-" << e.range.end << " " << e.new_text << "]";
      }
    }
    out << "\n";
  }
  const FileModel& m = *a.Model();
  for (const ModuleModel& mod : m.modules) {
    out << "module " << mod.name << " " << mod.range.begin << "-" << mod.range.end << "\n";
    for (const FunctionRef& f : mod.functions) out << "  " << f.fn->name << " @" << f.base << "\n";
  }
  for (const FunctionRef& f : m.standalone) out << "fn " << f.fn->name << " @" << f.base << "\n";
  return out.str();
}

// Moves an offset forward to a UTF-8 code point boundary (Document refuses edits inside one).
uint32_t Boundary(const std::string& text, uint32_t o) {
  while (o < text.size() && (static_cast<unsigned char>(text[o]) & 0xC0) == 0x80) ++o;
  return o;
}

struct Edit {
  ByteEdit edit;
  bool more = false;      // same batch as the next one
  bool no_run = false;    // no analysis after this batch
};

// Reads one scripted edit against `text`; false at the end of the script.
bool NextScripted(std::string_view* script, const std::string& text, Edit* out) {
  if (script->size() < 4) return false;
  const auto* p = reinterpret_cast<const unsigned char*>(script->data());
  uint32_t size = static_cast<uint32_t>(text.size());
  uint32_t at = (static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8) % (size + 1);
  uint32_t len = p[2];
  unsigned flags = p[3];
  size_t insert = std::min<size_t>(flags >> 2, script->size() - 4);
  out->edit.begin = Boundary(text, at);
  out->edit.end = std::max(out->edit.begin, Boundary(text, std::min(size, at + len)));
  out->edit.new_text.assign(script->data() + 4, insert);
  out->more = flags & 1;
  out->no_run = flags & 2;
  script->remove_prefix(4 + insert);
  return true;
}

// Makes up an edit from the generator.
Edit MadeUp(uint64_t* state, const std::string& text) {
  auto next = [state] {
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(*state >> 33);
  };
  static const char* const kSnippets[] = {
      "x",  ")",  "(",  "\n", "\n    ", ":", "R.add(x, x)", "n", "4", "T.Buffer((4,), \"float32\")", "#",
      "\"", "    ", "= ", "@R.function\n", "def f(", "with R.dataflow():\n", "R.output(", "\t", "'''",
      "\\\n", "# tvmls: ignore[undefined-name]", "cls.", "return ", "\r\n", "é"};
  uint32_t size = static_cast<uint32_t>(text.size());
  uint32_t at = size == 0 ? 0 : next() % size;
  Edit e;
  switch (next() % 4) {
    case 0:
      e.edit = {at, at, kSnippets[next() % (sizeof(kSnippets) / sizeof(kSnippets[0]))]};
      break;
    case 1: {  // a piece of the text elsewhere (moves names and brackets around)
      uint32_t from = size == 0 ? 0 : next() % size;
      e.edit = {at, at, text.substr(from, 1 + next() % 16)};
      break;
    }
    case 2:
      e.edit = {at, at + std::min<uint32_t>(size - at, 1 + next() % 12), ""};
      break;
    default: {
      size_t line = text.rfind('\n', at == 0 ? 0 : at - 1);
      uint32_t begin = line == std::string::npos ? 0 : static_cast<uint32_t>(line + 1);
      size_t nl = text.find('\n', begin);
      uint32_t end = nl == std::string::npos ? size : static_cast<uint32_t>(nl + 1);
      e.edit = next() % 2 ? ByteEdit{begin, end, ""} : ByteEdit{begin, begin, text.substr(begin, end - begin)};
      break;
    }
  }
  e.edit.begin = Boundary(text, e.edit.begin);
  e.edit.end = std::max(e.edit.begin, Boundary(text, e.edit.end));
  // The made-up new text may start or end inside a code point (a piece of the text): the
  // Document takes any bytes, as a client may send any (valid JSON) string.
  e.more = next() % 4 == 0;
  e.no_run = next() % 4 == 0;
  return e;
}

constexpr int kMaxEdits = 24;
// How many edits are made up for an input without a script: 1 for half of the inputs, 2 for a
// quarter, 3 or 4 for an eighth each (bits of `bits`). Each analysed batch costs a reparse and an
// incremental run, about what the first parse and analysis cost on inputs of 1 KiB, so every edit
// is a large share of an execution; 12 made-up edits per input, then 6, then 4, gave fewer
// executions per second for no coverage a mutation of the input (another hash, other edits) does
// not reach as well (tests/fuzz/README.md has the figures). Longer sequences come from scripts.
int MadeUpEditCount(uint64_t bits) {
  if (bits & 1) return 1;
  if (bits & 2) return 2;
  return bits & 4 ? 3 : 4;
}

// Whether every analysed batch is compared (TVMLS_FUZZ_EVERY_BATCH set), not a sample.
bool EveryBatch() {
  static const bool every = std::getenv("TVMLS_FUZZ_EVERY_BATCH") != nullptr;
  return every;
}

// What an analyzer reports, rendered.
struct Report {
  std::string rendered;
  bool has_tvmscript = false;
};

Report ReportOf(const Analyzer& a) { return Report{Render(a), a.HasTvmScript()}; }

// A fresh Analyzer's report on `doc`.
Report FreshReport(const Document& doc) {
  Analyzer analyzer;
  analyzer.Run(doc);
  return ReportOf(analyzer);
}

// The incremental report must be the reference's (`what` names the reference).
void CheckSame(const Report& got, const Report& want, const char* what) {
  if (got.rendered != want.rendered) {
    std::fprintf(stderr, "incremental:\n%s\n%s:\n%s\n", got.rendered.c_str(), what, want.rendered.c_str());
  }
  FUZZ_CHECK(got.rendered == want.rendered);
  FUZZ_CHECK(got.has_tvmscript == want.has_tvmscript);
}

// After an analysed batch: against a fresh Analyzer on the same document.
void CompareBatch(const Document& doc, const Analyzer& incremental) {
  CheckSame(ReportOf(incremental), FreshReport(doc), "fresh on the same tree");
}

// Analyzer::DiagnosticStretches' contract, after every run: the stretches cover Diagnostics() in
// order; a stamped one's ranges lie inside its statement, and a stamp seen before stands for the
// same statement text with the same diagnostics, moved (the server keeps their JSON by stamp).
class StretchCheck {
 public:
  void After(const Document& doc, const Analyzer& a) {
    const std::vector<const Diagnostic*>& all = a.Diagnostics();
    size_t next = 0;
    for (const Analyzer::Stretch& s : a.DiagnosticStretches()) {
      FUZZ_CHECK(s.first == next && s.count > 0);
      next += s.count;
      FUZZ_CHECK(next <= all.size());
      if (s.stamp == 0) continue;
      FUZZ_CHECK(s.begin <= s.end && s.end <= doc.Text().size());
      std::string seen = std::string(doc.Text().substr(s.begin, s.end - s.begin)) + "\n";
      auto rel = [&](TextRange r) {
        FUZZ_CHECK(r.begin >= s.begin && r.end <= s.end);
        return std::to_string(r.begin - s.begin) + "-" + std::to_string(r.end - s.begin);
      };
      for (size_t i = s.first; i < next; ++i) {
        const Diagnostic& d = *all[i];
        seen += rel(d.range) + " " + std::to_string(static_cast<int>(d.severity)) + " " + d.code + " " + d.message;
        for (const RelatedLocation& r : d.related) seen += " | " + rel(r.range) + " " + r.message;
        for (const Fix& f : d.fixes) {
          seen += " | fix " + f.title;
          for (const TextEdit& e : f.edits) seen += " [" + std::to_string(static_cast<uint32_t>(e.range.begin - s.begin)) + "+" + e.new_text + "]";
        }
        seen += "\n";
      }
      auto [it, added] = stamps_.emplace(s.stamp, seen);
      if (!added && it->second != seen) {
        std::fprintf(stderr, "stamp %llu was:\n%s\nnow:\n%s\n", static_cast<unsigned long long>(s.stamp),
                     it->second.c_str(), seen.c_str());
      }
      FUZZ_CHECK(added || it->second == seen);
    }
    FUZZ_CHECK(next == all.size());
  }

 private:
  std::map<uint64_t, std::string> stamps_;
};

// At the end. A from-scratch parse of the text; when its tree is the document's, the fresh
// analysis of it is the reference (it would report what a fresh Analyzer on the document does,
// unless the document's tree or text is off, which is then caught too). When the trees differ
// (tree-sitter may recover from errors differently after an incremental reparse, and then the
// analyses differ legitimately), a fresh Analyzer on the document is. TVMLS_FUZZ_EVERY_BATCH
// compares with both.
void CompareEnd(const Document& doc, const Analyzer& incremental) {
  Report got = ReportOf(incremental);
  bool fresh_done = false;
  if (EveryBatch()) {
    CheckSame(got, FreshReport(doc), "fresh on the same tree");
    fresh_done = true;
  }
  Document scratch(doc.Text());
  if (testing::SameTree(scratch.Root(), doc.Root()) && scratch.Refusal() == doc.Refusal()) {
    CheckSame(got, FreshReport(scratch), "from scratch");
  } else if (!fresh_done) {
    CheckSame(got, FreshReport(doc), "fresh on the same tree");
  }
}

}  // namespace
}  // namespace tvmls::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tvmls::analysis;
  using namespace tvmls::fuzz;
  if (size > 16384) return -1;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t marker = input.find(kMarker);
  std::string_view script;
  bool scripted = marker != std::string_view::npos;
  if (scripted) {
    script = input.substr(marker + kMarker.size());
    input = input.substr(0, marker);
  }
  uint64_t state = Hash(input);
  // Bits drawn from the input (splitmix64 of the hash, not the edit generator's sequence): the
  // top 4 say how many edits are made up, bits 2i and 2i+1 whether the i-th analysed batch
  // before the last is compared (both zero).
  uint64_t sample = state + 0x9E3779B97F4A7C15ull;
  sample = (sample ^ (sample >> 30)) * 0xBF58476D1CE4E5B9ull;
  sample = (sample ^ (sample >> 27)) * 0x94D049BB133111EBull;
  sample ^= sample >> 31;
  Document doc{std::string(input)};
  doc.SetTreeComparison(false);  // as the server's documents: changed ranges are never asked for
  Analyzer analyzer;
  analyzer.Run(doc);
  StretchCheck stretches;
  stretches.After(doc, analyzer);
  bool pending = false;  // the document changed since the analyzer last ran
  // The edits of a batch are each in the coordinates left by the previous one: each is drawn
  // against `preview`, the text as the batch so far leaves it; then the whole batch is applied.
  std::string preview = doc.Text();
  std::vector<ByteEdit> batch;
  auto apply = [&] {
    EditResult result = doc.ApplyEdits(batch);
    if (result.ok) {
      FUZZ_CHECK(doc.Text() == preview);
      pending = true;
    } else {
      preview = doc.Text();  // refused as a whole: nothing changed
    }
    batch.clear();
  };
  const int limit = scripted ? kMaxEdits : MadeUpEditCount(sample >> 60);
  int analysed = 0;
  for (int step = 0; step < limit; ++step) {
    Edit e;
    if (scripted) {
      if (!NextScripted(&script, preview, &e)) break;
    } else {
      e = MadeUp(&state, preview);
    }
    preview.replace(e.edit.begin, e.edit.end - e.edit.begin, e.edit.new_text);
    batch.push_back(std::move(e.edit));
    if (e.more) continue;
    apply();
    if (!e.no_run) {
      analyzer.Run(doc);
      stretches.After(doc, analyzer);
      pending = false;
      // The last edit's state is compared at the end anyway (fuzzing, once only).
      bool last = step + 1 == limit || (scripted && script.size() < 4);
      bool sampled = !last && (sample >> (2 * analysed % 60) & 3) == 0;
      if (EveryBatch() || sampled) CompareBatch(doc, analyzer);
      ++analysed;
    }
  }
  if (!batch.empty()) apply();
  if (pending) {
    analyzer.Run(doc);
    stretches.After(doc, analyzer);
  }
  CompareEnd(doc, analyzer);
  // A run without an edit changes nothing.
  std::string before = Render(analyzer);
  analyzer.Run(doc);
  stretches.After(doc, analyzer);
  FUZZ_CHECK(Render(analyzer) == before);
  return 0;
}
