// Shared pieces of the lowering code (not part of the model's interface).
#ifndef TVMLS_ANALYSIS_MODEL_LOWER_INTERNAL_H_
#define TVMLS_ANALYSIS_MODEL_LOWER_INTERNAL_H_

#include <cstdint>
#include <string>
#include <string_view>

#include <tree_sitter/api.h>

#include "check/check.h"
#include "model/lower.h"
#include "model/syntax_util.h"

namespace tvmls::analysis {

void LowerPrimSignature(TSNode def, std::string_view text, const Aliases& aliases,
                        FunctionModel* fn);
/// Names Python (and TVM's test files) always provide: builtins, `metadata`, `tvm`, `np`, ...
/// They are never undefined names.
bool IsPythonBuiltin(std::string_view name);

void LowerPrimBody(TSNode def, std::string_view text, const Aliases& aliases, FunctionModel* fn,
                   const ModuleContext* ctx = nullptr);
void LowerRelaxSignature(TSNode def, std::string_view text, const Aliases& aliases,
                         FunctionModel* fn);
void LowerRelaxBody(TSNode def, std::string_view text, const ModuleContext& ctx,
                    FunctionModel* fn);
/// The `T.` names anywhere in the function at `def` (decorators and signature included), against
/// the TIR rows of vocab/script_names.h for the file's era: a hover span for each known name
/// (signature and doc), check::UnknownOp for a name without a row (the first unknown segment:
/// `T.axis.foo`, not what follows a non-namespace row), check::OpCall for a call whose positional
/// count or required parameters do not fit its row. Appends to `fn`'s hovers and diagnostics.
/// `undefined-name` in the PrimFunc `def`: a name used anywhere in it that is bound nowhere in it
/// and is not a name of the surrounding Python, an alias or a builtin (prim_undefined_names.cc).
void CheckPrimUndefinedNames(TSNode def, std::string_view text, const ModuleContext& ctx, FunctionModel* fn);
void LowerTirNames(TSNode def, std::string_view text, const Aliases& aliases, FunctionModel* fn);
/// The `T.block_attr` / `T.sblock_attr` calls of each block of the PrimFunc at `def`: a key the
/// merge gives two different literal values (check::ParserRule kBlockAttrConflict;
/// prim_block_attrs.cc).
void CheckBlockAttrs(TSNode def, std::string_view text, const Aliases& aliases, FunctionModel* fn);

/// `a = b = value` (an assignment whose right side is an assignment; TVM's Relax and TIR parsers
/// reject it): the chained-assignment rule at the second target, ranges relative to `base`. With
/// exactly two plain-name targets and no annotation, its fix: `b = value` and, on the next line
/// at the statement's indentation, `a = b`.
check::ParserRule ChainedAssignmentRule(TSNode assign, std::string_view text, uint32_t base);

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_MODEL_LOWER_INTERNAL_H_
