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
  /// Every name the surrounding Python binds anywhere in the file (imports, assignments,
  /// parameters, defs, classes, loop targets): closure values, opaque but defined.
  const std::set<std::string>* python_names = nullptr;
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
