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
        out_->python_names.push_back(alias);
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
          out_->python_names.push_back(alias);
          PassAlias("", name, alias);
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
