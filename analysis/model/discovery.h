// Discovery: where the TVMScript of one top-level statement is (modules, their functions,
// standalone functions), which aliases its imports bind, which global Python names it defines,
// and for each unit what the Python functions around it bind. The analyzer runs it on each
// statement it rescans (analysis.cc); which decorators count depends on the file's aliases,
// which the caller supplies (they come from every statement's imports).
#ifndef TVMLS_ANALYSIS_MODEL_DISCOVERY_H_
#define TVMLS_ANALYSIS_MODEL_DISCOVERY_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tree_sitter/api.h>

#include "model/model.h"

namespace tvmls::analysis {

// A function definition found in the file.
struct FoundFunction {
  TSNode def;
  bool is_prim = false;
  /// The names the Python functions (and classes) around it bind, which its body may use as
  /// closure values; null at the top of the file, where only the file's globals
  /// (Discovery::python_names) are seen.
  std::shared_ptr<const std::set<std::string>> enclosing;
};

struct FoundModule {
  std::string name;
  TSNode node;
  TSNode name_node;
  std::vector<FoundFunction> functions;
  std::set<std::string> extern_globals;
  /// `@R.rewriter` rather than `@I.ir_module`: the same module, which TVM then hands to
  /// PatternMatchingRewriter::FromModule.
  bool rewriter = false;
  /// Class-level definitions that are not Relax or TIR functions (undecorated methods, macros,
  /// unknown decorators): not part of the module, but a name they take is not missing either.
  std::set<std::string> other_definitions;
};

// What one top-level statement contributes: alias imports, Python names, modules, functions.
struct Discovery {
  std::vector<std::pair<std::string, std::string>> alias_adds;  // (module, alias): "relax", "R"
  /// The names it binds in the file's global scope: at the top of the file (also inside
  /// `if` / `for` / `with` / `try` there), and `global` declarations anywhere.
  std::vector<std::string> python_names;
  bool star_import = false;
  std::vector<FoundModule> modules;
  std::vector<FoundFunction> standalone;
  /// `@T.macro(True)`, `@R.macro(1)`, `@T.inline("x")`: a positional argument of a macro
  /// decorator that cannot be the decorated function (a literal, or a second argument), which
  /// TVM rejects ("Invalid use of T.macro").
  struct MacroArgument {
    TSNode definition;     // the decorated definition
    TSNode argument;
    std::string spelling;  // "T.macro"
  };
  std::vector<MacroArgument> macro_arguments;
};


/// Fills `out` with what the top-level statement `stmt` contributes.
void Discover(TSNode stmt, std::string_view text, const Aliases& aliases, Discovery* out);

/// Records `import <module> as <alias>` in `a` for the TVMScript modules (relax, tir, tirx, ir,
/// tvm); `saw_tir` / `saw_tirx` say which TIR era an import named.
void AddAlias(Aliases* a, bool* saw_tir, bool* saw_tirx, const std::string& module, const std::string& alias);

/// The printer's header: `# from tvm.script import tir as T` comments before the object give
/// (module, alias); nullopt for other comments.
std::optional<std::pair<std::string, std::string>> HeaderComment(std::string_view comment);

/// Hashes of the alias sets (what discovery depends on), and of the sets plus the era flags.
uint64_t AliasSetHash(const Aliases& a);
uint64_t AliasHash(const Aliases& a);
/// Hash of the names of TVM's pass modules and passes (Aliases::py_*): what pipelines depend on.
uint64_t PassAliasHash(const Aliases& a);

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_MODEL_DISCOVERY_H_
