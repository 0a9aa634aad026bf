#include "model/discovery.h"

#include "model/lower.h"
#include "model/lower_internal.h"
#include "model/syntax_util.h"

namespace tvmls::analysis {

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
  if (module == "py.relax") a->py_relax.insert(alias);
  if (module == "py.relax.transform") a->py_relax_transform.insert(alias);
  if (module == "py.ir.transform") a->py_ir_transform.insert(alias);
  if (module == "py.pass.*") a->py_pass_star = true;
  if (module.rfind("py.pass:", 0) == 0) a->py_passes[alias] = module.substr(std::strlen("py.pass:"));
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

namespace {

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

  // The names of TVM's pass modules and passes an import binds (Aliases::py_*).
  void PassAlias(const std::string& module, const std::string& name, const std::string& alias) {
    std::string kind;
    if ((module == "tvm" && name == "relax") || (module.empty() && name == "tvm.relax")) kind = "py.relax";
    if ((module == "tvm.relax" && name == "transform") || (module.empty() && name == "tvm.relax.transform")) {
      kind = "py.relax.transform";
    }
    if (((module == "tvm" || module == "tvm.ir") && name == "transform") ||
        (module.empty() && (name == "tvm.transform" || name == "tvm.ir.transform"))) {
      kind = "py.ir.transform";
    }
    if (module == "tvm.relax.transform") kind = "py.pass:" + name;
    if ((module == "tvm.transform" || module == "tvm.ir.transform") && (name == "Sequential" || name == "PrintIR")) {
      kind = "py.pass:" + name;
    }
    if (!kind.empty()) out_->alias_adds.emplace_back(kind, alias);
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
          if (module == "tvm.relax.transform") out_->alias_adds.emplace_back("py.pass.*", "*");
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
        Name(alias);
        PassAlias(module, name, alias);
        if (script) AddAlias(name, alias);
        if (module == "tvm" && name == "script") AddAlias("tvm", alias);
      }
      if (TextOf(stmt, text_).find('*') != std::string_view::npos && !any) out_->star_import = true;
    } else {
      for (TSNode c : NamedChildren(stmt)) {
        if (Is(c, "aliased_import")) {
          std::string name(TextOf(Field(c, "name"), text_));
          std::string alias(TextOf(Field(c, "alias"), text_));
          Name(alias);
          PassAlias("", name, alias);
          if (name == "tvm.script.relax") AddAlias("relax", alias);
          if (name == "tvm.script.tir") AddAlias("tir", alias);
          if (name == "tvm.script.tirx") AddAlias("tirx", alias);
          if (name == "tvm.script.ir") AddAlias("ir", alias);
        } else if (Is(c, "dotted_name")) {
          std::string name(TextOf(c, text_));
          Name(name.substr(0, name.find('.')));
        }
      }
    }
  }

  // The decorator kind of a decorated definition.
  enum class Deco { kNone, kModule, kRewriter, kRelax, kPrim, kSkip };
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
      else if (path->size() == 2 && IsAliasOf(a.relax, (*path)[0]) && last == "rewriter") result = Deco::kRewriter;
      else if (path->size() == 2 && IsAliasOf(a.tir, (*path)[0]) && last == "prim_func") result = Deco::kPrim;
      else if (last == "macro" || last == "pyfunc" || last == "inline" || last == "jit") result = Deco::kSkip;
      if (Is(v, "call") && path->size() == 2 && (last == "macro" || last == "inline") &&
          (IsAliasOf(a.relax, (*path)[0]) || IsAliasOf(a.tir, (*path)[0]))) {
        MacroArguments(decorated, v, (*path)[0] + "." + last);
      }
    }
    return result;
  }

  // TVM's macro decorators take `*args` only to be usable bare: `@T.macro(f)` with anything but
  // one function raises.
  void MacroArguments(TSNode decorated, TSNode call, const std::string& spelling) {
    CallArgs args = ArgsOf(call, text_);
    for (size_t i = 0; i < args.positional.size(); ++i) {
      TSNode a = Unparen(args.positional[i]);
      bool literal = Is(a, "string") || Is(a, "concatenated_string") || Is(a, "integer") || Is(a, "float") ||
                     Is(a, "true") || Is(a, "false") || Is(a, "none") || Is(a, "list") || Is(a, "tuple") ||
                     Is(a, "dictionary");
      if (i > 0 || literal) {
        out_->macro_arguments.push_back({decorated, args.positional[i], spelling});
        return;
      }
    }
  }
  static bool IsAliasOf(const std::set<std::string>& s, const std::string& name) { return s.count(name) > 0; }

  // A name the statement being discovered binds: one of the file's globals when no Python
  // function or class is around it (inside one, ScopeNames has it).
  void Name(std::string name) {
    if (scopes_.empty()) out_->python_names.push_back(std::move(name));
  }

  void Targets(TSNode n) {
    if (Is(n, "identifier")) {
      Name(std::string(TextOf(n, text_)));
      return;
    }
    if (Is(n, "attribute") || Is(n, "subscript")) return;
    for (TSNode c : NamedChildren(n)) Targets(c);
  }

  // The names a Python function or class binds in its own scope (over-approximated: every
  // binding form anywhere in its body but nested functions, classes and lambdas, whose names
  // only count; comprehension variables too), and a function's parameters. TVM's parser sees a
  // function's closure (what enclosing functions bind) and its globals, as Python does.
  void ScopeNames(TSNode def, std::set<std::string>* out) {
    auto name_of = [&](TSNode n) {
      if (Is(n, "identifier")) out->insert(std::string(TextOf(n, text_)));
    };
    auto all_identifiers = [&](TSNode n) {
      ForEachNode(n, [&](TSNode c) {
        if (Is(c, "identifier")) out->insert(std::string(TextOf(c, text_)));
        return !Is(c, "attribute") && !Is(c, "subscript") && !Is(c, "call");
      });
    };
    if (Is(def, "function_definition")) all_identifiers(Field(def, "parameters"));
    ForEachNode(Field(def, "body"), [&](TSNode n) {
      if (Is(n, "function_definition") || Is(n, "class_definition")) {
        name_of(Field(n, "name"));
        return false;
      }
      if (Is(n, "lambda")) return false;
      if (Is(n, "assignment") || Is(n, "augmented_assignment") || Is(n, "for_statement") ||
          Is(n, "for_in_clause")) {
        all_identifiers(Field(n, "left"));
      } else if (Is(n, "with_item") || Is(n, "except_clause") || Is(n, "as_pattern")) {
        all_identifiers(Field(n, "alias"));
      } else if (Is(n, "named_expression")) {
        name_of(Field(n, "name"));
      } else if (Is(n, "global_statement") || Is(n, "nonlocal_statement") || Is(n, "case_pattern")) {
        all_identifiers(n);
      } else if (Is(n, "import_statement") || Is(n, "import_from_statement")) {
        for (TSNode c : NamedChildren(n)) {
          if (ts_node_eq(c, Field(n, "module_name"))) continue;
          if (Is(c, "aliased_import")) name_of(Field(c, "alias"));
          if (Is(c, "dotted_name")) {
            std::string name(TextOf(c, text_));
            out->insert(name.substr(0, name.find('.')));
          }
        }
      }
      return true;
    });
  }

  // The names every enclosing Python function and class binds (null at module level), shared
  // by the units found at this depth.
  std::shared_ptr<const std::set<std::string>> Enclosing() {
    if (scopes_.empty()) return nullptr;
    if (!enclosing_) {
      auto all = std::make_shared<std::set<std::string>>();
      // What each scope binds is read only here, when a unit is found inside it: most Python
      // functions hold no TVMScript, and walking every one cost ~9% of `tvmls check`.
      for (TSNode def : scopes_) ScopeNames(def, all.get());
      enclosing_ = std::move(all);
    }
    return enclosing_;
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
      if (!ts_node_is_null(name) && !in_module_function) Name(std::string(TextOf(name, text_)));
      if ((deco == Deco::kModule || deco == Deco::kRewriter) && Is(def, "class_definition")) {
        FoundModule m;
        m.name = std::string(TextOf(name, text_));
        m.rewriter = deco == Deco::kRewriter;
        m.node = stmt;
        m.name_node = name;
        ModuleBody(Field(def, "body"), &m);
        out_->modules.push_back(std::move(m));
      } else if ((deco == Deco::kRelax || deco == Deco::kPrim) && Is(def, "function_definition")) {
        FoundFunction f{stmt, deco == Deco::kPrim, Enclosing()};
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
    } else if (Is(stmt, "global_statement")) {
      // `global x` in a function: x is one of the file's globals.
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
          if (Is(c, "except_clause") && Is(k, "identifier")) Name(std::string(TextOf(k, text_)));
        }
      }
    }
  }

  void Definition(TSNode def, FoundModule* module) {
    (void)module;
    TSNode name = Field(def, "name");
    if (!ts_node_is_null(name)) Name(std::string(TextOf(name, text_)));
    // Plain Python definitions: TVMScript inside them (modules in test functions) is found, but
    // it is not part of an enclosing module. It sees what this scope binds. (A class's scope is
    // not visible from its methods in Python; counting it anyway only ever hides a problem.)
    scopes_.push_back(def);
    enclosing_.reset();
    Statements(Field(def, "body"), nullptr);
    scopes_.pop_back();
    enclosing_.reset();
  }

  void ModuleBody(TSNode body, FoundModule* m) {
    for (TSNode stmt : NamedChildren(body)) {
      if (Is(stmt, "decorated_definition")) {
        size_t found = m->functions.size();
        Statement(stmt, m);
        TSNode name = Field(Field(stmt, "definition"), "name");
        if (m->functions.size() == found && !ts_node_is_null(name)) {
          m->other_definitions.insert(std::string(TextOf(name, text_)));
        }
      } else if (Is(stmt, "expression_statement") || Is(stmt, "assignment")) {
        std::vector<TSNode> kids = Is(stmt, "assignment") ? std::vector<TSNode>{stmt} : NamedChildren(stmt);
        for (TSNode c : kids) {
          if (Is(c, "assignment")) {
            TSNode left = Field(c, "left");
            if (Is(left, "identifier")) m->extern_globals.insert(std::string(TextOf(left, text_)));
          }
        }
      } else if (Is(stmt, "function_definition") || Is(stmt, "class_definition")) {
        // An undecorated method of a module class: not TVMScript.
        TSNode name = Field(stmt, "name");
        if (!ts_node_is_null(name)) m->other_definitions.insert(std::string(TextOf(name, text_)));
      }
    }
  }

  std::string_view text_;
  const Aliases* aliases_;
  Discovery* out_;
  std::vector<TSNode> scopes_;  // the Python functions and classes around
  std::shared_ptr<const std::set<std::string>> enclosing_;  // their union, made on demand
};

}  // namespace

void Discover(TSNode stmt, std::string_view text, const Aliases& aliases, Discovery* out) {
  Discoverer(text, &aliases, out).TopLevel(stmt);
}

uint64_t AliasSetHash(const Aliases& a) {
  std::string s;
  for (const auto* set : {&a.ir, &a.relax, &a.tir, &a.tvm}) {
    for (const std::string& n : *set) s += n + ",";
    s += ";";
  }
  return HashString(s);
}

uint64_t PassAliasHash(const Aliases& a) {
  std::string s;
  for (const auto* set : {&a.py_relax, &a.py_relax_transform, &a.py_ir_transform}) {
    for (const std::string& n : *set) s += n + ",";
    s += ";";
  }
  for (const auto& [alias, name] : a.py_passes) s += alias + "=" + name + ",";
  return HashString(a.py_pass_star ? "*" : "", HashString(s));
}

uint64_t AliasHash(const Aliases& a) {
  return HashString(std::string(a.classic ? "c" : "") + (a.current ? "n" : ""), AliasSetHash(a));
}

}  // namespace tvmls::analysis
