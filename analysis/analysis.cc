// The analyzer: finds the TVMScript in a file, lowers each function (reusing unchanged ones),
// assembles diagnostics.
#include "analysis.h"

#include <algorithm>
#include <unordered_map>

#include "model/lower.h"
#include "model/lower_internal.h"
#include "model/model.h"
#include "model/syntax_util.h"
#include "syntax/syntax_errors.h"

namespace tvmls::analysis {

namespace {

// A function definition found in the file.
struct FoundFunction {
  TSNode def;
  bool is_prim = false;
};

struct FoundModule {
  std::string name;
  TSNode node;
  TSNode name_node;
  std::vector<FoundFunction> functions;
  std::set<std::string> extern_globals;
};

struct Discovery {
  Aliases aliases;
  bool saw_tir = false, saw_tirx = false;
  std::set<std::string> python_names;
  bool star_import = false;
  std::vector<FoundModule> modules;
  std::vector<FoundFunction> standalone;
};

class Discoverer {
 public:
  Discoverer(std::string_view text, Discovery* out) : text_(text), out_(out) {}

  void Run(TSNode root) {
    HeaderComments(root);
    Statements(root, /*in_module=*/nullptr);
    Aliases& a = out_->aliases;
    if (out_->saw_tir != out_->saw_tirx) {
      a.classic = out_->saw_tir;
      a.current = out_->saw_tirx;
    }
  }

 private:
  void HeaderComments(TSNode root) {
    // The printer's header: `# from tvm.script import tir as T` comments before the object.
    int seen = 0;
    for (TSNode c : NamedChildren(root)) {
      if (!Is(c, "comment")) {
        if (++seen > 8) break;
        continue;
      }
      std::string_view t = TextOf(c, text_);
      size_t p = t.find("from tvm.script import ");
      if (p == std::string_view::npos) continue;
      std::string_view rest = t.substr(p + std::strlen("from tvm.script import "));
      size_t as = rest.find(" as ");
      std::string module(rest.substr(0, as));
      std::string alias = as == std::string_view::npos ? module : std::string(rest.substr(as + 4));
      while (!alias.empty() && (alias.back() == ' ' || alias.back() == '\r')) alias.pop_back();
      while (!module.empty() && module.back() == ' ') module.pop_back();
      AddAlias(module, alias);
    }
  }

  void AddAlias(const std::string& module, const std::string& alias) {
    Aliases& a = out_->aliases;
    if (module == "relax") a.relax.insert(alias);
    if (module == "tir") {
      a.tir.insert(alias);
      out_->saw_tir = true;
    }
    if (module == "tirx") {
      a.tir.insert(alias);
      out_->saw_tirx = true;
    }
    if (module == "ir") a.ir.insert(alias);
  }

  void Import(TSNode stmt) {
    if (Is(stmt, "import_from_statement")) {
      TSNode mod = Field(stmt, "module_name");
      std::string module(TextOf(mod, text_));
      bool script = module.rfind("tvm.script", 0) == 0;
      bool any = false;
      for (TSNode c : NamedChildren(stmt)) {
        if (ts_node_eq(c, mod)) continue;
        if (Is(c, "wildcard_import")) {
          out_->star_import = true;
          continue;
        }
        std::string name, alias;
        if (Is(c, "aliased_import")) {
          name = std::string(TextOf(Field(c, "name"), text_));
          alias = std::string(TextOf(Field(c, "alias"), text_));
        } else if (Is(c, "dotted_name")) {
          name = std::string(TextOf(c, text_));
          alias = name;
        } else {
          continue;
        }
        any = true;
        out_->python_names.insert(alias);
        if (script) AddAlias(name, alias);
        if (module == "tvm" && name == "script") out_->aliases.tvm.insert(alias);
      }
      if (TextOf(stmt, text_).find('*') != std::string_view::npos && !any) out_->star_import = true;
    } else {
      for (TSNode c : NamedChildren(stmt)) {
        if (Is(c, "aliased_import")) {
          std::string name(TextOf(Field(c, "name"), text_));
          std::string alias(TextOf(Field(c, "alias"), text_));
          out_->python_names.insert(alias);
          if (name == "tvm.script.relax") AddAlias("relax", alias);
          if (name == "tvm.script.tir") AddAlias("tir", alias);
          if (name == "tvm.script.tirx") AddAlias("tirx", alias);
          if (name == "tvm.script.ir") AddAlias("ir", alias);
        } else if (Is(c, "dotted_name")) {
          std::string name(TextOf(c, text_));
          out_->python_names.insert(name.substr(0, name.find('.')));
        }
      }
    }
  }

  // The decorator kind of a decorated definition.
  enum class Deco { kNone, kModule, kRelax, kPrim, kSkip };
  Deco Decorators(TSNode decorated) {
    Deco result = Deco::kNone;
    for (TSNode d : NamedChildren(decorated)) {
      if (!Is(d, "decorator")) continue;
      TSNode v = Field(d, "value");
      auto path = DottedPath(Is(v, "call") ? Field(v, "function") : v, text_);
      if (!path || path->empty()) continue;
      const std::string& last = path->back();
      const Aliases& a = out_->aliases;
      if (last == "ir_module") result = Deco::kModule;
      else if (path->size() == 2 && IsAliasOf(a.relax, (*path)[0]) && last == "function") result = Deco::kRelax;
      else if (path->size() == 2 && IsAliasOf(a.tir, (*path)[0]) && last == "prim_func") result = Deco::kPrim;
      else if (last == "macro" || last == "pyfunc" || last == "inline" || last == "jit") result = Deco::kSkip;
    }
    return result;
  }
  static bool IsAliasOf(const std::set<std::string>& s, const std::string& name) { return s.count(name) > 0; }

  void Targets(TSNode n) {
    if (Is(n, "identifier")) {
      out_->python_names.insert(std::string(TextOf(n, text_)));
      return;
    }
    if (Is(n, "attribute") || Is(n, "subscript")) return;
    for (TSNode c : NamedChildren(n)) Targets(c);
  }

  void Parameters(TSNode params) {
    for (TSNode p : NamedChildren(params)) {
      TSNode name = Is(p, "identifier") ? p : Field(p, "name");
      if (Is(name, "identifier")) out_->python_names.insert(std::string(TextOf(name, text_)));
      for (TSNode c : NamedChildren(p)) {
        if (Is(c, "identifier")) out_->python_names.insert(std::string(TextOf(c, text_)));
      }
    }
  }

  void Statements(TSNode block, FoundModule* module) {
    for (TSNode stmt : NamedChildren(block)) Statement(stmt, module);
  }

  void Statement(TSNode stmt, FoundModule* module) {
    if (Is(stmt, "import_statement") || Is(stmt, "import_from_statement")) {
      Import(stmt);
    } else if (Is(stmt, "decorated_definition")) {
      TSNode def = Field(stmt, "definition");
      Deco deco = Decorators(stmt);
      TSNode name = Field(def, "name");
      // A module's functions are not Python names (they are reached as `cls.f`); keeping them
      // out also means renaming one does not invalidate every other function's analysis.
      bool in_module_function = module != nullptr && (deco == Deco::kRelax || deco == Deco::kPrim);
      if (!ts_node_is_null(name) && !in_module_function) {
        out_->python_names.insert(std::string(TextOf(name, text_)));
      }
      if (deco == Deco::kModule && Is(def, "class_definition")) {
        FoundModule m;
        m.name = std::string(TextOf(name, text_));
        m.node = stmt;
        m.name_node = name;
        ModuleBody(Field(def, "body"), &m);
        out_->modules.push_back(std::move(m));
      } else if ((deco == Deco::kRelax || deco == Deco::kPrim) && Is(def, "function_definition")) {
        FoundFunction f{stmt, deco == Deco::kPrim};
        if (module != nullptr) module->functions.push_back(f);
        else out_->standalone.push_back(f);
      } else if (deco == Deco::kSkip) {
        // Macros and Python functions are expanded or run by Python, not analysed.
      } else {
        Definition(def, module);
      }
    } else if (Is(stmt, "function_definition") || Is(stmt, "class_definition")) {
      Definition(stmt, module);
    } else if (Is(stmt, "expression_statement") || Is(stmt, "assignment") ||
               Is(stmt, "augmented_assignment")) {
      std::vector<TSNode> kids = Is(stmt, "expression_statement") ? NamedChildren(stmt) : std::vector<TSNode>{stmt};
      for (TSNode c : kids) {
        if (Is(c, "assignment") || Is(c, "augmented_assignment")) {
          Targets(Field(c, "left"));
          TSNode right = Field(c, "right");
          while (Is(right, "assignment")) {
            Targets(Field(right, "left"));
            right = Field(right, "right");
          }
        }
      }
    } else if (Is(stmt, "for_statement")) {
      Targets(Field(stmt, "left"));
      Compound(stmt, module);
    } else if (Is(stmt, "with_statement")) {
      ForEachNode(stmt, [&](TSNode n) {
        if (Is(n, "as_pattern_target")) Targets(n);
        if (Is(n, "with_item")) {
          TSNode alias = Field(n, "alias");
          if (!ts_node_is_null(alias)) Targets(alias);
        }
        return !Is(n, "block");
      });
      Compound(stmt, module);
    } else if (Is(stmt, "global_statement") || Is(stmt, "nonlocal_statement")) {
      for (TSNode c : NamedChildren(stmt)) {
        if (Is(c, "identifier")) out_->python_names.insert(std::string(TextOf(c, text_)));
      }
    } else {
      Compound(stmt, module);
    }
  }

  // if / for / while / try / with: statements inside blocks.
  void Compound(TSNode stmt, FoundModule* module) {
    for (TSNode c : NamedChildren(stmt)) {
      if (Is(c, "block")) {
        Statements(c, module);
      } else if (Is(c, "elif_clause") || Is(c, "else_clause") || Is(c, "except_clause") ||
                 Is(c, "finally_clause")) {
        for (TSNode k : NamedChildren(c)) {
          if (Is(k, "block")) Statements(k, module);
          if (Is(c, "except_clause") && Is(k, "identifier")) out_->python_names.insert(std::string(TextOf(k, text_)));
        }
      }
    }
  }

  void Definition(TSNode def, FoundModule* module) {
    (void)module;
    TSNode name = Field(def, "name");
    if (!ts_node_is_null(name)) out_->python_names.insert(std::string(TextOf(name, text_)));
    if (Is(def, "function_definition")) Parameters(Field(def, "parameters"));
    // Plain Python definitions: TVMScript inside them (modules in test functions) is found, but
    // it is not part of an enclosing module.
    Statements(Field(def, "body"), nullptr);
  }

  void ModuleBody(TSNode body, FoundModule* m) {
    for (TSNode stmt : NamedChildren(body)) {
      if (Is(stmt, "decorated_definition")) {
        Statement(stmt, m);
      } else if (Is(stmt, "expression_statement") || Is(stmt, "assignment")) {
        std::vector<TSNode> kids = Is(stmt, "assignment") ? std::vector<TSNode>{stmt} : NamedChildren(stmt);
        for (TSNode c : kids) {
          if (Is(c, "assignment")) {
            TSNode left = Field(c, "left");
            if (Is(left, "identifier")) m->extern_globals.insert(std::string(TextOf(left, text_)));
          }
        }
      } else if (Is(stmt, "function_definition")) {
        // An undecorated method of a module class: not TVMScript.
      }
    }
  }

  std::string_view text_;
  Discovery* out_;
};

uint64_t AliasHash(const Aliases& a) {
  std::string s;
  for (const auto* set : {&a.ir, &a.relax, &a.tir, &a.tvm}) {
    for (const std::string& n : *set) s += n + ",";
    s += ";";
  }
  s += a.classic ? "c" : "";
  s += a.current ? "n" : "";
  return HashString(s);
}

}  // namespace

struct Analyzer::Impl {
  TSTree* held = nullptr;
  struct Cached {
    std::shared_ptr<FunctionModel> fn;
    std::string module;
    bool body_done = false;
    uint64_t generation = 0;
  };
  std::unordered_map<const void*, Cached> cache;
  uint64_t alias_hash = 0;
  uint64_t generation = 0;
  int64_t upper_bound = 0;
  FileModel model;
  Discovery discovery;

  ~Impl() {
    if (held != nullptr) ts_tree_delete(held);
  }
};

Analyzer::Analyzer(AnalysisOptions options) : impl_(std::make_unique<Impl>()), options_(options) {}
Analyzer::~Analyzer() = default;

const FileModel* Analyzer::Model() const { return &impl_->model; }

void Analyzer::Run(const Document& doc) {
  Impl& impl = *impl_;
  diagnostics_.clear();
  stats_ = RunStats{};
  impl.model = FileModel{};
  if (!doc.Refusal().empty()) {
    has_tvmscript_ = true;
    Diagnostic d;
    d.range = {doc.RefusalOffset(), doc.RefusalOffset()};
    d.code = "syntax-error";
    d.message = doc.Refusal();
    diagnostics_.push_back(std::move(d));
    impl.cache.clear();
    return;
  }
  std::string_view text = doc.Text();
  TSNode root = doc.Root();
  impl.discovery = Discovery{};
  Discoverer(text, &impl.discovery).Run(root);
  Discovery& found = impl.discovery;
  if (options_.era == Era::kClassic) {
    found.aliases.classic = true;
    found.aliases.current = false;
  } else if (options_.era == Era::kCurrent) {
    found.aliases.classic = false;
    found.aliases.current = true;
  }
  impl.model.aliases = found.aliases;
  has_tvmscript_ = !found.modules.empty() || !found.standalone.empty();
  if (!has_tvmscript_) {
    impl.cache.clear();
    return;
  }
  uint64_t ah = AliasHash(found.aliases);
  ah = HashString(found.star_import ? "*" : "", ah);
  if (ah != impl.alias_hash || options_.assumed_upper_bound != impl.upper_bound) {
    impl.cache.clear();
    impl.alias_hash = ah;
    impl.upper_bound = options_.assumed_upper_bound;
  }
  const uint64_t gen = ++impl.generation;

  auto signature = [&](const FoundFunction& f, const std::string& module) -> Impl::Cached& {
    const void* id = f.def.id;
    auto it = impl.cache.find(id);
    if (it == impl.cache.end() || it->second.fn->kind != (f.is_prim ? FunctionModel::Kind::kPrim
                                                                     : FunctionModel::Kind::kRelax)) {
      Impl::Cached c;
      c.fn = LowerSignature(f.def, text, found.aliases, f.is_prim);
      c.module = module;
      it = impl.cache.insert_or_assign(id, std::move(c)).first;
    }
    if (it->second.module != module) {
      it->second.module = module;
      it->second.body_done = false;
    }
    it->second.generation = gen;
    return it->second;
  };

  auto analyze = [&](const std::vector<FoundFunction>& fns, const std::string& module_name,
                     const std::set<std::string>& externs, std::vector<FunctionRef>* out,
                     std::vector<Diagnostic>* module_diags) {
    std::vector<Impl::Cached*> entries;
    ModuleContext ctx;
    ctx.module_name = module_name;
    ctx.extern_globals = externs;
    ctx.python_names = &found.python_names;
    ctx.star_import = found.star_import;
    ctx.aliases = &found.aliases;
    ctx.assumed_upper_bound = options_.assumed_upper_bound;
    std::string module_key = module_name;
    for (const std::string& e : externs) module_key += "\x01" + e;
    for (const FoundFunction& f : fns) {
      Impl::Cached& c = signature(f, module_key);
      entries.push_back(&c);
      if (module_name.empty()) continue;
      auto [pos, inserted] = ctx.functions.emplace(c.fn->name, c.fn.get());
      if (!inserted && module_diags != nullptr) {
        Diagnostic d;
        uint32_t base = ts_node_start_byte(f.def);
        d.range = {c.fn->name_range.begin + base, c.fn->name_range.end + base};
        d.code = "redefined-name";
        d.message = "module " + module_name + " already defines a function named `" + c.fn->name + "`";
        module_diags->push_back(std::move(d));
      }
    }
    for (size_t i = 0; i < fns.size(); ++i) {
      Impl::Cached& c = *entries[i];
      bool fresh = c.body_done;
      if (fresh) {
        for (const auto& [dep, hash] : c.fn->dependencies) {
          auto it = ctx.functions.find(dep);
          uint64_t now = it == ctx.functions.end() ? 0 : it->second->signature_hash;
          if (now != hash) fresh = false;
        }
        for (const auto& [name, was] : c.fn->outer_lookups) {
          if ((found.python_names.count(name) > 0) != was) fresh = false;
        }
      }
      ++stats_.functions;
      if (!fresh) {
        LowerBody(fns[i].def, text, ctx, c.fn.get());
        c.fn->syntax_errors.clear();
        uint32_t base = ts_node_start_byte(fns[i].def);
        for (const SyntaxError& e : CollectSyntaxErrors(fns[i].def, text)) {
          Diagnostic d;
          d.range = {e.range.begin - base, e.range.end - base};
          d.code = "syntax-error";
          d.message = e.message;
          c.fn->syntax_errors.push_back(std::move(d));
        }
        c.body_done = true;
        ++stats_.functions_analyzed;
      }
      out->push_back(FunctionRef{c.fn, ts_node_start_byte(fns[i].def), ts_node_has_error(fns[i].def)});
    }
  };

  std::vector<Diagnostic> module_diags;
  for (const FoundModule& m : found.modules) {
    ModuleModel mm;
    mm.name = m.name;
    mm.range = RangeOf(m.node);
    mm.name_range = RangeOf(m.name_node);
    mm.extern_globals = m.extern_globals;
    analyze(m.functions, m.name, m.extern_globals, &mm.functions, &module_diags);
    impl.model.modules.push_back(std::move(mm));
  }
  analyze(found.standalone, "", {}, &impl.model.standalone, nullptr);

  // Diagnostics: syntax errors outside the functions, then each function's, rebased.
  std::set<const void*> function_nodes;
  for (const FoundModule& m : found.modules) {
    for (const FoundFunction& f : m.functions) function_nodes.insert(f.def.id);
  }
  for (const FoundFunction& f : found.standalone) function_nodes.insert(f.def.id);
  auto skip = [&](TSNode n) { return function_nodes.count(n.id) > 0; };
  for (const SyntaxError& e : CollectSyntaxErrors(root, text, skip)) {
    Diagnostic d;
    d.range = e.range;
    d.code = "syntax-error";
    d.message = e.message;
    diagnostics_.push_back(std::move(d));
  }
  for (Diagnostic& d : module_diags) diagnostics_.push_back(std::move(d));
  auto emit = [&](const std::vector<FunctionRef>& fns) {
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
        diagnostics_.push_back(std::move(d));
      }
      if (r.has_syntax_error) continue;
      size_t first = diagnostics_.size();
      for (const Diagnostic& rel : r.fn->diagnostics) {
        Diagnostic d = rel;
        d.range = Absolute(r, d.range);
        for (RelatedLocation& l : d.related) l.range = Absolute(r, l.range);
        for (Fix& f : d.fixes) {
          for (TextEdit& e : f.edits) e.range = Absolute(r, e.range);
        }
        diagnostics_.push_back(std::move(d));
      }
      std::vector<std::pair<size_t, size_t>> drop_fixes;
      for (const FunctionModel::CrossRef& x : r.fn->cross_refs) {
        if (x.diagnostic >= r.fn->diagnostics.size()) continue;
        Diagnostic& d = diagnostics_[first + x.diagnostic];
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
        diagnostics_[di].fixes.erase(diagnostics_[di].fixes.begin() + static_cast<long>(fi));
      }
    }
  };
  for (const ModuleModel& m : impl.model.modules) emit(m.functions);
  emit(impl.model.standalone);
  std::stable_sort(diagnostics_.begin(), diagnostics_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return a.range.begin != b.range.begin ? a.range.begin < b.range.begin : a.range.end < b.range.end;
  });

  // Keep the analysed tree alive so cached node identities cannot be reused by new nodes, and
  // forget functions that are gone.
  TSTree* copy = ts_tree_copy(doc.Tree());
  if (impl.held != nullptr) ts_tree_delete(impl.held);
  impl.held = copy;
  for (auto it = impl.cache.begin(); it != impl.cache.end();) {
    if (it->second.generation != gen) {
      it = impl.cache.erase(it);
    } else {
      ++it;
    }
  }
}

std::vector<Diagnostic> AnalyzeText(const std::string& text, const AnalysisOptions& options) {
  Document doc(text);
  Analyzer analyzer(options);
  analyzer.Run(doc);
  return analyzer.Diagnostics();
}

}  // namespace tvmls::analysis
