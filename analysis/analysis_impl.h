// Internal to the analyzer (analysis.cc, analysis_functions.cc, analysis_scan.cc): the state
// of Analyzer::Impl and the helpers its parts share. Not for other layers.
#ifndef TVMLS_ANALYSIS_ANALYSIS_IMPL_H_
#define TVMLS_ANALYSIS_ANALYSIS_IMPL_H_

#include "analysis.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "check/check.h"
#include "check/expected_failure.h"
#include "check/suppressions.h"
#include "model/discovery.h"
#include "model/lower.h"
#include "model/lower_internal.h"
#include "model/model.h"
#include "model/pipeline.h"
#include "model/syntax_util.h"
#include "syntax/syntax_errors.h"

namespace tvmls::analysis {
namespace analyzer_internal {

inline Diagnostic SyntaxDiagnostic(const SyntaxError& e, uint32_t shift_back = 0) {
  Diagnostic d;
  d.range = {e.range.begin - shift_back, e.range.end - shift_back};
  d.code = "syntax-error";
  d.message = e.message;
  return d;
}

inline void MoveRange(TextRange* r, int64_t delta) {
  r->begin = static_cast<uint32_t>(r->begin + delta);
  r->end = static_cast<uint32_t>(r->end + delta);
}

// Moves every range of a diagnostic by `delta` bytes.
inline void Shift(Diagnostic* d, int64_t delta) {
  MoveRange(&d->range, delta);
  for (RelatedLocation& l : d->related) MoveRange(&l.range, delta);
  for (Fix& f : d->fixes) {
    for (TextEdit& e : f.edits) MoveRange(&e.range, delta);
  }
}

// A top-level ERROR node of more than 64 KiB: text the parser could not structure (a bracket or
// string opened high up that swallowed the rest of the file). Its name uses and pipelines are not
// looked for: walking it costs as much as the whole file (~0.35 s per walk at 100k lines) on
// every keystroke while it lasts, and what is found in unstructured text means little.
inline bool IsLargeError(TSNode n) {
  constexpr uint32_t kLargeErrorBytes = 64 * 1024;
  return ts_node_end_byte(n) - ts_node_start_byte(n) > kLargeErrorBytes && std::strcmp(ts_node_type(n), "ERROR") == 0;
}

// Text that does not parse but spells a TVMScript unit: its syntax errors are reported even when
// no unit can be found in it (a bracket that swallowed the file hides every module).
inline bool SpellsTvmScript(std::string_view text) {
  for (std::string_view word : {"ir_module", "prim_func", "R.function", "relax.function"}) {
    if (text.find(word) != std::string_view::npos) return true;
  }
  return false;
}

inline bool ByPosition(const Diagnostic& a, const Diagnostic& b) {
  return a.range.begin != b.range.begin ? a.range.begin < b.range.begin : a.range.end < b.range.end;
}


// Top-level children that are statements of their own (analysis_scan.cc).
bool IsStatementNode(TSNode n);
// The top-level statement that spans [start, end), or the first that starts at `start`; null
// when none does (analysis_scan.cc).
TSNode StatementAt(TSNode root, uint32_t start, uint32_t end);

}  // namespace analyzer_internal


// Entries keyed by syntax-node identity, with a second way in by text: tree-sitter does not always
// reuse the nodes after an edit (its external-scanner state check is conservative), and a
// statement or function whose text is unchanged, that starts at the same column and parses
// without errors, parses the same and is worth exactly what it was. (With errors it is not:
// recovery depends on the context, unless tree-sitter kept the statement's node itself: Kept in
// analysis_scan.cc.) Re-keying moves an entry to the node that now holds its text.
template <typename Entry>
class NodeStore {
 public:
  Entry* Find(const void* id) {
    auto it = entries_.find(id);
    return it == entries_.end() ? nullptr : it->second.get();
  }

  /// An entry whose text is `text` and that `claimable` accepts, moved to `id`; or null.
  template <typename Pred>
  Entry* Rekey(const void* id, std::string_view text, Pred claimable) {
    size_t h = std::hash<std::string_view>{}(text);
    auto [b, e] = by_text_.equal_range(h);
    for (auto it = b; it != e; ++it) {
      auto old = entries_.find(it->second);
      if (old == entries_.end() || !claimable(*old->second) || old->second->text != text) continue;
      std::unique_ptr<Entry> moved = std::move(old->second);
      entries_.erase(old);
      it->second = id;
      Entry* out = moved.get();
      out->key = id;
      entries_[id] = std::move(moved);
      return out;
    }
    return nullptr;
  }

  Entry& Insert(const void* id, std::string_view text) {
    Erase(id);
    auto entry = std::make_unique<Entry>();
    entry->text = std::string(text);
    entry->key = id;
    by_text_.emplace(std::hash<std::string_view>{}(text), id);
    Entry& out = *entry;
    entries_[id] = std::move(entry);
    return out;
  }

  void Erase(const void* id) {
    auto it = entries_.find(id);
    if (it == entries_.end()) return;
    auto [b, e] = by_text_.equal_range(std::hash<std::string_view>{}(it->second->text));
    for (auto k = b; k != e; ++k) {
      if (k->second == id) {
        by_text_.erase(k);
        break;
      }
    }
    entries_.erase(it);
  }

  /// Moves the entry at `id` to a key no node can have (an odd address): its node is gone and the
  /// address now belongs to another node. It stays reachable through Rekey by text.
  void MoveAside(const void* id) {
    auto it = entries_.find(id);
    if (it == entries_.end()) return;
    std::unique_ptr<Entry> entry = std::move(it->second);
    entries_.erase(it);
    const void* key = reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(entry.get()) | 1);
    auto [b, e] = by_text_.equal_range(std::hash<std::string_view>{}(entry->text));
    for (auto k = b; k != e; ++k) {
      if (k->second == id) k->second = key;
    }
    entry->key = key;
    entries_[key] = std::move(entry);
  }

  /// Moves every entry aside (see MoveAside) that `keep` accepts and erases the others; `keep`
  /// is called once per entry.
  template <typename Pred>
  void MoveAllAside(Pred keep) {
    std::vector<const void*> ids;
    ids.reserve(entries_.size());
    for (const auto& [id, entry] : entries_) ids.push_back(id);
    for (const void* id : ids) {
      if (!keep(*Find(id))) {
        Erase(id);
      } else if (!(reinterpret_cast<uintptr_t>(id) & 1)) {
        MoveAside(id);
      }
    }
  }

  /// Erases the entries `stale` selects.
  template <typename Pred>
  void EraseIf(Pred stale) {
    std::vector<const void*> ids;
    for (const auto& [id, entry] : entries_) {
      if (stale(*entry)) ids.push_back(id);
    }
    for (const void* id : ids) Erase(id);
  }

  size_t Size() const { return entries_.size(); }

  template <typename F>
  void ForEach(F f) {
    for (auto& [id, entry] : entries_) f(*entry);
  }

  void Clear() {
    entries_.clear();
    by_text_.clear();
  }

 private:
  std::unordered_map<const void*, std::unique_ptr<Entry>> entries_;
  std::unordered_multimap<size_t, const void*> by_text_;
};

// Incrementality, in two layers keyed by syntax-node identity (tree-sitter keeps the node of a
// subtree an edit did not touch):
// - Top: one statement at the top of the file (an import, a module class, a test function with
//   modules inside). An unchanged statement keeps what discovery found in it, its models and its
//   assembled diagnostics; only their offsets move. Nothing in a statement depends on another
//   one except through the file's aliases (a change drops everything) and its Python names (a
//   change re-analyses the statements whose functions looked the name up).
// - Cached: one function, reused by a re-discovered statement when its own subtree, the
//   signatures it depends on and its outer lookups are unchanged.
struct Analyzer::Impl {
  TSTree* held = nullptr;
  struct Cached {
    const void* key = nullptr;  // in `cache`
    std::string text;  // the definition's text
    uint32_t column = 0;
    bool clean = false;  // parsed without errors
    std::shared_ptr<FunctionModel> fn;
    std::string module;
    bool body_done = false;
    uint64_t generation = 0;   // the last run that claimed it
    uint64_t reclaimable = 0;  // the run in which another node may claim it (its statement changed)
    uint64_t alias = 0;        // the lowering alias hash it was lowered under
    uint64_t limbo = 0;        // the run it was set aside in (no statement holds it), or 0
  };
  NodeStore<Cached> cache;
  std::mutex cache_mu;  // guards `cache`'s maps while statements are analysed in parallel
  // Limbo: function results that no statement holds any more (their statement vanished into a
  // syntax error, was rewritten, or was lowered under another alias set) stay for kLimboRuns runs,
  // reachable by text only, so that the keystroke that brings the text back (closing a bracket
  // that swallowed the file, an undo, the imports coming back) re-lowers nothing. An entry in
  // limbo is claimed only by a function of the same text, column, kind, module and alias set
  // that parses without errors; its body is still re-lowered when a signature it depends on or
  // one of its outer lookups changed (AnalyzeFunctions).
  // Limbo is also bounded in size: when the cache holds more than half as many entries again as
  // the most functions the file had (since the last Clear), the oldest entries in limbo go first
  // (an alias change sets a whole file's results aside while new ones are lowered; a file in a
  // syntax error holds few live results, so its limbo does not count against it).
  static constexpr uint64_t kLimboRuns = 256;
  size_t in_limbo = 0;  // entries with `limbo` != 0; guarded by cache_mu
  // No entry in limbo was set aside before this run: a lower bound of their `limbo` (UINT64_MAX
  // when none is), so that the sweep for expired entries, a walk over the whole cache (about
  // 0.9 ms at 6,000 functions), is skipped while none can have expired. Guarded by cache_mu.
  uint64_t limbo_floor = UINT64_MAX;
  size_t peak_functions = 0;
  // Only a lowered function that parsed cleanly is reusable by text.
  static bool WorthKeeping(const Cached& c) { return c.clean && c.fn != nullptr && c.body_done; }
  // Sets the entry at `id` aside (or erases it when it is worth nothing: not lowered, or with
  // syntax errors, which are not reusable by text).
  void ToLimbo(const void* id, uint64_t gen) {
    Cached* c = cache.Find(id);
    if (c == nullptr) return;
    if (!WorthKeeping(*c)) {
      if (c->limbo != 0) --in_limbo;
      cache.Erase(id);
      return;
    }
    if (c->limbo == 0) {
      c->limbo = gen;
      ++in_limbo;
      limbo_floor = std::min(limbo_floor, gen);
    }
    if (!(reinterpret_cast<uintptr_t>(id) & 1)) cache.MoveAside(id);
  }
  // Every cached function to limbo (no statement holds any): a new discovery starts over.
  void RetireAll(uint64_t gen) {
    cache.MoveAllAside([&](Cached& c) {
      bool keep = WorthKeeping(c);
      if (keep && c.limbo == 0) {
        c.limbo = gen;
        ++in_limbo;
        limbo_floor = std::min(limbo_floor, gen);
      } else if (!keep && c.limbo != 0) {
        --in_limbo;
      }
      return keep;
    });
  }

  struct Top {
    const void* key = nullptr;  // in `tops`
    std::string text;  // the statement's text
    TSSymbol symbol = 0;  // its node's symbol: the text of a zero-width closer, "", is any closer's
    uint32_t column = 0;
    bool clean = false;  // parsed without errors
    TSNode node;              // valid in the run `discovered` only
    uint64_t generation = 0;  // the last run that placed it
    uint64_t discovered = 0;  // the run whose tree `found`'s nodes are from
    uint64_t candidate = 0;   // the run in which it may be claimed by another node
    Discovery found;
    NameUses uses;  // when the statement is not itself a TVMScript unit (check/expected_failure.h)
    bool analysed = false;
    std::vector<std::string> looked_up;  // its entries in `lookup_index`
    std::vector<ModuleModel> modules;
    std::vector<FunctionRef> standalone;
    int functions = 0;
    int pipelines = 0;  // pipelines of passes found in it (model/pipeline.h)
    std::vector<Diagnostic> diagnostics;  // absolute at `diag_base`, by position
    uint32_t diag_base = 0;
    uint64_t diag_stamp = 0;      // new whenever `diagnostics` is made again (Analyzer::Stretch)
    bool diag_contained = false;  // every range of `diagnostics` lies inside the statement
    uint32_t model_base = 0;  // `modules` and `standalone` are absolute at this offset
  };
  NodeStore<Top> tops;

  // The file's top-level statements in order, with their current place. Kept in a flat array so
  // that moving everything after an edit is a tight loop, not a walk over the tree (tree-sitter
  // 0.20's cursor needs ~0.3 us per top-level sibling: 3-7 ms at 100k lines).
  struct Slot {
    Top* top = nullptr;
    uint32_t start = 0, end = 0;
    int32_t indent = -1;       // for the top-level indentation rule; -1: not a statement that counts
    bool damaged = false;      // overlapped by an edit since the last run
    bool clean = false;        // parsed without errors
    // No line break between it and the next statement (or the end): where tree-sitter puts a
    // missing `_newline`, an error no statement holds (the cursor does not show hidden tokens).
    bool joined = false;
  };
  std::vector<Slot> order;
  uint64_t doc_id = 0, doc_revision = 0;  // what `order` describes
  bool root_was_error = false;  // the last run's root was an ERROR (its children: loose tokens)
  bool root_had_error = false;  // the last run's tree had syntax errors

  // Per outer name (FunctionModel::outer_lookups), the analysed statements whose functions look
  // it up: MarkStale reads it instead of every function's lookups (1.7 ms at 100k lines).
  std::unordered_map<std::string, std::unordered_set<Top*>> lookup_index;
  //    Files `top` under the names its functions look up now (after AnalyzeTop), or under none.
  void IndexLookups(Top* top);
  void UnindexLookups(Top* top);

  // What the statements contribute to the whole file, counted so that statements come and go.
  std::unordered_map<std::string, int> name_count;
  std::set<std::string> python_names;  // names with a positive count
  std::map<std::pair<std::string, std::string>, int> alias_count;
  int star_imports = 0;
  // Name uses of the statements that are not units, for ExpectedFailureByUse: per name, the
  // functions that use it where a test expects failure (counted) and the number of other uses.
  std::map<std::string, std::map<std::string, int>> expecting_uses;
  std::unordered_map<std::string, int> plain_uses;
  // Names whose expecting uses changed in this run. A name's plain uses coming or going matter
  // only to a unit that some test expects to fail by using it (ExpectedFailureByUse): without
  // expecting uses, before and after, the decision stays "not expected". (A broken statement
  // that mentions `Module` otherwise re-lowered every unit named `Module`.)
  std::set<std::string> expecting_changed;

  Aliases aliases;                                       // as of the last run
  uint64_t discovery_hash = AliasSetHash(Aliases{});  // of the aliases discovery used
  uint64_t alias_hash = 0;                               // of what lowering used
  uint64_t pass_alias_hash = 0;                          // of what pipelines used
  int64_t upper_bound = 0;
  bool expected_failures = true;  // AnalysisOptions::expected_failures of the cached results
  uint64_t generation = 0;

  std::vector<Diagnostic> root_errors;  // indentation of top-level statements, a refusal
  std::vector<const Diagnostic*> diagnostics;
  std::vector<Analyzer::Stretch> stretches;  // of `diagnostics`
  std::vector<Diagnostic> unused_suppressions;  // the unused-suppression hints of the last run
  // The `tvmls:` directives of the last run's text, comments or not (check/suppressions.h:
  // FindDirectives), kept up to date through the edit log so that an edit reads only the lines
  // it touched. Which of them are comments is asked of the current tree on every run: an edit
  // elsewhere (a quote opening or closing a string) can change it on lines no edit touched.
  std::vector<Suppression> directives;
  bool suppressions_known = false;
  bool model_valid = false;
  FileModel model;
  // Where each statement's part of `model` is (in `order`'s order), so that the next assembly
  // copies only the statements analysed since: `stamp` is the statement's `diag_stamp` (made
  // again with its modules), `base` where the copies' offsets are absolute.
  struct ModelPart {
    uint64_t stamp = 0;
    uint32_t base = 0;
    size_t modules = 0, module_count = 0;
    size_t standalone = 0, standalone_count = 0;
  };
  std::vector<ModelPart> model_parts;
  // Assembles `model` from every statement's results.
  void RebuildModel();
  // Brings `model` up to date in place: offsets moved, the statements analysed again copied
  // over their old parts. False (nothing changed) when the statements came or went, or one's
  // number of modules or functions outside modules changed.
  bool UpdateModel();

  ~Impl() {
    if (held != nullptr) ts_tree_delete(held);
  }

  // Drops every result (the options they were computed under changed).
  void Clear() {
    cache.Clear();
    in_limbo = 0;
    limbo_floor = UINT64_MAX;
    peak_functions = 0;
    Restart();
  }
  // Forgets the statements; function results go to limbo (a new discovery, a new document).
  void Retire() {
    RetireAll(generation);
    Restart();
  }
  void Restart() {
    lookup_index.clear();
    tops.Clear();
    order.clear();
    orphans.clear();
    doc_id = 0;
    name_count.clear();
    python_names.clear();
    alias_count.clear();
    star_imports = 0;
    expecting_uses.clear();
    plain_uses.clear();
  }

  // Is `stmt` itself a TVMScript unit (a module class or a standalone function at the top)?
  static bool IsUnitStatement(TSNode stmt, const Discovery& d) {
    TSNode def = Is(stmt, "decorated_definition") ? Field(stmt, "definition") : stmt;
    for (const FoundModule& m : d.modules) {
      if (ts_node_eq(m.node, def) || ts_node_eq(m.node, stmt)) return true;
    }
    for (const FoundFunction& f : d.standalone) {
      if (ts_node_eq(f.def, def) || ts_node_eq(f.def, stmt)) return true;
    }
    return false;
  }

  // Counts a statement's name uses in (+1) or out (-1); names whose expected-failure decision
  // may change go to `flipped` (any change of their expecting uses, or plain uses coming or
  // going).
  void CountUses(const NameUses& uses, int sign, std::set<std::string>* flipped) {
    for (const auto& [name, function] : uses.expecting) {
      auto& functions = expecting_uses[name];
      int& c = functions[function];
      c += sign;
      if (c == 0) functions.erase(function);
      if (functions.empty()) expecting_uses.erase(name);
      flipped->insert(name);
      expecting_changed.insert(name);
    }
    for (const std::string& name : uses.plain) {
      int& c = plain_uses[name];
      bool was = c > 0;
      c += sign;
      if ((c > 0) != was) flipped->insert(name);
      if (c == 0) plain_uses.erase(name);
    }
  }

  // ExpectedFailureByUse for a unit at the top of the file named `name`.
  std::optional<ExpectedFailure> ExpectedByUse(TSNode name_node, const std::string& name) const {
    auto e = expecting_uses.find(name);
    if (e == expecting_uses.end() || ts_node_is_null(name_node)) return std::nullopt;
    std::vector<std::string> functions;
    for (const auto& [function, count] : e->second) functions.push_back(function);
    auto p = plain_uses.find(name);
    return ExpectedFailureByUse(RangeOf(name_node), functions, p == plain_uses.end() ? 0 : p->second);
  }

  // Counts a statement's contributions in (+1) or out (-1); names whose presence flips go to
  // `flipped`.
  void Count(const Discovery& d, int sign, std::set<std::string>* flipped) {
    for (const std::string& n : d.python_names) {
      int& c = name_count[n];
      bool was = c > 0;
      c += sign;
      if ((c > 0) != was) {
        flipped->insert(n);
        if (c > 0) python_names.insert(n);
        else python_names.erase(n);
      }
      if (c == 0) name_count.erase(n);
    }
    for (const auto& a : d.alias_adds) {
      int& c = alias_count[a];
      c += sign;
      if (c == 0) alias_count.erase(a);
    }
    star_imports += d.star_import ? sign : 0;
  }

  // Lowers (or reuses) the functions of one statement and assembles its diagnostics, absolute
  // at the statement's start.
  void AnalyzeTop(Top* top, std::string_view text, const ModuleContext& base, RunStats* stats);
  // The cache entry of `f` with its signature lowered: reused when the definition's text is
  // unchanged (also under a new node, when its statement was rescanned), else made anew.
  // `module` identifies the enclosing module and its extern globals.
  Cached& SignatureOf(const FoundFunction& f, const std::string& module, std::string_view text);
  // Lowers the bodies of `fns` (one module's functions, or the standalone ones) that are not
  // fresh: a body is reused while its text, the signatures it depends on and its outer lookups
  // are unchanged. Appends their FunctionRefs to `refs` and a module's duplicate names to the
  // statement's diagnostics.
  void AnalyzeFunctions(Top* top, const std::vector<FoundFunction>& fns, const std::string& module_name,
                        const std::set<std::string>& externs, std::vector<FunctionRef>* refs,
                        std::string_view text, const ModuleContext& base, RunStats* stats);
  // Appends the functions' diagnostics, rebased to absolute offsets; related locations and fixes
  // that point into a callee (cross refs) follow the callee, and a fix that edits a callee is
  // dropped unless this is the callee's only call site.
  static void EmitFunctionDiagnostics(const std::vector<FunctionRef>& fns, std::vector<Diagnostic>* out);
  // Lowers the statement's diagnostics inside units a test expects TVM to reject to
  // information (check/expected_failure.h).
  void MarkExpectedFailures(Top* top, std::string_view text) const;

  // ---- The steps of a run (Analyzer::Run calls them in this order).

  // What one run knows as it goes.
  struct RunState {
    uint64_t gen = 0;                    // this run's generation
    bool incremental = false;            // the edit log since the last run is usable
    std::vector<EditSpan> edits;         // that log (empty when not incremental)
    uint32_t lo = 0, hi = 0;             // the window of changed text, in current offsets
    std::set<std::string> flipped;       // Python names that came or went
    std::set<std::string> flipped_uses;  // names whose expected-failure-by-use may change
  };
  // An edit log longer than this is treated as a full replacement: mapping slots through each
  // edit costs O(edits * statements), and a client sending that many edits between two runs is
  // rewriting the file anyway.
  static constexpr size_t kMaxEditsPerRun = 64;
  // The printer's header comments are read before at most this many statements (`mod.show()`
  // prints them first; a few imports may precede them in a hand-edited file).
  static constexpr int kHeaderStatements = 8;
  // Discovery depends on the aliases that discovery finds: a new alias set is retried at most
  // this many times (two suffice: the second run sees every import).
  static constexpr int kMaxDiscoveryAttempts = 3;

  // 1. Maps the last run's statement places through the document's edit log: statements an
  //    edit touched are marked damaged, the rest move; sets run->incremental, edits and the
  //    window [lo, hi] of changed text. Without a usable log everything is the window.
  void MapEdits(const Document& doc, RunState* run);
  // 2. Rescans the top-level statements (all of them when `whole`, else each window, from the
  //    statement before it to the first unchanged one after it) into `order`; statements found
  //    again keep their results, new ones are discovered and counted into the file's names.
  void Rescan(RunState* run, TSNode root, std::string_view text, bool whole, RunStats* stats);
  //    The text to rescan, in current offsets and in order: everything when `whole`; else the
  //    window of changed text and each statement that had syntax errors or is `joined` to the
  //    next (tree-sitter parses text with errors afresh in every reparse, and may recover
  //    differently).
  struct Window {
    uint32_t lo = 0, hi = 0;
  };
  std::vector<Window> Windows(const RunState& run, bool whole) const;
  //    Rescans from the cursor's node (none when !`have`), replacing order[first, ...): to the end
  //    when `whole`, else until a statement after `hi` is the old statement at its place (the
  //    windows from *next_window on that the stretch reaches join it, moving *next_window).
  //    Returns the index in `order` after the statements it placed.
  size_t RescanStretch(RunState* run, TSTreeCursor* cursor, bool have, std::string_view text, size_t first,
                       bool whole, uint32_t hi, const std::vector<Window>& windows, size_t* next_window,
                       RunStats* stats);
  // More statements with syntax errors than this, and Rescan walks the whole root: each window
  // costs a descent from the root (a few us), a walk about 0.4 us per statement.
  static constexpr size_t kMaxErrorWindows = 512;
  //    Whether `node` has `top`'s text and symbol (SameStatement), the test for a statement
  //    found again by text: a zero-width closer's text is "" whichever bracket it closes.
  static bool SameStatement(const Top& top, TSNode node, std::string_view node_text);
  //    Whether `node`, found at `top`'s key in run `gen`, is still the statement `top` was made
  //    for: its key is from the last run (a node of the tree still held), or older with the same
  //    text and symbol and no errors.
  static bool KeyHolds(const Top& top, TSNode node, std::string_view node_text, uint64_t gen);
  //    Whether `slot`, an old statement not claimed in run `gen`, is `node` unchanged: the same
  //    node (its key, and KeyHolds), start and end, and no edit touched it.
  static bool Kept(const Slot& slot, TSNode node, std::string_view node_text, uint64_t gen);
  //    The file's aliases: header comments, every statement's imports, the era setting.
  Aliases FileAliases(TSNode root, std::string_view text, Era era) const;
  //    Rescan, then resolve the aliases; a changed alias set starts discovery over (at most
  //    kMaxDiscoveryAttempts times) and a changed lowering hash drops every result.
  void ScanStatements(const Document& doc, Era era, RunState* run, RunStats* stats);
  // 3. Statements whose results depend on a name that came or went are analysed again.
  void MarkStale(const RunState& run, bool check_uses);
  // 4. Lowers and checks every statement not analysed yet; returns whether the file has
  //    TVMScript.
  bool AnalyzeStatements(const Document& doc, const AnalysisOptions& options, const RunState& run,
                         RunStats* stats);
  //    AnalyzeTop on each of `todo`, on up to `threads` threads (0: one per core) when there are
  //    at least kStatementsPerThread statements per thread; the results are the same.
  void AnalyzeTops(const std::vector<Top*>& todo, std::string_view text, const ModuleContext& base,
                   unsigned threads, RunStats* stats);
  static constexpr size_t kStatementsPerThread = 8;
  // 5. The file's diagnostics in position order, suppressions applied (fills `diagnostics`).
  void AssembleDiagnostics(const Document& doc, const RunState& run);
  // Splits `diagnostics` into `stretches` (after the suppressions).
  void FindStretches();
  //    Function results no statement claimed in this run go to limbo; limbo is kept within its
  //    bounds (`functions`: in the file now).
  void DropOrphans(uint64_t gen, size_t functions);

  // A statement that is gone: its functions' results are dropped at the end of the run unless
  // a new statement (the edited version of this one) claimed them.
  void Forget(Top* top) {
    for (const FoundModule& m : top->found.modules) {
      for (const FoundFunction& f : m.functions) orphans.push_back(f.def.id);
    }
    for (const FoundFunction& f : top->found.standalone) orphans.push_back(f.def.id);
  }
  std::vector<const void*> orphans;
  uint64_t reclaimable_generation = 0;  // the last run that marked a function reclaimable

  // A statement found again under a new node: its functions' results move to the new nodes.
  void RekeyFunctions(const Discovery& before, const Discovery& after) {
    std::vector<const void*> old_ids, new_ids;
    auto collect = [](const Discovery& d, std::vector<const void*>* ids) {
      for (const FoundModule& m : d.modules) {
        for (const FoundFunction& f : m.functions) ids->push_back(f.def.id);
      }
      for (const FoundFunction& f : d.standalone) ids->push_back(f.def.id);
    };
    collect(before, &old_ids);
    collect(after, &new_ids);
    if (old_ids.size() != new_ids.size()) return;
    for (size_t i = 0; i < old_ids.size(); ++i) {
      Cached* c = cache.Find(old_ids[i]);
      if (c == nullptr) continue;
      std::string moved_text = c->text;
      cache.Rekey(new_ids[i], moved_text, [&](const Cached& e) { return &e == c; });
      c->reclaimable = 0;  // its statement holds it again: no other node may claim it
    }
  }
};

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_ANALYSIS_IMPL_H_
