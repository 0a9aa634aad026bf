// Lowering of one function definition (syntax) into a FunctionModel: its signature, symbols,
// hovers and the diagnostics of the checks that run on it.
#ifndef TVMLS_ANALYSIS_MODEL_LOWER_H_
#define TVMLS_ANALYSIS_MODEL_LOWER_H_

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include <tree_sitter/api.h>

#include "model/model.h"

namespace tvmls::analysis {

/// What a function body sees around it.
struct ModuleContext {
  std::string module_name;  // "" for standalone functions
  /// Signatures of the module's functions by name (the function itself included).
  std::map<std::string, const FunctionModel*> functions;
  std::set<std::string> extern_globals;
  /// The names the file binds in its global scope (imports, assignments, defs, classes, loop
  /// targets at the top of the file; `global` declarations): opaque but defined values.
  const std::set<std::string>* python_names = nullptr;
  /// The names the Python functions around this function bind (its closure values); null when
  /// none. Together with `python_names`, what TVM's parser sees besides TVMScript's own names.
  const std::set<std::string>* enclosing = nullptr;
  /// Whether `name` is a Python value this function can see (a global or a closure value).
  bool IsPythonName(const std::string& name) const {
    return (python_names != nullptr && python_names->count(name) > 0) ||
           (enclosing != nullptr && enclosing->count(name) > 0);
  }
  bool star_import = false;
  const Aliases* aliases = nullptr;
  int64_t assumed_upper_bound = 0;
};

/// The definition node is a decorated_definition (or function_definition); `base` is its start.
/// Lowers the signature only (PrimFuncs: parameters and the match_buffer prologue).
std::shared_ptr<FunctionModel> LowerSignature(TSNode def, std::string_view text,
                                              const Aliases& aliases, bool is_prim);

/// Lowers the body and runs the checks; fills symbols, hovers, inlays, diagnostics and
/// dependencies of `fn` (whose signature LowerSignature made).
void LowerBody(TSNode def, std::string_view text, const ModuleContext& ctx, FunctionModel* fn);

/// Gives back the spare capacity of a lowered model's vectors (LowerBody calls it). A model lives
/// until its function's text changes (5,750 of them in the 100k-line real file), and vectors
/// grown by push_back hold up to twice what they use: 3.7 MB of spare capacity there, most of it
/// in the hovers (bench/README.md, "Memory").
void CompactModel(FunctionModel* fn);

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_MODEL_LOWER_H_
