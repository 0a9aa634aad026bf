// The analysis engine's entry point: a document in, diagnostics and queries out.
//
// Analyzer keeps results between runs, per top-level statement and per function. After an edit,
// Run() re-lowers and re-checks only the functions whose syntax subtree changed (tree-sitter
// reuses unchanged subtrees, so their node identity survives the edit), plus the callers of
// functions whose signature changed. Statements the edit did not touch keep their results and
// assembled diagnostics; only their offsets move. A run costs O(top-level statements) plus the
// work on what changed.
//
// Thread-safety: an Analyzer is used by one thread at a time (Run, Diagnostics and Model alike).
#ifndef TVMLS_ANALYSIS_ANALYSIS_H_
#define TVMLS_ANALYSIS_ANALYSIS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "check/diagnostic.h"
#include "syntax/document.h"

namespace tvmls::analysis {

/// Which TVMScript dialect a file is written in. kAuto decides from the imports / printer header
/// (`tir` vs `tirx`, `T.block` vs `T.sblock`); without either both eras are accepted.
enum class Era { kAuto, kClassic, kCurrent };

struct AnalysisOptions {
  Era era = Era::kAuto;
  /// Upper bound assumed for every symbolic shape variable without one (0 = none). With a bound,
  /// a `storage-may-overflow` whose need stays within the storage up to the bound is silent.
  int64_t assumed_upper_bound = 0;
  /// Diagnostics inside code that its test expects TVM to reject (check/expected_failure.h) are
  /// lowered to information, with a note saying so. Off: they keep their severity.
  bool expected_failures = true;
  /// Threads that lower statements when many need it (a first analysis, or an alias change): 0
  /// is one per core, 1 lowers on the calling thread. The results do not depend on it.
  unsigned threads = 1;
};

/// Counters of the last Run(), for tests and benchmarks of incrementality.
struct RunStats {
  int functions = 0;           // functions in the file
  int functions_analyzed = 0;  // re-lowered and re-checked in this run
  int statements = 0;          // top-level statements in the file
  int statements_scanned = 0;  // looked at in this run (the rest were moved by the edit log; in a
                                // walk over the whole root, those tree-sitter kept are not counted)
  int statements_analyzed = 0;  // of those, analysed again (the rest kept their results)
  int functions_cached = 0;    // function results kept after this run: in use, and in limbo
  int pipelines = 0;           // pipelines of passes in the file (model/pipeline.h)
  // Where the run's time went, in ms: finding the top-level statements again (with the aliases),
  // marking what depends on changed names, lowering and checking, and assembling the diagnostics.
  double scan_ms = 0, mark_ms = 0, analyse_ms = 0, assemble_ms = 0;
};

class Analyzer {
 public:
  explicit Analyzer(AnalysisOptions options = {});
  ~Analyzer();
  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;

  /// Analyses the document's current text and tree. Call after every accepted edit.
  void Run(const Document& doc);

  /// Syntax errors and semantic diagnostics of the last run, sorted by position. The pointers stay
  /// valid until the next Run().
  const std::vector<const Diagnostic*>& Diagnostics() const;
  /// Diagnostics() in stretches that change together, in order, covering it: for a caller that
  /// keeps something derived from each diagnostic between runs (the server's JSON text).
  /// A stretch with a stamp holds every diagnostic of one top-level statement, text [begin, end),
  /// and each of their ranges (related ones too) lies inside it. A stamp is given to those
  /// diagnostics only, by no other Analyzer either: the same stamp after a later Run() means the
  /// same statement text with the same diagnostics, all their offsets moved as `begin` moved.
  /// Stamp 0 promises nothing (errors at the root, unused suppressions, a statement some of
  /// whose diagnostics a suppression dropped or that reach outside it).
  struct Stretch {
    size_t first = 0, count = 0;  // in Diagnostics()
    uint64_t stamp = 0;
    uint32_t begin = 0, end = 0;
  };
  const std::vector<Stretch>& DiagnosticStretches() const;
  /// True when the file contains TVMScript (an `I.ir_module` class, an `R.function` or a
  /// `T.prim_func`). Files without TVMScript get no diagnostics at all.
  bool HasTvmScript() const { return has_tvmscript_; }
  const RunStats& Stats() const { return stats_; }

  /// The semantic model of the last run (model/model.h), for queries. Assembled on the first call
  /// after a run; valid until the next Run().
  const struct FileModel* Model() const;

  /// What a top-level statement's results depend on outside it, besides the file's aliases
  /// (imports and the printer's header): a statement keeps its diagnostics whatever the rest of
  /// the file holds as long as those stay the same (the incremental analysis relies on it).
  struct Dependencies {
    uint32_t begin = 0, end = 0;  // the statement's text
    /// The names its functions look up that no statement of the file binds now: one bound
    /// elsewhere changes its results (an undefined name is not, a call resolves).
    std::vector<std::string> unbound_lookups;
    /// The names of the TVMScript units in it: whether a test expects one to fail may turn on the
    /// uses of its name anywhere in the file (check/expected_failure.h), when
    /// AnalysisOptions::expected_failures is on.
    std::vector<std::string> unit_names;
    /// When the statement is one `I.ir_module` class: its functions, in text order. Within a
    /// module, a function's results depend on the others only through the signatures of those it
    /// references (`callees`) and, for a fix that edits a callee, on the callee's call sites in
    /// the whole module (`fixes_in_callees`); besides, on the module's name and the names its
    /// class body assigns.
    struct Function {
      uint32_t begin = 0, end = 0;  // the decorated definition
      std::string name;
      std::vector<std::string> unbound_lookups;  // as the statement's, of this function
      std::vector<std::string> callees;
      bool fixes_in_callees = false;
    };
    std::vector<Function> module_functions;
    /// An `R.rewriter` module, which is checked as a whole.
    bool whole_module_checks = false;
  };
  /// Per top-level statement of the last run, in order. O(statements + their lookups).
  std::vector<Dependencies> StatementDependencies() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  AnalysisOptions options_;
  bool has_tvmscript_ = false;
  RunStats stats_;
};

/// One-shot convenience: parse and analyse a text.
std::vector<Diagnostic> AnalyzeText(const std::string& text, const AnalysisOptions& options = {});

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_ANALYSIS_H_
