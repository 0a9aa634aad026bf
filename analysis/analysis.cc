// The analyzer: finds the TVMScript in a file, lowers each function (reusing unchanged ones),
// assembles diagnostics. Part 1: the public API, the run's steps in order, assembly. Parts 2 and
// 3: analysis_functions.cc, analysis_scan.cc; the state: analysis_impl.h.
#include "analysis_impl.h"

#include <chrono>

namespace tvmls::analysis {

using namespace analyzer_internal;  // NOLINT: the analyzer's own helpers

const std::vector<const Diagnostic*>& Analyzer::Diagnostics() const { return impl_->diagnostics; }
const std::vector<Analyzer::Stretch>& Analyzer::DiagnosticStretches() const { return impl_->stretches; }

const FileModel* Analyzer::Model() const {
  Impl& impl = *impl_;
  if (!impl.model_valid) {
    if (!impl.UpdateModel()) impl.RebuildModel();
    impl.model_valid = true;
  }
  return &impl.model;
}

std::vector<Analyzer::Dependencies> Analyzer::StatementDependencies() const {
  const Impl& impl = *impl_;
  std::vector<Dependencies> out;
  out.reserve(impl.order.size());
  for (const Impl::Slot& slot : impl.order) {
    const Impl::Top& top = *slot.top;
    Dependencies d;
    d.begin = slot.start;
    d.end = slot.end;
    for (const std::string& name : top.looked_up) {
      if (impl.python_names.count(name) == 0) d.unbound_lookups.push_back(name);
    }
    for (const FoundModule& m : top.found.modules) {
      d.unit_names.push_back(m.name);
      d.whole_module_checks = d.whole_module_checks || m.rewriter;
    }
    for (const FunctionRef& f : top.standalone) d.unit_names.push_back(f.fn->name);
    if (top.modules.size() == 1 && top.standalone.empty()) {
      for (const FunctionRef& f : top.modules[0].functions) {
        Dependencies::Function fd;
        uint32_t base = f.base - top.model_base + slot.start;  // the model is moved lazily
        fd.begin = base + f.fn->range.begin;
        fd.end = base + f.fn->range.end;
        fd.name = f.fn->name;
        for (const auto& [name, found] : f.fn->outer_lookups) {
          if (impl.python_names.count(name) == 0) fd.unbound_lookups.push_back(name);
        }
        for (const auto& [callee, hash] : f.fn->dependencies) fd.callees.push_back(callee);
        for (const auto& [callee, range] : f.fn->calls) fd.callees.push_back(callee);
        for (const FunctionModel::CrossRef& x : f.fn->cross_refs) fd.fixes_in_callees = fd.fixes_in_callees || x.is_fix;
        d.module_functions.push_back(std::move(fd));
      }
    }
    out.push_back(std::move(d));
  }
  return out;
}

namespace {

// Moves a statement's modules and functions outside modules by `delta` bytes.
void MoveModel(ModuleModel* modules, size_t module_count, FunctionRef* standalone,
               size_t standalone_count, int64_t delta) {
  if (delta == 0) return;
  for (size_t i = 0; i < module_count; ++i) {
    ModuleModel& m = modules[i];
    MoveRange(&m.range, delta);
    MoveRange(&m.name_range, delta);
    for (FunctionRef& f : m.functions) f.base = static_cast<uint32_t>(f.base + delta);
  }
  for (size_t i = 0; i < standalone_count; ++i) {
    standalone[i].base = static_cast<uint32_t>(standalone[i].base + delta);
  }
}

// Brings a statement's own results to absolute offsets at `start`.
template <typename TopT>
void MoveTop(TopT* top, uint32_t start) {
  MoveModel(top->modules.data(), top->modules.size(), top->standalone.data(),
            top->standalone.size(), static_cast<int64_t>(start) - top->model_base);
  top->model_base = start;
}

}  // namespace

void Analyzer::Impl::RebuildModel() {
  model = FileModel{};
  model.aliases = aliases;
  model_parts.clear();
  model_parts.reserve(order.size());
  for (const Slot& slot : order) {
    Top* top = slot.top;
    MoveTop(top, slot.start);
    ModelPart part{top->diag_stamp, slot.start, model.modules.size(), top->modules.size(),
                   model.standalone.size(), top->standalone.size()};
    model_parts.push_back(part);
    model.modules.insert(model.modules.end(), top->modules.begin(), top->modules.end());
    model.standalone.insert(model.standalone.end(), top->standalone.begin(), top->standalone.end());
  }
}

bool Analyzer::Impl::UpdateModel() {
  if (model_parts.size() != order.size() || model_parts.empty()) return false;
  for (size_t i = 0; i < order.size(); ++i) {
    const Top* top = order[i].top;
    const ModelPart& part = model_parts[i];
    if (top->diag_stamp != part.stamp &&
        (top->modules.size() != part.module_count || top->standalone.size() != part.standalone_count)) {
      return false;
    }
  }
  model.aliases = aliases;
  for (size_t i = 0; i < order.size(); ++i) {
    const Slot& slot = order[i];
    ModelPart& part = model_parts[i];
    if (slot.top->diag_stamp == part.stamp) {
      MoveModel(model.modules.data() + part.modules, part.module_count,
                model.standalone.data() + part.standalone, part.standalone_count,
                static_cast<int64_t>(slot.start) - part.base);
    } else {
      MoveTop(slot.top, slot.start);
      std::copy(slot.top->modules.begin(), slot.top->modules.end(), model.modules.begin() + static_cast<long>(part.modules));
      std::copy(slot.top->standalone.begin(), slot.top->standalone.end(),
                model.standalone.begin() + static_cast<long>(part.standalone));
      part.stamp = slot.top->diag_stamp;
    }
    part.base = slot.start;
  }
  return true;
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
  stats->statements_analyzed = static_cast<int>(todo.size());
  AnalyzeTops(todo, doc.Text(), base_ctx, options.threads, stats);
  for (Top* top : todo) IndexLookups(top);
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
  FindStretches();
}

void Analyzer::Impl::FindStretches() {
  // A statement's diagnostics are contiguous in `diagnostics` and the statements come in order:
  // one walk of both, by address.
  stretches.clear();
  auto in = [](const std::vector<Diagnostic>& v, const Diagnostic* d) {
    return !v.empty() && d >= v.data() && d < v.data() + v.size();
  };
  auto owns = [&](const Top* top, const Diagnostic* d) { return in(top->diagnostics, d); };
  size_t slot = 0;
  for (size_t i = 0; i < diagnostics.size();) {
    const Diagnostic* d = diagnostics[i];
    Analyzer::Stretch s;
    s.first = i;
    // Root errors and unused suppressions are no statement's: told by address, not by a walk
    // over every later statement.
    size_t at = in(root_errors, d) || in(unused_suppressions, d) ? order.size() : slot;
    while (at < order.size() && !owns(order[at].top, d)) ++at;
    if (at == order.size()) {  // a root error or an unused suppression: no statement's
      s.count = 1;
      stretches.push_back(s);
      ++i;
      continue;
    }
    slot = at;
    const Top* top = order[slot].top;
    while (i < diagnostics.size() && owns(top, diagnostics[i])) ++i;
    s.count = i - s.first;
    s.begin = order[slot].start;
    s.end = order[slot].end;
    if (top->diag_contained && s.count == top->diagnostics.size()) s.stamp = top->diag_stamp;
    stretches.push_back(s);
  }
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
  } else if (gen % 16 != 0 || limbo_floor >= oldest_kept) {
    return;  // every 16 runs, and only when an entry may have expired
  }
  uint64_t floor = UINT64_MAX;
  cache.EraseIf([&](const Cached& c) {
    bool expired = c.limbo != 0 && (c.limbo < oldest_kept || evicted.count(&c) != 0);
    if (expired) --in_limbo;
    if (c.limbo != 0 && !expired) floor = std::min(floor, c.limbo);
    return expired;
  });
  limbo_floor = floor;
}

void Analyzer::Run(const Document& doc) {
  Impl& impl = *impl_;
  stats_ = RunStats{};
  impl.diagnostics.clear();
  impl.stretches.clear();
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
    impl.FindStretches();
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
  using Clock = std::chrono::steady_clock;
  Clock::time_point t0 = Clock::now();
  auto lap = [&t0](double* ms) {
    Clock::time_point now = Clock::now();
    *ms = std::chrono::duration<double, std::milli>(now - t0).count();
    t0 = now;
  };
  impl.MapEdits(doc, &run);                              // 1. what the edits touched
  impl.ScanStatements(doc, options_.era, &run, &stats_);  // 2. statements and aliases
  lap(&stats_.scan_ms);
  impl.MarkStale(run, options_.expected_failures);        // 3. what depends on changed names
  lap(&stats_.mark_ms);
  has_tvmscript_ = impl.AnalyzeStatements(doc, options_, run, &stats_);  // 4. lower and check
  lap(&stats_.analyse_ms);
  if (has_tvmscript_) {
    impl.AssembleDiagnostics(doc, run);                   // 5. the file's diagnostics
  } else {
    impl.suppressions_known = false;
  }
  lap(&stats_.assemble_ms);
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
