// The TVMScript names that are not Relax operators: one table, one row per name.
//
// The Relax operators live in the op registry (ops/registry.h). Everything else tvmls knows about
// the `T.` (TIR), `R.` (Relax) and `I.` (IR module) namespaces is here: builder functions
// (`T.grid`, `R.match_cast`), types (`T.Buffer`, `R.Tensor`), decorators and frames
// (`@T.prim_func`, `with T.block(...)`), sub-namespaces (`T.axis`, `R.nn`) and dtype names
// (`T.float32`). Each row says in which era the name exists, so a classic file is offered
// `T.block` and a current one `T.sblock`. Completion, signature help and semantic tokens read
// this table, and the lowering asks it (IsRelaxNonOperator) which `R.` calls are not operators;
// nothing here knows LSP. Dtype strings are vocab/dtype.h.
//
// Sources: TVM's script builders (v0.23: python/tvm/script/ir_builder/{tir,relax,ir} and
// python/tvm/script/parser/relax; HEAD: python/tvm/relax/script/{builder,parser} for Relax) with
// their `__all__` lists, and ../shared/reference/tvmscript.md (which names changed between the
// eras). The docs are ours. A name whose parameters we are not sure of has `params == nullptr`:
// no snippet, no signature help, rather than a wrong one.
#ifndef TVMLS_ANALYSIS_VOCAB_SCRIPT_NAMES_H_
#define TVMLS_ANALYSIS_VOCAB_SCRIPT_NAMES_H_

#include <string>
#include <string_view>
#include <vector>

namespace tvmls::vocab {

/// Which namespace a name belongs to (the alias is the file's: `T`, `R`, `I` by convention).
enum class Dialect { kIr, kRelax, kTir };

/// Which TVMScript era knows a name or spelling (see ../shared/reference/tvmscript.md §0):
/// classic is `tir` / `T.block` / `out_sinfo` (TVM up to 0.23), current is `tirx` / `T.sblock`
/// / `out_ty`.
enum class EraTag { kBoth, kClassic, kCurrent };

/// Whether a name exists in a file that accepts the given eras (Aliases::classic / current).
inline bool InEra(EraTag tag, bool classic, bool current) {
  return tag == EraTag::kBoth || (tag == EraTag::kClassic && classic) ||
         (tag == EraTag::kCurrent && current);
}

enum class NameKind {
  kFunction,   // a builder call: T.grid, R.match_cast, T.exp
  kType,       // a type or annotation constructor: T.Buffer, T.handle, R.Tensor, R.Object
  kNamespace,  // a sub-namespace: T.axis, R.nn, R.memory
  kKeyword,    // keyword-like: decorators (T.prim_func, R.function, I.ir_module) and `with` frames
               // (T.block, R.dataflow, T.init)
  kDtype,      // a dtype name: T.float32, T.int64, T.bool
};

struct ScriptName {
  Dialect dialect;
  /// The path after the alias: "grid", "axis.remap", "Buffer", "nn".
  const char* path;
  NameKind kind;
  EraTag era;
  /// The Python parameter list without parentheses, as in a `def`:
  /// `start, stop=None, *, annotations=None`. "" for a call without parameters; nullptr when the
  /// name is not called (a namespace) or its parameters are not known here.
  const char* params;
  /// One line.
  const char* doc;
  /// Still accepted, but a newer spelling exists (T.var, T.buffer_decl, T.Ptr).
  bool deprecated = false;
  /// The index of the positional parameter that takes a dtype string (`T.Buffer(shape, dtype)`:
  /// 1, `T.Cast(dtype, x)`: 0), -1 when none. A `dtype=` keyword is recognised everywhere.
  int dtype_arg = -1;
};

/// Every row, in table order: T, then R, then I. A path may have two rows, one per era, when the
/// eras spell its parameters differently or give it a different meaning (`T.let`).
const std::vector<ScriptName>& AllScriptNames();

/// The row of `dialect` + `path` that exists in a file accepting the given eras, preferring the
/// current-era row when the file is current-only and the classic one otherwise. Null when none.
const ScriptName* FindScriptName(Dialect dialect, std::string_view path, bool classic, bool current);

/// One parameter of a `params` list.
struct ParamText {
  std::string name;           // without the stars
  std::string default_text;   // "" when required
  bool has_default = false;
  bool var_positional = false;  // *args
  bool var_keyword = false;     // **kwargs
  bool keyword_only = false;    // after `*` or `*args`
};

/// Splits a `params` text at its top-level commas (vocab::SplitTopLevel). The bare `*` marker
/// makes the following parameters keyword-only and is not returned itself. nullptr gives an empty
/// list.
std::vector<ParamText> ParseParams(const char* params);

/// ParseParams(n.params) of a row of AllScriptNames(), parsed once per row on first use (the
/// table is immutable, so is this). Completion and the TIR call checks ask it for every call.
const std::vector<ParamText>& ParamsOf(const ScriptName& n);

/// Whether the lowering takes a call `R.<path>(...)` (path after the Relax alias: "Tensor",
/// "emit_with_sinfo", "dist.call_tir", "nn.conv2d") as something other than an operator, so that
/// it neither looks the path up in the op registry nor reports it unknown. The shortest prefix
/// of `path` that has Relax rows decides, rows of every era counting: a
/// row that is not a sub-namespace makes it true (`Tensor`, `Tensor.x`, `dist.call_tir`); a
/// sub-namespace passes to the next prefix (`nn`, then `nn.conv2d`); no row, or a path that
/// ends at a sub-namespace, is false (looked up as an operator: `add`, `nn.conv2d`,
/// `dist.redistribute`, or reported unknown).
bool IsRelaxNonOperator(std::string_view path);

}  // namespace tvmls::vocab

#endif  // TVMLS_ANALYSIS_VOCAB_SCRIPT_NAMES_H_
