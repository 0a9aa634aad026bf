// The analyzer, part 2: the function cache (signatures, limbo) and the lowering of one top-level
// statement's functions, with their diagnostics (analysis_impl.h has the state).
#include "analysis_impl.h"

namespace tvmls::analysis {

using namespace analyzer_internal;  // NOLINT: the analyzer's own helpers

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
  // Unique in the process, not only in this Analyzer: a caller that replaces its Analyzer keeps
  // nothing by an old one's stamp. Statements are analysed on several threads.
  static std::atomic<uint64_t> last_stamp{0};
  top->diag_stamp = ++last_stamp;
  TextRange whole = RangeOf(top->node);
  auto inside = [&](TextRange r) { return r.begin >= whole.begin && r.end <= whole.end; };
  top->diag_contained = std::all_of(top->diagnostics.begin(), top->diagnostics.end(), [&](const Diagnostic& d) {
    return inside(d.range) &&
           std::all_of(d.related.begin(), d.related.end(), [&](const RelatedLocation& l) { return inside(l.range); });
  });
}

Analyzer::Analyzer(AnalysisOptions options) : impl_(std::make_unique<Impl>()), options_(options) {}
Analyzer::~Analyzer() = default;

}  // namespace tvmls::analysis
