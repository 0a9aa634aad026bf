// The analyzer: finds the TVMScript in a file, lowers each function (reusing unchanged ones),
// assembles diagnostics.
#include "analysis.h"

#include <algorithm>
#include <cstring>
#include <atomic>
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

namespace {

Diagnostic SyntaxDiagnostic(const SyntaxError& e, uint32_t shift_back = 0) {
  Diagnostic d;
  d.range = {e.range.begin - shift_back, e.range.end - shift_back};
  d.code = "syntax-error";
  d.message = e.message;
  return d;
}

void MoveRange(TextRange* r, int64_t delta) {
  r->begin = static_cast<uint32_t>(r->begin + delta);
  r->end = static_cast<uint32_t>(r->end + delta);
}

// Moves every range of a diagnostic by `delta` bytes.
void Shift(Diagnostic* d, int64_t delta) {
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
bool IsLargeError(TSNode n) {
  constexpr uint32_t kLargeErrorBytes = 64 * 1024;
  return ts_node_end_byte(n) - ts_node_start_byte(n) > kLargeErrorBytes && std::strcmp(ts_node_type(n), "ERROR") == 0;
}

// Text that does not parse but spells a TVMScript unit: its syntax errors are reported even when
// no unit can be found in it (a bracket that swallowed the file hides every module).
bool SpellsTvmScript(std::string_view text) {
  for (std::string_view word : {"ir_module", "prim_func", "R.function", "relax.function"}) {
    if (text.find(word) != std::string_view::npos) return true;
  }
  return false;
}

bool ByPosition(const Diagnostic& a, const Diagnostic& b) {
  return a.range.begin != b.range.begin ? a.range.begin < b.range.begin : a.range.end < b.range.end;
}

}  // namespace

// Entries keyed by syntax-node identity, with a second way in by text: tree-sitter does not always
// reuse the nodes after an edit (its external-scanner state check is conservative), and a
// statement or function whose text is unchanged, that starts at the same column and parses
// without errors, parses the same and is worth exactly what it was. (With errors it is not:
// recovery depends on the context.) Re-keying moves an entry to the node that now holds its text.
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
      } else if (!keep && c.limbo != 0) {
        --in_limbo;
      }
      return keep;
    });
  }

  struct Top {
    const void* key = nullptr;  // in `tops`
    std::string text;  // the statement's text
    uint32_t column = 0;
    bool clean = false;  // parsed without errors
    TSNode node;              // valid in the run `discovered` only
    uint64_t generation = 0;  // the last run that placed it
    uint64_t discovered = 0;  // the run whose tree `found`'s nodes are from
    uint64_t candidate = 0;   // the run in which it may be claimed by another node
    Discovery found;
    NameUses uses;  // when the statement is not itself a TVMScript unit (check/expected_failure.h)
    bool analysed = false;
    std::vector<ModuleModel> modules;
    std::vector<FunctionRef> standalone;
    int functions = 0;
    int pipelines = 0;  // pipelines of passes found in it (model/pipeline.h)
    std::vector<Diagnostic> diagnostics;  // absolute at `diag_base`, by position
    uint32_t diag_base = 0;
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
  };
  std::vector<Slot> order;
  uint64_t doc_id = 0, doc_revision = 0;  // what `order` describes

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
  std::vector<Diagnostic> unused_suppressions;  // the unused-suppression hints of the last run
  // The `tvmls:` directives of the last run's text, comments or not (check/suppressions.h:
  // FindDirectives), kept up to date through the edit log so that an edit reads only the lines
  // it touched. Which of them are comments is asked of the current tree on every run: an edit
  // elsewhere (a quote opening or closing a string) can change it on lines no edit touched.
  std::vector<Suppression> directives;
  bool suppressions_known = false;
  bool model_valid = false;
  FileModel model;

  ~Impl() {
    if (held != nullptr) ts_tree_delete(held);
  }

  // Drops every result (the options they were computed under changed).
  void Clear() {
    cache.Clear();
    in_limbo = 0;
    peak_functions = 0;
    Restart();
  }
  // Forgets the statements; function results go to limbo (a new discovery, a new document).
  void Retire() {
    RetireAll(generation);
    Restart();
  }
  void Restart() {
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
  // 2. Rescans the top-level statements (all of them when `whole`, else from the first the
  //    window touches to the first unchanged one after it) into `order`; statements found
  //    again keep their results, new ones are discovered and counted into the file's names.
  void Rescan(RunState* run, TSNode root, std::string_view text, bool whole, RunStats* stats);
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

// The cache entry of one function, its signature lowered. The map itself is guarded by
// `cache_mu` (statements may be analysed in parallel); the entry returned belongs to this caller
// for the rest of the run (no other function has its node, and a claimed entry is not claimable).
Analyzer::Impl::Cached& Analyzer::Impl::SignatureOf(const FoundFunction& f, const std::string& module,
                                                  std::string_view text) {
  auto kind = f.is_prim ? FunctionModel::Kind::kPrim : FunctionModel::Kind::kRelax;
  bool clean = !ts_node_has_error(f.def);
  uint32_t column = ts_node_start_point(f.def).column;
  std::string_view def_text = TextOf(f.def, text);
  Cached* c = nullptr;
  {
    std::lock_guard<std::mutex> lock(cache_mu);
    c = cache.Find(f.def.id);
    if (c != nullptr && (c->generation == generation || c->text != def_text || c->alias != alias_hash)) {
      // A key left by a node that is gone, whose address was reused, or results lowered under
      // other aliases: kept by text.
      ToLimbo(f.def.id, generation);
      c = nullptr;
    }
    if (c == nullptr && clean && (reclaimable_generation == generation || in_limbo > 0)) {
      // The same text in the same module: from the statement this one replaces, or from limbo.
      // (Not from a statement that is still there: it holds its entry.)
      c = cache.Rekey(f.def.id, def_text, [&](const Cached& old) {
        return (old.reclaimable == generation || old.limbo != 0) && old.generation != generation && old.clean &&
               old.column == column && old.fn != nullptr && old.fn->kind == kind && old.module == module &&
               old.alias == alias_hash;
      });
      if (c != nullptr && c->limbo != 0) {
        c->limbo = 0;
        --in_limbo;
      }
    }
    if (c == nullptr || c->fn == nullptr || c->fn->kind != kind) {
      if (c != nullptr && c->limbo != 0) --in_limbo;
      c = &cache.Insert(f.def.id, def_text);
      c->clean = clean;
      c->column = column;
      c->module = module;
      c->alias = alias_hash;
    }
    c->generation = generation;
  }
  if (c->fn == nullptr) c->fn = LowerSignature(f.def, text, aliases, f.is_prim);
  if (c->module != module) {
    c->module = module;
    c->body_done = false;
  }
  return *c;
}

void Analyzer::Impl::AnalyzeFunctions(Top* top, const std::vector<FoundFunction>& fns,
                                      const std::string& module_name, const std::set<std::string>& externs,
                                      std::vector<FunctionRef>* refs, std::string_view text,
                                      const ModuleContext& base, RunStats* stats) {
  std::vector<Cached*> entries;
  ModuleContext ctx = base;
  ctx.module_name = module_name;
  ctx.extern_globals = externs;
  std::string module_key = module_name;
  for (const std::string& e : externs) module_key += "\x01" + e;
  for (const FoundFunction& f : fns) {
    Cached& c = SignatureOf(f, module_key, text);
    entries.push_back(&c);
    if (module_name.empty()) continue;
    auto [pos, inserted] = ctx.functions.emplace(c.fn->name, c.fn.get());
    if (!inserted) {
      uint32_t fbase = ts_node_start_byte(f.def);
      TextRange name{c.fn->name_range.begin + fbase, c.fn->name_range.end + fbase};
      top->diagnostics.push_back(check::DuplicateModuleFunction(name, module_name, c.fn->name));
    }
  }
  for (size_t i = 0; i < fns.size(); ++i) {
    Cached& c = *entries[i];
    bool fresh = c.body_done;
    if (fresh) {
      for (const auto& [dep, hash] : c.fn->dependencies) {
        auto it = ctx.functions.find(dep);
        uint64_t now = it == ctx.functions.end() ? 0 : it->second->signature_hash;
        if (now != hash) fresh = false;
      }
    }
    ++top->functions;
    ctx.enclosing = fns[i].enclosing.get();
    if (fresh) {
      for (const auto& [name, was] : c.fn->outer_lookups) {
        if (ctx.IsPythonName(name) != was) fresh = false;
      }
    }
    if (!fresh) {
      LowerBody(fns[i].def, text, ctx, c.fn.get());
      c.fn->syntax_errors.clear();
      uint32_t fbase = ts_node_start_byte(fns[i].def);
      for (const SyntaxError& e : CollectSyntaxErrors(fns[i].def, text)) {
        c.fn->syntax_errors.push_back(SyntaxDiagnostic(e, fbase));
      }
      c.body_done = true;
      ++stats->functions_analyzed;
    }
    refs->push_back(FunctionRef{c.fn, ts_node_start_byte(fns[i].def), ts_node_has_error(fns[i].def)});
  }
}

void Analyzer::Impl::EmitFunctionDiagnostics(const std::vector<FunctionRef>& fns, std::vector<Diagnostic>* out_ptr) {
  std::vector<Diagnostic>& out = *out_ptr;
  std::map<std::string, const FunctionRef*> by_name;
  std::map<std::string, int> call_sites;
  for (const FunctionRef& r : fns) {
    by_name.emplace(r.fn->name, &r);
    for (const auto& call : r.fn->calls) ++call_sites[call.first];
  }
  for (const FunctionRef& r : fns) {
    for (const Diagnostic& e : r.fn->syntax_errors) {
      Diagnostic d = e;
      d.range = Absolute(r, d.range);
      out.push_back(std::move(d));
    }
    if (r.has_syntax_error) continue;
    size_t first = out.size();
    for (const Diagnostic& rel : r.fn->diagnostics) {
      Diagnostic d = rel;
      Shift(&d, r.base);
      out.push_back(std::move(d));
    }
    std::vector<std::pair<size_t, size_t>> drop_fixes;
    for (const FunctionModel::CrossRef& x : r.fn->cross_refs) {
      if (x.diagnostic >= r.fn->diagnostics.size()) continue;
      Diagnostic& d = out[first + x.diagnostic];
      const Diagnostic& orig = r.fn->diagnostics[x.diagnostic];
      auto callee = by_name.find(x.callee);
      if (!x.is_fix) {
        if (x.item >= d.related.size()) continue;
        if (callee == by_name.end()) continue;
        d.related[x.item].range = Absolute(*callee->second, orig.related[x.item].range);
      } else {
        if (x.item >= d.fixes.size()) continue;
        if (callee == by_name.end() || call_sites[x.callee] != 1) {
          drop_fixes.emplace_back(first + x.diagnostic, x.item);
          continue;
        }
        for (size_t k = 0; k < d.fixes[x.item].edits.size(); ++k) {
          d.fixes[x.item].edits[k].range = Absolute(*callee->second, orig.fixes[x.item].edits[k].range);
        }
      }
    }
    std::sort(drop_fixes.rbegin(), drop_fixes.rend());
    for (const auto& [di, fi] : drop_fixes) {
      out[di].fixes.erase(out[di].fixes.begin() + static_cast<long>(fi));
    }
  }
}

void Analyzer::Impl::MarkExpectedFailures(Top* top, std::string_view text) const {
  auto unit_range = [](TSNode def) {
    TSNode parent = ts_node_parent(def);
    return RangeOf(Is(parent, "decorated_definition") ? parent : def);
  };
  // A unit that is the statement itself may also be expected to fail by how tests use it.
  TSNode top_def = Is(top->node, "decorated_definition") ? Field(top->node, "definition") : top->node;
  for (const FoundModule& m : top->found.modules) {
    auto why = ExpectedFailureOf(m.node, text, m.name);
    if (!why && (ts_node_eq(m.node, top_def) || ts_node_eq(m.node, top->node))) why = ExpectedByUse(m.name_node, m.name);
    if (why) MarkExpectedFailure(*why, unit_range(m.node), &top->diagnostics);
  }
  for (size_t i = 0; i < top->found.standalone.size() && i < top->standalone.size(); ++i) {
    const FoundFunction& f = top->found.standalone[i];
    const std::string& name = top->standalone[i].fn->name;
    auto why = ExpectedFailureOf(f.def, text, name);
    if (!why && (ts_node_eq(f.def, top_def) || ts_node_eq(f.def, top->node))) {
      TSNode def = Is(f.def, "decorated_definition") ? Field(f.def, "definition") : f.def;
      why = ExpectedByUse(Field(def, "name"), name);
    }
    if (why) MarkExpectedFailure(*why, unit_range(f.def), &top->diagnostics);
  }
  for (const Discovery::MacroArgument& m : top->found.macro_arguments) {
    TSNode def = Field(m.definition, "definition");
    auto why = ExpectedFailureOf(m.definition, text, TextOf(Field(def, "name"), text));
    if (why) MarkExpectedFailure(*why, RangeOf(m.definition), &top->diagnostics);
  }
}

void Analyzer::Impl::AnalyzeTop(Top* top, std::string_view text, const ModuleContext& base, RunStats* stats) {
  top->modules.clear();
  top->standalone.clear();
  top->diagnostics.clear();
  top->functions = 0;
  for (const FoundModule& m : top->found.modules) {
    ModuleModel mm;
    mm.name = m.name;
    mm.range = RangeOf(m.node);
    mm.name_range = RangeOf(m.name_node);
    mm.extern_globals = m.extern_globals;
    mm.rewriter = m.rewriter;
    AnalyzeFunctions(top, m.functions, m.name, m.extern_globals, &mm.functions, text, base, stats);
    if (m.rewriter && !ts_node_has_error(m.node)) {
      types::PrintOptions print{aliases.current_era_printing()};
      for (Diagnostic& d : check::RewriterModule(mm, m.other_definitions, print)) top->diagnostics.push_back(std::move(d));
    }
    top->modules.push_back(std::move(mm));
  }
  AnalyzeFunctions(top, top->found.standalone, "", {}, &top->standalone, text, base, stats);

  // Syntax errors outside the functions (theirs are cached with them).
  std::set<const void*> function_nodes;
  for (const FoundModule& m : top->found.modules) {
    for (const FoundFunction& f : m.functions) function_nodes.insert(f.def.id);
  }
  for (const FoundFunction& f : top->found.standalone) function_nodes.insert(f.def.id);
  auto skip = [&](TSNode n) { return function_nodes.count(n.id) > 0; };
  for (const SyntaxError& e : CollectSyntaxErrors(top->node, text, skip)) top->diagnostics.push_back(SyntaxDiagnostic(e));

  // Pipelines of passes, outside the TVMScript units.
  std::set<const void*> units = function_nodes;
  for (const FoundModule& m : top->found.modules) units.insert(m.node.id);
  std::vector<Pipeline> pipelines;
  if (!IsLargeError(top->node)) FindPipelines(top->node, text, units, *base.aliases, &pipelines);
  top->pipelines = static_cast<int>(pipelines.size());
  // A pipeline may be part of another (a Sequential applied in a chain): each problem once.
  std::set<std::pair<std::pair<uint32_t, uint32_t>, std::string>> reported;
  for (const Pipeline& p : pipelines) {
    for (Diagnostic& d : check::PassOrder(p)) {
      if (reported.insert({{d.range.begin, d.range.end}, d.message}).second) top->diagnostics.push_back(std::move(d));
    }
  }
  for (const Discovery::MacroArgument& m : top->found.macro_arguments) {
    top->diagnostics.push_back(check::MacroDecoratorArgument(RangeOf(m.argument), m.spelling));
  }

  for (const ModuleModel& m : top->modules) EmitFunctionDiagnostics(m.functions, &top->diagnostics);
  EmitFunctionDiagnostics(top->standalone, &top->diagnostics);
  if (expected_failures) MarkExpectedFailures(top, text);
  std::stable_sort(top->diagnostics.begin(), top->diagnostics.end(), ByPosition);
  top->analysed = true;
  top->diag_base = top->model_base = ts_node_start_byte(top->node);
}

Analyzer::Analyzer(AnalysisOptions options) : impl_(std::make_unique<Impl>()), options_(options) {}
Analyzer::~Analyzer() = default;

const std::vector<const Diagnostic*>& Analyzer::Diagnostics() const { return impl_->diagnostics; }


namespace {

// Top-level children that are statements of their own (comments and stray anonymous tokens are
// not; zero-width closers and MISSING nodes are, for their syntax errors).
bool IsStatementNode(TSNode n) {
  if (ts_node_is_missing(n) || ts_node_start_byte(n) == ts_node_end_byte(n)) return true;
  return ts_node_is_named(n) && std::strcmp(ts_node_type(n), "comment") != 0;
}

// The top-level statement (IsStatementNode) that spans [start, end), or failing that the first
// one that starts at `start`; a null node when none does. Not the child that
// ts_tree_cursor_goto_first_child_for_byte(start) lands on: with tree-sitter 0.20.7 that was the
// loose `(` token ending exactly at `start` before a statement of a file whose root is an ERROR,
// and that statement's errors went missing from an incremental run
// (tests/fuzz/regressions/incremental/statement_after_loose_token).
TSNode StatementAt(TSNode root, uint32_t start, uint32_t end) {
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  TSNode out{};
  if (ts_tree_cursor_goto_first_child_for_byte(&cursor, start) >= 0) {
    do {
      TSNode n = ts_tree_cursor_current_node(&cursor);
      if (ts_node_start_byte(n) > start) break;
      if (ts_node_start_byte(n) != start || !IsStatementNode(n)) continue;
      if (ts_node_is_null(out)) out = n;
      if (ts_node_end_byte(n) == end) {
        out = n;
        break;
      }
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

}  // namespace

const FileModel* Analyzer::Model() const {
  Impl& impl = *impl_;
  if (!impl.model_valid) {
    impl.model = FileModel{};
    impl.model.aliases = impl.aliases;
    for (const Impl::Slot& slot : impl.order) {
      Impl::Top* top = slot.top;
      int64_t delta = static_cast<int64_t>(slot.start) - top->model_base;
      if (delta != 0) {
        for (ModuleModel& m : top->modules) {
          MoveRange(&m.range, delta);
          MoveRange(&m.name_range, delta);
          for (FunctionRef& f : m.functions) f.base = static_cast<uint32_t>(f.base + delta);
        }
        for (FunctionRef& f : top->standalone) f.base = static_cast<uint32_t>(f.base + delta);
        top->model_base = slot.start;
      }
      impl.model.modules.insert(impl.model.modules.end(), top->modules.begin(), top->modules.end());
      impl.model.standalone.insert(impl.model.standalone.end(), top->standalone.begin(), top->standalone.end());
    }
    impl.model_valid = true;
  }
  return &impl.model;
}

void Analyzer::Impl::MapEdits(const Document& doc, RunState* run) {
  std::vector<EditSpan>& edits = run->edits;
  uint32_t& lo = run->lo;
  uint32_t& hi = run->hi;
  lo = 0;
  hi = static_cast<uint32_t>(doc.Text().size());
  run->incremental = doc_id == doc.Id() && doc.EditsSince(doc_revision, &edits) && edits.size() <= kMaxEditsPerRun;
  if (run->incremental) {
    bool any = false;
    for (const EditSpan& e : edits) {
      int64_t delta = static_cast<int64_t>(e.new_end) - e.old_end;
      for (Slot& slot : order) {
        if (slot.end < e.begin) continue;
        if (slot.start > e.old_end) {
          slot.start = static_cast<uint32_t>(slot.start + delta);
          slot.end = static_cast<uint32_t>(slot.end + delta);
        } else {
          slot.damaged = true;
          slot.start = std::min(slot.start, e.begin);
          slot.end = std::max<uint32_t>(e.new_end, static_cast<uint32_t>(std::max<int64_t>(slot.end + delta, e.begin)));
        }
      }
      // The window of changed text, carried through later edits.
      if (any) {
        if (lo > e.old_end) {
          lo = static_cast<uint32_t>(lo + delta);
          hi = static_cast<uint32_t>(hi + delta);
        } else if (hi >= e.begin) {
          hi = static_cast<uint32_t>(std::max<int64_t>(static_cast<int64_t>(hi) + delta, e.new_end));
        }
        lo = std::min(lo, e.begin);
        hi = std::max(hi, e.new_end);
      } else {
        lo = e.begin;
        hi = e.new_end;
        any = true;
      }
    }
    if (!any) lo = hi = 0;
    for (const Slot& slot : order) {
      if (slot.damaged) {
        lo = std::min(lo, slot.start);
        hi = std::max(hi, slot.end);
      }
    }
  }

}

void Analyzer::Impl::Rescan(RunState* run, TSNode root, std::string_view text, bool whole,
                             RunStats* stats) {
    size_t first = 0;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  bool have = false;
  if (whole) {
    have = ts_tree_cursor_goto_first_child(&cursor);
  } else if (!run->edits.empty()) {
    // Start one statement before the change (the statement an edit touches may now begin
    // earlier).
    auto at = [&](uint32_t pos) {
      return static_cast<size_t>(
          std::partition_point(order.begin(), order.end(), [&](const Slot& x) { return x.end < pos; }) -
          order.begin());
    };
    size_t i = at(run->lo);
    if (i > 0) --i;
    uint32_t from = i < order.size() ? std::min(run->lo, order[i].start) : run->lo;
    have = ts_tree_cursor_goto_first_child_for_byte(&cursor, from) >= 0;
    if (have) from = std::min(from, ts_node_start_byte(ts_tree_cursor_current_node(&cursor)));
    first = at(from);
  } else {
    first = order.size();  // nothing changed
  }
  // Old statements of the stretch may be claimed by the nodes scanned (marked as the scan passes
  // them, and all of them once the stretch is known).
  size_t marked = first;
  auto mark_until = [&](size_t end_index, uint32_t pos) {
    for (; marked < end_index && (pos == UINT32_MAX || order[marked].start <= pos); ++marked) {
      Top* top = order[marked].top;
      top->candidate = run->gen;
      auto mark = [&](const FoundFunction& f) {
        if (Impl::Cached* c = cache.Find(f.def.id)) {
          c->reclaimable = run->gen;
          reclaimable_generation = run->gen;
        }
      };
      for (const FoundModule& m : top->found.modules) {
        for (const FoundFunction& f : m.functions) mark(f);
      }
      for (const FoundFunction& f : top->found.standalone) mark(f);
    }
  };
  std::vector<Slot> fresh;
  size_t stop = order.size();
  size_t next_old = first;
  for (; have; have = ts_tree_cursor_goto_next_sibling(&cursor)) {
    TSNode child = ts_tree_cursor_current_node(&cursor);
    if (!IsStatementNode(child)) continue;
    ++stats->statements_scanned;
    uint32_t start = ts_node_start_byte(child), end = ts_node_end_byte(child);
    std::string_view child_text = TextOf(child, text);
    if (!whole && start > run->hi) {
      // The unchanged rest begins at an old statement that starts here and is this node.
      while (next_old < order.size() && order[next_old].start < start) ++next_old;
      if (next_old < order.size() && order[next_old].start == start && !order[next_old].damaged &&
          tops.Find(child.id) == order[next_old].top && order[next_old].top->text == child_text) {
        stop = next_old;
        break;
      }
    }
    mark_until(order.size(), end);
    Top* top = tops.Find(child.id);
    if (top != nullptr && (top->candidate != run->gen || top->generation == run->gen || top->text != child_text)) {
      tops.MoveAside(child.id);  // a key left by a node that is gone, whose address was reused
      top = nullptr;
    }
    bool clean = !ts_node_has_error(child);
    uint32_t column = ts_node_start_point(child).column;
    if (top == nullptr && clean && marked > first) {
      // The same text as a statement of the last run: its results hold, at a new offset.
      top = tops.Rekey(child.id, child_text, [&](const Top& old) {
        return old.candidate == run->gen && old.generation != run->gen && old.clean && old.column == column;
      });
      if (top != nullptr) {
        Discovery found;
        Discover(child, text, aliases, &found);
        RekeyFunctions(top->found, found);
        top->found = std::move(found);
        top->discovered = run->gen;
      }
    }
    if (top == nullptr) {
      top = &tops.Insert(child.id, child_text);
      top->clean = clean;
      top->column = column;
      Discover(child, text, aliases, &top->found);
      top->discovered = run->gen;
      Count(top->found, +1, &run->flipped);
      if (!Impl::IsUnitStatement(child, top->found) && !IsLargeError(child)) CollectNameUses(child, text, &top->uses);
      CountUses(top->uses, +1, &run->flipped_uses);
    }
    top->node = child;
    top->generation = run->gen;
    Slot slot;
    slot.top = top;
    slot.start = start;
    slot.end = end;
    slot.clean = clean;
    if (ts_node_is_named(child) && !ts_node_is_missing(child)) {
      slot.indent = static_cast<int32_t>(IndentationAt(text, start));
    }
    fresh.push_back(slot);
  }
  ts_tree_cursor_delete(&cursor);
  if (first > stop) first = stop;
  mark_until(stop, UINT32_MAX);
  // Statements of the replaced stretch that nothing claimed are gone.
  for (size_t k = first; k < stop; ++k) {
    Top* top = order[k].top;
    if (top->generation == run->gen) continue;
    Count(top->found, -1, &run->flipped);
    CountUses(top->uses, -1, &run->flipped_uses);
    Forget(top);
    tops.Erase(top->key);
  }
  order.erase(order.begin() + static_cast<long>(first), order.begin() + static_cast<long>(stop));
  order.insert(order.begin() + static_cast<long>(first), fresh.begin(), fresh.end());
}

Aliases Analyzer::Impl::FileAliases(TSNode root, std::string_view text, Era era) const {
  // The printer's header comments (`# from tvm.script import tir as T`) before the first
  // statements.
  Aliases out;
  bool saw_tir = false, saw_tirx = false;
  int non_comments = 0;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (bool have = ts_tree_cursor_goto_first_child(&cursor); have && non_comments <= kHeaderStatements;
       have = ts_tree_cursor_goto_next_sibling(&cursor)) {
    TSNode c = ts_tree_cursor_current_node(&cursor);
    if (std::strcmp(ts_node_type(c), "comment") != 0) {
      ++non_comments;
    } else if (auto a = HeaderComment(TextOf(c, text))) {
      AddAlias(&out, &saw_tir, &saw_tirx, a->first, a->second);
    }
  }
  ts_tree_cursor_delete(&cursor);
  for (const auto& [a, count] : alias_count) AddAlias(&out, &saw_tir, &saw_tirx, a.first, a.second);
  if (saw_tir != saw_tirx) {
    out.classic = saw_tir;
    out.current = saw_tirx;
  }
  if (era == Era::kClassic) {
    out.classic = true;
    out.current = false;
  } else if (era == Era::kCurrent) {
    out.classic = false;
    out.current = true;
  }
  return out;
}

void Analyzer::Impl::ScanStatements(const Document& doc, Era era, RunState* run, RunStats* stats) {
  std::string_view text = doc.Text();
  TSNode root = doc.Root();
  // Discovery needs the aliases, which come from every statement: when they turn out different
  // from the ones discovery used, everything is discovered again with the new ones.
  if (!run->incremental) Retire();
  // Where the text parses without errors, now and the last time outside what the edits touched,
  // a statement the edits did not touch parses as it did. Error recovery is not local (tree-sitter
  // weighs each parse version's errors against the others', and a new error can change how text
  // far before it parses), so otherwise every statement is looked at.
  bool whole = !run->incremental || ts_node_has_error(root);
  for (size_t k = 0; k < order.size() && !whole; ++k) {
    if (!order[k].clean && !order[k].damaged) whole = true;
  }
  for (int attempt = 1;; ++attempt) {
    Rescan(run, root, text, whole, stats);
    Aliases found = FileAliases(root, text, era);
    // Discovery reads only the alias sets; lowering also the era and star imports.
    uint64_t discovery_hash_now = AliasSetHash(found);
    uint64_t lowering_hash = HashString(star_imports > 0 ? "*" : "", AliasHash(found));
    aliases = found;
    if (lowering_hash != alias_hash) {
      // Every statement is analysed again; the functions lowered under the old aliases go to
      // limbo as they are met (SignatureOf), and come back if those aliases do.
      alias_hash = lowering_hash;
      tops.ForEach([](Top& top) { top.analysed = false; });
    }
    // Pipelines read the names of TVM's pass modules: every statement is assembled again (its
    // functions' lowering is kept).
    if (uint64_t pass_hash = PassAliasHash(found); pass_hash != pass_alias_hash) {
      pass_alias_hash = pass_hash;
      tops.ForEach([](Top& top) { top.analysed = false; });
    }
    if (discovery_hash_now == discovery_hash || attempt >= kMaxDiscoveryAttempts) break;
    // What discovery found may be wrong: start over with the new aliases.
    discovery_hash = discovery_hash_now;
    Retire();
    run->flipped.clear();
    run->flipped_uses.clear();
    expecting_changed.clear();
    whole = true;
  }
  doc_id = doc.Id();
  doc_revision = doc.Revision();
}

void Analyzer::Impl::MarkStale(const RunState& run, bool check_uses) {
  const std::set<std::string>& flipped = run.flipped;
  const std::set<std::string>& flipped_uses = run.flipped_uses;
  if (flipped.empty() && (flipped_uses.empty() || !check_uses)) return;
  auto looked_up = [&](const std::vector<FunctionRef>& refs) {
    for (const FunctionRef& r : refs) {
      for (const auto& [name, was] : r.fn->outer_lookups) {
        if (flipped.count(name) > 0) return true;
      }
    }
    return false;
  };
  auto unit_named = [&](const Top& top) {
    if (flipped_uses.empty() || !check_uses) return false;
    auto matters = [&](const std::string& name) {
      return flipped_uses.count(name) > 0 && (expecting_uses.count(name) > 0 || expecting_changed.count(name) > 0);
    };
    for (const FoundModule& m : top.found.modules) {
      if (matters(m.name)) return true;
    }
    for (const FunctionRef& f : top.standalone) {
      if (matters(f.fn->name)) return true;
    }
    return false;
  };
  for (const Slot& slot : order) {
    Top* top = slot.top;
    if (!top->analysed) continue;
    bool stale = looked_up(top->standalone) || unit_named(*top);
    for (const ModuleModel& m : top->modules) stale = stale || looked_up(m.functions);
    if (stale) top->analysed = false;
  }
}

void Analyzer::Impl::AnalyzeTops(const std::vector<Top*>& todo, std::string_view text, const ModuleContext& base,
                                 unsigned threads, RunStats* stats) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<size_t>(threads, todo.size() / kStatementsPerThread));
  if (threads <= 1) {
    for (Top* top : todo) AnalyzeTop(top, text, base, stats);
    return;
  }
  // Statements are independent once discovery, the aliases and the file's names are known; the
  // only shared state they write is the function cache's map (SignatureOf locks it) and the
  // counters, kept per thread.
  std::atomic<size_t> next{0};
  std::vector<RunStats> counted(threads);
  std::vector<std::exception_ptr> failed(threads);
  auto work = [&](unsigned k) {
    try {
      for (size_t i; (i = next.fetch_add(1)) < todo.size();) AnalyzeTop(todo[i], text, base, &counted[k]);
    } catch (...) {
      failed[k] = std::current_exception();
      next = todo.size();
    }
  };
  std::vector<std::thread> pool;
  for (unsigned k = 1; k < threads; ++k) pool.emplace_back(work, k);
  work(0);
  for (std::thread& t : pool) t.join();
  for (const RunStats& c : counted) stats->functions_analyzed += c.functions_analyzed;
  for (const std::exception_ptr& e : failed) {
    if (e) std::rethrow_exception(e);
  }
}

bool Analyzer::Impl::AnalyzeStatements(const Document& doc, const AnalysisOptions& options,
                                       const RunState& run, RunStats* stats) {
  ModuleContext base_ctx;
  base_ctx.python_names = &python_names;
  base_ctx.star_import = star_imports > 0;
  base_ctx.aliases = &aliases;
  base_ctx.assumed_upper_bound = options.assumed_upper_bound;
  bool has_tvmscript = false;
  stats->statements = static_cast<int>(order.size());
  std::vector<Top*> todo;
  for (Slot& slot : order) {
    slot.damaged = false;
    Top* top = slot.top;
    if (top->analysed) continue;
    if (top->discovered != run.gen) {
      // `found` and `node` are from an older tree: find the statement again.
      top->node = StatementAt(doc.Root(), slot.start, slot.end);
      top->found = Discovery{};
      Discover(top->node, doc.Text(), aliases, &top->found);
      top->discovered = run.gen;
    }
    todo.push_back(top);
  }
  AnalyzeTops(todo, doc.Text(), base_ctx, options.threads, stats);
  for (const Slot& slot : order) {
    stats->functions += slot.top->functions;
    stats->pipelines += slot.top->pipelines;
    has_tvmscript = has_tvmscript || !slot.top->found.modules.empty() || !slot.top->found.standalone.empty() ||
                   slot.top->pipelines > 0;
  }
  return has_tvmscript || (ts_node_has_error(doc.Root()) && SpellsTvmScript(doc.Text()));
}

void Analyzer::Impl::AssembleDiagnostics(const Document& doc, const RunState& run) {
  // Statements do not overlap and each one's diagnostics are sorted, so this is a concatenation,
  // with the top-level indentation rule's errors at the statements they concern.
  IndentationCheck indent;
  std::vector<SyntaxError> indentation;
  for (const Slot& slot : order) {
    if (slot.indent >= 0) indent.Check(slot.start, slot.indent, &indentation);
  }
  for (const SyntaxError& e : indentation) root_errors.push_back(SyntaxDiagnostic(e));
  TSNode root = doc.Root();
  if (std::strcmp(ts_node_type(root), "ERROR") == 0) {
    // Nothing parsed as a module: the root itself is the ERROR (its children are loose tokens
    // and the statements that did parse, which report their own errors).
    auto below_root = [&](TSNode n) { return !ts_node_eq(n, root); };
    for (const SyntaxError& e : CollectSyntaxErrors(root, doc.Text(), below_root)) {
      if (e.range.begin == ts_node_start_byte(root)) root_errors.push_back(SyntaxDiagnostic(e));
    }
    std::stable_sort(root_errors.begin(), root_errors.end(), ByPosition);
  }
  size_t next_root = 0;
  for (const Slot& slot : order) {
    while (next_root < root_errors.size() && root_errors[next_root].range.begin <= slot.start) {
      diagnostics.push_back(&root_errors[next_root++]);
    }
    Top* top = slot.top;
    if (top->diagnostics.empty()) continue;
    int64_t delta = static_cast<int64_t>(slot.start) - top->diag_base;
    if (delta != 0) {
      for (Diagnostic& d : top->diagnostics) Shift(&d, delta);
      top->diag_base = slot.start;
    }
    for (const Diagnostic& d : top->diagnostics) diagnostics.push_back(&d);
  }
  for (; next_root < root_errors.size(); ++next_root) diagnostics.push_back(&root_errors[next_root]);

  // Suppression comments (check/suppressions.h): drop what they cover, report the unused ones.
  // After an edit only the lines it touched are read again (a full pass over a 4 MB file costs
  // about 0.4 ms); from scratch, one memchr pass for '#'.
  if (run.incremental && suppressions_known) {
    UpdateDirectives(doc, run.edits, &directives);
  } else {
    directives = FindDirectives(doc, 0, static_cast<uint32_t>(doc.Text().size()));
  }
  suppressions_known = true;
  diagnostics =
      ApplySuppressions(doc, InComments(doc, directives), diagnostics, &unused_suppressions);
}

void Analyzer::Impl::DropOrphans(uint64_t gen, size_t functions) {
  for (const void* id : orphans) {
    Cached* c = cache.Find(id);
    if (c != nullptr && c->generation != gen && c->reclaimable == gen) ToLimbo(id, gen);
  }
  orphans.clear();
  peak_functions = std::max(peak_functions, functions);
  if (in_limbo == 0) return;
  uint64_t oldest_kept = gen >= kLimboRuns ? gen - kLimboRuns + 1 : 0;
  size_t bound = peak_functions + peak_functions / 2 + 64;
  // Over the bound: the entries that must go to fit, oldest first; among entries set aside in the
  // same run (a storm sets thousands aside at once), by text, so that the choice does not depend
  // on addresses. (Dropping every entry as old as the last one to go emptied limbo: the keystroke
  // that repaired the text then lowered 4,283 functions again instead of about 1,100.)
  std::unordered_set<const Cached*> evicted;
  if (cache.Size() > bound) {
    std::vector<const Cached*> aside;
    cache.ForEach([&](const Cached& c) {
      if (c.limbo != 0) aside.push_back(&c);
    });
    size_t excess = std::min(aside.size(), cache.Size() - bound);
    if (excess > 0) {
      auto older = [](const Cached* a, const Cached* b) {
        return a->limbo != b->limbo ? a->limbo < b->limbo : std::tie(a->text, a->column) < std::tie(b->text, b->column);
      };
      std::nth_element(aside.begin(), aside.begin() + static_cast<long>(excess - 1), aside.end(), older);
      evicted.insert(aside.begin(), aside.begin() + static_cast<long>(excess));
    }
  } else if (gen % 16 != 0) {
    return;
  }
  cache.EraseIf([&](const Cached& c) {
    bool expired = c.limbo != 0 && (c.limbo < oldest_kept || evicted.count(&c) != 0);
    if (expired) --in_limbo;
    return expired;
  });
}

void Analyzer::Run(const Document& doc) {
  Impl& impl = *impl_;
  stats_ = RunStats{};
  impl.diagnostics.clear();
  impl.root_errors.clear();
  impl.model_valid = false;
  if (!doc.Refusal().empty()) {
    has_tvmscript_ = true;
    impl.Clear();
    Diagnostic d;
    d.range = {doc.RefusalOffset(), doc.RefusalOffset()};
    d.code = "syntax-error";
    d.message = doc.Refusal();
    impl.root_errors.push_back(std::move(d));
    impl.diagnostics.push_back(&impl.root_errors.back());
    return;
  }
  if (options_.assumed_upper_bound != impl.upper_bound ||
      options_.expected_failures != impl.expected_failures) {
    impl.Clear();
    impl.upper_bound = options_.assumed_upper_bound;
    impl.expected_failures = options_.expected_failures;
  }
  Impl::RunState run;
  run.gen = ++impl.generation;
  impl.expecting_changed.clear();
  impl.MapEdits(doc, &run);                              // 1. what the edits touched
  impl.ScanStatements(doc, options_.era, &run, &stats_);  // 2. statements and aliases
  impl.MarkStale(run, options_.expected_failures);        // 3. what depends on changed names
  has_tvmscript_ = impl.AnalyzeStatements(doc, options_, run, &stats_);  // 4. lower and check
  if (has_tvmscript_) {
    impl.AssembleDiagnostics(doc, run);                   // 5. the file's diagnostics
  } else {
    impl.suppressions_known = false;
  }
  impl.DropOrphans(run.gen, static_cast<size_t>(stats_.functions));
  stats_.functions_cached = static_cast<int>(impl.cache.Size());
  // Keep the analysed tree alive so cached node identities cannot be reused by new nodes.
  TSTree* copy = ts_tree_copy(doc.Tree());
  if (impl.held != nullptr) ts_tree_delete(impl.held);
  impl.held = copy;
}

std::vector<Diagnostic> AnalyzeText(const std::string& text, const AnalysisOptions& options) {
  Document doc(text);
  Analyzer analyzer(options);
  analyzer.Run(doc);
  std::vector<Diagnostic> out;
  out.reserve(analyzer.Diagnostics().size());
  for (const Diagnostic* d : analyzer.Diagnostics()) out.push_back(*d);
  return out;
}

}  // namespace tvmls::analysis
