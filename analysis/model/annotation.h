// Struct-info annotations (`R.Tensor((n, 4), "float32")`, `R.Tuple(...)`, ...) and shape dims,
// from syntax to types::StructInfo / arith::Expr. Every form of tvmscript.md §1.3.
#ifndef TVMLS_ANALYSIS_MODEL_ANNOTATION_H_
#define TVMLS_ANALYSIS_MODEL_ANNOTATION_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "arith/expr.h"
#include "check/diagnostic.h"
#include "model/model.h"
#include "types/struct_info.h"

namespace tvmls::analysis {

struct AnnotationContext {
  std::string_view text;
  const Aliases* aliases = nullptr;
  /// Parameter and return annotations may spell dims as strings (`"n"`, `"n * 2"`).
  bool allow_string_dims = false;
  /// Called for every symbolic variable a dim mentions, with the range of its spelling (the
  /// identifier, or the string literal holding it) and whether the dim is exactly that variable
  /// (`n`, `"n"`: such a dim in a parameter annotation defines it; `n + 1` only uses it).
  std::function<void(const std::string& name, TextRange where, bool bare)> on_var;
  /// Called for what TVM's `R.Tensor(...)` rejects while building the struct info (an unknown
  /// keyword, a non-integer or negative `ndim`, `ndim` beside a shape, a number as the shape),
  /// with the range of the argument at fault (absolute) and the reason.
  std::function<void(TextRange where, const std::string& why)> on_problem;
  /// Nesting inside a dim expression (0 at a dim's top); maintained by LowerDim.
  int depth = 0;
};

/// kUnknown when the expression is not an annotation tvmls understands.
types::StructInfo LowerAnnotation(TSNode node, AnnotationContext& ctx);

/// One shape dim: integer literal, identifier, `T.int64(5)`, + - * // % and unary minus,
/// `T.min/T.max/T.floordiv/T.floormod(a, b)`, a string (when allowed). Anything else becomes an
/// opaque atom spelled as the source text (so ndim survives).
arith::Expr LowerDim(TSNode node, AnnotationContext& ctx);

/// A tuple/list of dims (also a single dim when `allow_scalar`); nullopt if `node` is not one.
std::optional<std::vector<arith::Expr>> LowerDims(TSNode node, AnnotationContext& ctx,
                                                  std::vector<TextRange>* dim_ranges = nullptr,
                                                  bool allow_scalar = false);

/// `T.int64`, `T.float32`, ... -> "int64"; `"float32"` -> "float32"; nullopt otherwise.
std::optional<std::string> DTypeOf(TSNode node, std::string_view text, const Aliases& aliases);

/// The edits (byte ranges of `text`) that turn the tensor annotation `ann`, a call
/// `R.Tensor(shape, dtype)`, into `inferred` while keeping how the user wrote it: only the dims
/// and the dtype that differ change, each dim in its own spelling (`T.int64(8)` -> `T.int64(4)`),
/// the dtype inside its own quotes, positional or keyword as written. nullopt when that is not
/// possible (other kinds, another rank, a shape not written as a tuple or list of numbers); the
/// caller then prints the whole annotation.
std::optional<std::vector<TextEdit>> SpelledAnnotationEdits(TSNode ann, std::string_view text,
                                                            const types::StructInfo& declared,
                                                            const types::StructInfo& inferred);

bool IsAlias(const std::set<std::string>& aliases, const std::vector<std::string>& path);

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_MODEL_ANNOTATION_H_
