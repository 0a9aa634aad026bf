// The analyzer: finds the TVMScript in a file, lowers each function (reusing unchanged ones),
// assembles diagnostics.
#include "analysis.h"

#include <algorithm>
#include <cstring>
#include <optional>
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

// What one top-level statement contributes: alias imports, Python names, modules, functions.
struct Discovery {
  std::vector<std::pair<std::string, std::string>> alias_adds;  // (module, alias): "relax", "R"
  std::vector<std::string> python_names;
  bool star_import = false;
  std::vector<FoundModule> modules;
  std::vector<FoundFunction> standalone;
};

void AddAlias(Aliases* a, bool* saw_tir, bool* saw_tirx, const std::string& module, const std::string& alias) {
  if (module == "relax") a->relax.insert(alias);
  if (module == "tir") {
    a->tir.insert(alias);
    *saw_tir = true;
  }
  if (module == "tirx") {
    a->tir.insert(alias);
    *saw_tirx = true;
  }
  if (module == "ir") a->ir.insert(alias);
  if (module == "tvm") a->tvm.insert(alias);
}

// The printer's header: `# from tvm.script import tir as T` comments before the object.
std::optional<std::pair<std::string, std::string>> HeaderComment(std::string_view t) {
  size_t p = t.find("from tvm.script import ");
  if (p == std::string_view::npos) return std::nullopt;
  std::string_view rest = t.substr(p + std::strlen("from tvm.script import "));
  size_t as = rest.find(" as ");
  std::string module(rest.substr(0, as));
  std::string alias = as == std::string_view::npos ? module : std::string(rest.substr(as + 4));
  while (!alias.empty() && (alias.back() == ' ' || alias.back() == '\r')) alias.pop_back();
  while (!module.empty() && module.back() == ' ') module.pop_back();
  return std::make_pair(module, alias);
}

// Finds the TVMScript in one top-level statement. Which decorators count (`@R.function`) depends
// on the file's aliases, which the caller supplies (they come from every statement's imports).
class Discoverer {
 public:
  Discoverer(std::string_view text, const Aliases* aliases, Discovery* out)
      : text_(text), aliases_(aliases), out_(out) {}

  void TopLevel(TSNode stmt) { Statement(stmt, /*module=*/nullptr); }

 private:
  void AddAlias(const std::string& module, const std::string& alias) {
    if (module == "relax" || module == "tir" || module == "tirx" || module == "ir" || module == "tvm") {
      out_->alias_adds.emplace_back(module, alias);
    }
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
        out_->python_names.push_back(alias);
        if (script) AddAlias(name, alias);
        if (module == "tvm" && name == "script") AddAlias("tvm", alias);
      }
      if (TextOf(stmt, text_).find('*') != std::string_view::npos && !any) out_->star_import = true;
    } else {
      for (TSNode c : NamedChildren(stmt)) {
        if (Is(c, "aliased_import")) {
          std::string name(TextOf(Field(c, "name"), text_));
          std::string alias(TextOf(Field(c, "alias"), text_));
          out_->python_names.push_back(alias);
          if (name == "tvm.script.relax") AddAlias("relax", alias);
          if (name == "tvm.script.tir") AddAlias("tir", alias);
          if (name == "tvm.script.tirx") AddAlias("tirx", alias);
          if (name == "tvm.script.ir") AddAlias("ir", alias);
        } else if (Is(c, "dotted_name")) {
          std::string name(TextOf(c, text_));
          out_->python_names.push_back(name.substr(0, name.find('.')));
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
      const Aliases& a = *aliases_;
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
      out_->python_names.push_back(std::string(TextOf(n, text_)));
      return;
    }
    if (Is(n, "attribute") || Is(n, "subscript")) return;
    for (TSNode c : NamedChildren(n)) Targets(c);
  }

  void Parameters(TSNode params) {
    for (TSNode p : NamedChildren(params)) {
      TSNode name = Is(p, "identifier") ? p : Field(p, "name");
      if (Is(name, "identifier")) out_->python_names.push_back(std::string(TextOf(name, text_)));
      for (TSNode c : NamedChildren(p)) {
        if (Is(c, "identifier")) out_->python_names.push_back(std::string(TextOf(c, text_)));
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
        out_->python_names.push_back(std::string(TextOf(name, text_)));
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
        if (Is(c, "identifier")) out_->python_names.push_back(std::string(TextOf(c, text_)));
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
          if (Is(c, "except_clause") && Is(k, "identifier")) out_->python_names.push_back(std::string(TextOf(k, text_)));
        }
      }
    }
  }

  void Definition(TSNode def, FoundModule* module) {
    (void)module;
    TSNode name = Field(def, "name");
    if (!ts_node_is_null(name)) out_->python_names.push_back(std::string(TextOf(name, text_)));
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
  const Aliases* aliases_;
  Discovery* out_;
};

uint64_t AliasSetHash(const Aliases& a) {
  std::string s;
  for (const auto* set : {&a.ir, &a.relax, &a.tir, &a.tvm}) {
    for (const std::string& n : *set) s += n + ",";
    s += ";";
  }
  return HashString(s);
}

uint64_t AliasHash(const Aliases& a) {
  return HashString(std::string(a.classic ? "c" : "") + (a.current ? "n" : ""), AliasSetHash(a));
}

Diagnostic SyntaxDiagnostic(const SyntaxError& e, uint32_t shift_back = 0) {
  Diagnostic d;
  d.range = {e.range.begin - shift_back, e.range.end - shift_back};
  d.code = "syntax-error";
  d.message = e.message;
  return d;
}

// Moves every range of a diagnostic by `delta` bytes.
void Shift(Diagnostic* d, int64_t delta) {
  auto move = [delta](TextRange* r) {
    r->begin = static_cast<uint32_t>(r->begin + delta);
    r->end = static_cast<uint32_t>(r->end + delta);
  };
  move(&d->range);
  for (RelatedLocation& l : d->related) move(&l.range);
  for (Fix& f : d->fixes) {
    for (TextEdit& e : f.edits) move(&e.range);
  }
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
      if (old == entries_.end() || old->second->text != text || !claimable(*old->second)) continue;
      std::unique_ptr<Entry> moved = std::move(old->second);
      entries_.erase(old);
      it->second = id;
      Entry* out = moved.get();
      entries_[id] = std::move(moved);
      return out;
    }
    return nullptr;
  }

  Entry& Insert(const void* id, std::string_view text) {
    Erase(id);
    auto entry = std::make_unique<Entry>();
    entry->text = std::string(text);
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

  /// Erases the entries `stale` selects.
  template <typename Pred>
  void EraseIf(Pred stale) {
    std::vector<const void*> ids;
    for (const auto& [id, entry] : entries_) {
      if (stale(*entry)) ids.push_back(id);
    }
    for (const void* id : ids) Erase(id);
  }

  template <typename F>
  void ForEach(F f) {
    for (auto& [id, entry] : entries_) f(*entry);
  }

  void Clear() {
    entries_.clear();
    by_text_.clear();
  }
  size_t size() const { return entries_.size(); }

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
    std::string text;  // the definition's text
    uint32_t column = 0;
    bool clean = false;  // parsed without errors
    std::shared_ptr<FunctionModel> fn;
    std::string module;
    bool body_done = false;
    uint64_t generation = 0;
  };
  NodeStore<Cached> cache;

  struct Top {
    std::string text;  // the statement's text
    uint32_t column = 0;
    bool clean = false;  // parsed without errors
    TSNode node;
    uint32_t start = 0;  // absolute, as of the last run
    uint64_t generation = 0;
    uint64_t discovered = 0;  // the run whose tree `found`'s nodes are from
    Discovery found;
    bool analysed = false;
    std::vector<ModuleModel> modules;
    std::vector<FunctionRef> standalone;
    int functions = 0;
    std::vector<Diagnostic> diagnostics;  // absolute, by position
  };
  NodeStore<Top> tops;
  std::vector<Top*> order;  // this run's statements, in file order

  // What the statements contribute to the whole file, counted so that statements come and go.
  std::unordered_map<std::string, int> name_count;
  std::set<std::string> python_names;  // names with a positive count
  std::map<std::pair<std::string, std::string>, int> alias_count;
  int star_imports = 0;

  Aliases aliases;                                       // as of the last run
  uint64_t discovery_hash = AliasSetHash(Aliases{});  // of the aliases discovery used
  uint64_t alias_hash = 0;                               // of what lowering used
  int64_t upper_bound = 0;
  uint64_t generation = 0;

  std::vector<Diagnostic> root_errors;  // indentation of top-level statements, a refusal
  std::vector<const Diagnostic*> diagnostics;
  bool model_valid = false;
  FileModel model;

  ~Impl() {
    if (held != nullptr) ts_tree_delete(held);
  }

  void Clear() {
    cache.Clear();
    tops.Clear();
    order.clear();
    orphans.clear();
    name_count.clear();
    python_names.clear();
    alias_count.clear();
    star_imports = 0;
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

  void AnalyzeTop(Top* top, std::string_view text, const ModuleContext& base, RunStats* stats);

  // A statement that is gone: its functions' results are dropped at the end of the run unless
  // a new statement (the edited version of this one) claimed them.
  void Forget(Top* top) {
    for (const FoundModule& m : top->found.modules) {
      for (const FoundFunction& f : m.functions) orphans.push_back(f.def.id);
    }
    for (const FoundFunction& f : top->found.standalone) orphans.push_back(f.def.id);
  }
  std::vector<const void*> orphans;

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
    }
  }
};

// Lowers (or reuses) the functions of one statement and assembles its diagnostics.
void Analyzer::Impl::AnalyzeTop(Top* top, std::string_view text, const ModuleContext& base, RunStats* stats) {
  top->modules.clear();
  top->standalone.clear();
  top->diagnostics.clear();
  top->functions = 0;

  auto signature = [&](const FoundFunction& f, const std::string& module) -> Cached& {
    auto kind = f.is_prim ? FunctionModel::Kind::kPrim : FunctionModel::Kind::kRelax;
    Cached* c = cache.Find(f.def.id);
    bool clean = !ts_node_has_error(f.def);
    uint32_t column = ts_node_start_point(f.def).column;
    if (c == nullptr && clean) {
      c = cache.Rekey(f.def.id, TextOf(f.def, text), [&](const Cached& old) {
        return old.generation != generation && old.clean && old.column == column && old.fn->kind == kind;
      });
    }
    if (c == nullptr || c->fn->kind != kind) {
      c = &cache.Insert(f.def.id, TextOf(f.def, text));
      c->clean = clean;
      c->column = column;
      c->fn = LowerSignature(f.def, text, aliases, f.is_prim);
      c->module = module;
    }
    if (c->module != module) {
      c->module = module;
      c->body_done = false;
    }
    c->generation = generation;
    return *c;
  };

  std::vector<Diagnostic>& out = top->diagnostics;
  auto analyze = [&](const std::vector<FoundFunction>& fns, const std::string& module_name,
                     const std::set<std::string>& externs, std::vector<FunctionRef>* refs) {
    std::vector<Cached*> entries;
    ModuleContext ctx = base;
    ctx.module_name = module_name;
    ctx.extern_globals = externs;
    std::string module_key = module_name;
    for (const std::string& e : externs) module_key += "\x01" + e;
    for (const FoundFunction& f : fns) {
      Cached& c = signature(f, module_key);
      entries.push_back(&c);
      if (module_name.empty()) continue;
      auto [pos, inserted] = ctx.functions.emplace(c.fn->name, c.fn.get());
      if (!inserted) {
        Diagnostic d;
        uint32_t fbase = ts_node_start_byte(f.def);
        d.range = {c.fn->name_range.begin + fbase, c.fn->name_range.end + fbase};
        d.code = "redefined-name";
        d.message = "module " + module_name + " already defines a function named `" + c.fn->name + "`";
        out.push_back(std::move(d));
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
        for (const auto& [name, was] : c.fn->outer_lookups) {
          if ((python_names.count(name) > 0) != was) fresh = false;
        }
      }
      ++top->functions;
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
  };

  for (const FoundModule& m : top->found.modules) {
    ModuleModel mm;
    mm.name = m.name;
    mm.range = RangeOf(m.node);
    mm.name_range = RangeOf(m.name_node);
    mm.extern_globals = m.extern_globals;
    analyze(m.functions, m.name, m.extern_globals, &mm.functions);
    top->modules.push_back(std::move(mm));
  }
  analyze(top->found.standalone, "", {}, &top->standalone);

  // Syntax errors outside the functions (theirs are cached with them).
  std::set<const void*> function_nodes;
  for (const FoundModule& m : top->found.modules) {
    for (const FoundFunction& f : m.functions) function_nodes.insert(f.def.id);
  }
  for (const FoundFunction& f : top->found.standalone) function_nodes.insert(f.def.id);
  auto skip = [&](TSNode n) { return function_nodes.count(n.id) > 0; };
  for (const SyntaxError& e : CollectSyntaxErrors(top->node, text, skip)) out.push_back(SyntaxDiagnostic(e));

  // Each function's diagnostics, rebased; parts that point into a callee follow the callee.
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
  };
  for (const ModuleModel& m : top->modules) emit(m.functions);
  emit(top->standalone);
  std::stable_sort(out.begin(), out.end(), ByPosition);
  top->analysed = true;
}

Analyzer::Analyzer(AnalysisOptions options) : impl_(std::make_unique<Impl>()), options_(options) {}
Analyzer::~Analyzer() = default;

const std::vector<const Diagnostic*>& Analyzer::Diagnostics() const { return impl_->diagnostics; }

const FileModel* Analyzer::Model() const {
  Impl& impl = *impl_;
  if (!impl.model_valid) {
    impl.model = FileModel{};
    impl.model.aliases = impl.aliases;
    for (const Impl::Top* top : impl.order) {
      impl.model.modules.insert(impl.model.modules.end(), top->modules.begin(), top->modules.end());
      impl.model.standalone.insert(impl.model.standalone.end(), top->standalone.begin(), top->standalone.end());
    }
    impl.model_valid = true;
  }
  return &impl.model;
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
    impl.order.clear();
    Diagnostic d;
    d.range = {doc.RefusalOffset(), doc.RefusalOffset()};
    d.code = "syntax-error";
    d.message = doc.Refusal();
    impl.root_errors.push_back(std::move(d));
    impl.diagnostics.push_back(&impl.root_errors.back());
    return;
  }
  std::string_view text = doc.Text();
  TSNode root = doc.Root();
  const uint64_t gen = ++impl.generation;
  if (options_.assumed_upper_bound != impl.upper_bound) {
    impl.Clear();
    impl.upper_bound = options_.assumed_upper_bound;
  }

  // 1. The top-level statements: reuse the unchanged ones, discover the others. Discovery needs
  //    the aliases, which come from every statement: when they turn out different from the ones
  //    discovery used, everything is discovered again with the new ones.
  std::set<std::string> flipped;
  std::vector<SyntaxError> indentation;
  Aliases header;
  bool header_tir = false, header_tirx = false;
  for (int attempt = 0;; ++attempt) {
    impl.order.clear();
    indentation.clear();
    header = Aliases{};
    header_tir = header_tirx = false;
    IndentationCheck indent;
    int non_comments = 0;
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      do {
        TSNode stmt = ts_tree_cursor_current_node(&cursor);
        indent.Visit(stmt, text, &indentation);
        bool is_comment = std::strcmp(ts_node_type(stmt), "comment") == 0;
        if (is_comment && non_comments <= 8) {
          if (auto a = HeaderComment(TextOf(stmt, text))) AddAlias(&header, &header_tir, &header_tirx, a->first, a->second);
        }
        if (!is_comment) ++non_comments;
        if (is_comment || !ts_node_is_named(stmt)) {
          if (!ts_node_is_missing(stmt) && ts_node_start_byte(stmt) != ts_node_end_byte(stmt)) continue;
        }
        Impl::Top* found = impl.tops.Find(stmt.id);
        bool clean = !ts_node_has_error(stmt);
        uint32_t column = ts_node_start_point(stmt).column;
        if (found == nullptr && clean) {
          // The same text as a statement of the last run: its results hold, at a new offset.
          found = impl.tops.Rekey(stmt.id, TextOf(stmt, text), [&](const Impl::Top& old) {
            return old.generation != gen && old.clean && old.column == column;
          });
          if (found != nullptr) {
            Discovery fresh;
            Discoverer(text, &impl.aliases, &fresh).TopLevel(stmt);
            impl.RekeyFunctions(found->found, fresh);
            found->found = std::move(fresh);
            found->discovered = gen;
          }
        }
        if (found == nullptr) {
          found = &impl.tops.Insert(stmt.id, TextOf(stmt, text));
          found->clean = clean;
          found->column = column;
          Discoverer(text, &impl.aliases, &found->found).TopLevel(stmt);
          found->discovered = gen;
          impl.Count(found->found, +1, &flipped);
        }
        Impl::Top& top = *found;
        top.node = stmt;
        top.generation = gen;
        impl.order.push_back(&top);
      } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);

    // Statements that are gone.
    impl.tops.EraseIf([&](Impl::Top& top) {
      if (top.generation == gen) return false;
      impl.Count(top.found, -1, &flipped);
      impl.Forget(&top);
      return true;
    });

    Aliases aliases = header;
    bool saw_tir = header_tir, saw_tirx = header_tirx;
    for (const auto& [a, count] : impl.alias_count) AddAlias(&aliases, &saw_tir, &saw_tirx, a.first, a.second);
    if (saw_tir != saw_tirx) {
      aliases.classic = saw_tir;
      aliases.current = saw_tirx;
    }
    if (options_.era == Era::kClassic) {
      aliases.classic = true;
      aliases.current = false;
    } else if (options_.era == Era::kCurrent) {
      aliases.classic = false;
      aliases.current = true;
    }
    // Discovery reads only the alias sets; lowering also the era and star imports.
    uint64_t discovery_hash = AliasSetHash(aliases);
    uint64_t lowering_hash = HashString(impl.star_imports > 0 ? "*" : "", AliasHash(aliases));
    impl.aliases = aliases;
    if (lowering_hash != impl.alias_hash) {
      impl.alias_hash = lowering_hash;
      impl.cache.Clear();
      impl.tops.ForEach([](Impl::Top& top) { top.analysed = false; });
    }
    if (discovery_hash == impl.discovery_hash || attempt >= 2) break;
    // What discovery found may be wrong: start over with the new aliases.
    impl.discovery_hash = discovery_hash;
    impl.Clear();
    flipped.clear();
  }

  // 2. Python names whose presence changed: statements whose functions looked one up are
  //    analysed again (with their functions' cached results where still valid).
  if (!flipped.empty()) {
    auto looked_up = [&](const std::vector<FunctionRef>& refs) {
      for (const FunctionRef& r : refs) {
        for (const auto& [name, was] : r.fn->outer_lookups) {
          if (flipped.count(name) > 0) return true;
        }
      }
      return false;
    };
    for (Impl::Top* top : impl.order) {
      if (!top->analysed) continue;
      bool stale = looked_up(top->standalone);
      for (const ModuleModel& m : top->modules) stale = stale || looked_up(m.functions);
      if (stale) top->analysed = false;
    }
  }

  // 3. Analyse the statements that need it; move the others' results to their new offsets.
  ModuleContext base_ctx;
  base_ctx.python_names = &impl.python_names;
  base_ctx.star_import = impl.star_imports > 0;
  base_ctx.aliases = &impl.aliases;
  base_ctx.assumed_upper_bound = options_.assumed_upper_bound;
  has_tvmscript_ = false;
  for (Impl::Top* top : impl.order) {
    uint32_t start = ts_node_start_byte(top->node);
    if (top->analysed) {
      int64_t delta = static_cast<int64_t>(start) - static_cast<int64_t>(top->start);
      if (delta != 0) {
        for (Diagnostic& d : top->diagnostics) Shift(&d, delta);
        auto move = [delta](TextRange* r) {
          r->begin = static_cast<uint32_t>(r->begin + delta);
          r->end = static_cast<uint32_t>(r->end + delta);
        };
        for (ModuleModel& m : top->modules) {
          move(&m.range);
          move(&m.name_range);
          for (FunctionRef& f : m.functions) f.base = static_cast<uint32_t>(f.base + delta);
        }
        for (FunctionRef& f : top->standalone) f.base = static_cast<uint32_t>(f.base + delta);
      }
    } else {
      // The statement's nodes in `found` may be from an older tree: discover it again.
      if (top->discovered != gen) {
        top->found = Discovery{};
        Discoverer(text, &impl.aliases, &top->found).TopLevel(top->node);
        top->discovered = gen;
      }
      impl.AnalyzeTop(top, text, base_ctx, &stats_);
    }
    top->start = start;
    stats_.functions += top->functions;
    has_tvmscript_ = has_tvmscript_ || !top->modules.empty() || !top->standalone.empty();
  }

  // 4. The file's diagnostics, by position: top-level indentation, then each statement's.
  if (has_tvmscript_) {
    for (const SyntaxError& e : indentation) impl.root_errors.push_back(SyntaxDiagnostic(e));
    for (const Diagnostic& d : impl.root_errors) impl.diagnostics.push_back(&d);
    for (const Impl::Top* top : impl.order) {
      for (const Diagnostic& d : top->diagnostics) impl.diagnostics.push_back(&d);
    }
    std::stable_sort(impl.diagnostics.begin(), impl.diagnostics.end(),
                     [](const Diagnostic* a, const Diagnostic* b) { return ByPosition(*a, *b); });
  }

  for (const void* id : impl.orphans) {
    Impl::Cached* c = impl.cache.Find(id);
    if (c != nullptr && c->generation != gen) impl.cache.Erase(id);
  }
  impl.orphans.clear();

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
