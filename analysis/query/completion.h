// Completion and signature help, in byte offsets. The server turns them into LSP
// CompletionItems (with snippets) and SignatureHelp; nothing here knows LSP.
//
// Both work on the half-typed code they are asked about: the context comes from the text before
// the offset (the `identifier(.identifier)*.` being typed, the innermost open call found by a
// bracket scan that skips strings and comments and tolerates unclosed brackets), not from the
// syntax tree, which is broken on the line being typed. The semantic model supplies what the text
// cannot: the file's aliases (`rx.` completes Relax when `relax as rx` is imported) and era, the
// functions of the enclosing module (`cls.`), the symbols of the enclosing function.
//
// Era: a classic-only file (Aliases::classic && !current) is offered classic names and spellings
// (`T.block`, `out_sinfo=`), a current-only one the current ones (`T.sblock`, `out_ty=`); a file
// that accepts both is offered both names, and parameter lists in the classic spelling (as hover
// prints). Keywords are matched in either spelling.
#ifndef TVMLS_ANALYSIS_QUERY_COMPLETION_H_
#define TVMLS_ANALYSIS_QUERY_COMPLETION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/model.h"
#include "vocab/script_names.h"
#include "syntax/document.h"
#include "text/text_range.h"

namespace tvmls::analysis {

struct CompletionItem {
  enum class Kind {
    kOperator,        // a Relax operator of the op registry: R.add, R.nn.conv2d
    kFunction,        // a builder function that is not an operator: T.grid, R.match_cast
    kType,            // an annotation / type constructor: R.Tensor, T.Buffer, T.handle
    kNamespace,       // an alias (R, T, I) or a sub-namespace (R.nn, T.axis)
    kKeyword,         // a decorator or `with` frame: R.function, T.prim_func, T.block, R.dataflow
    kDtype,           // a dtype: T.float32, or "float32" inside a dtype string
    kModuleFunction,  // a function of the enclosing module, after `cls.`
    kVariable,        // a name of the enclosing function (Relax variable, parameter, buffer, ...),
                      // or a keyword argument of the call around the cursor: `strides=`
  };
  /// What is inserted in place of CompletionResult::replace: "conv2d", "float32", "strides=".
  std::string label;
  Kind kind = Kind::kFunction;
  /// The signature (`R.nn.conv2d(data, weight, strides=(1, 1), ...)`, spelled with the alias as
  /// typed), the struct info of a variable, or empty.
  std::string detail;
  /// One line.
  std::string doc;
  /// Callable: the server may insert `label(...)`. With `snippet_params` that is
  /// `conv2d(${1:data}, ${2:weight})`; a callable without required parameters gets `label($0)`
  /// or `label()`. False for namespaces, variables and names used without a call.
  bool call = false;
  /// The required parameters, in order, spelled for the file's era. Empty for non-callables and
  /// callables without required parameters.
  std::vector<std::string> snippet_params;
  /// Still accepted but superseded (T.var, R.Object in a current-era file).
  bool deprecated = false;
  /// The era the name belongs to (kBoth for most).
  vocab::EraTag era = vocab::EraTag::kBoth;
};

struct CompletionResult {
  /// The identifier characters before the offset (the partial name being typed, possibly empty);
  /// inside a dtype string, the string's content before the offset. Text after the offset is not
  /// part of it.
  TextRange replace;
  /// Unfiltered by the typed prefix (editors filter), sorted by label. Empty when nothing is
  /// known to fit: inside comments and ordinary strings, after an unknown receiver
  /// (`x.`, `R.add.`), where a new name is being defined (`def `, `class `, `as `, `import `,
  /// `for `).
  std::vector<CompletionItem> items;
};

/// Contexts:
///  - `R.` / `R.nn.` / any sub-namespace: the Relax operators and non-operator names at that level
///    and the sub-namespaces below it; `T.` / `T.axis.` and `I.` likewise from the namespace table.
///    The head is any alias the file binds (`rx.` after `from tvm.script import relax as rx`).
///  - `cls.` (or the module's own name, or any name bound to it by `x = Module` before the offset
///    in the enclosing function): the module's functions with their signatures, and its
///    class-level externs.
///  - inside a string literal that is a dtype argument (`dtype="fl`, `T.Buffer(s, "`): the dtypes.
///  - a bare identifier: the file's aliases and the names of the enclosing function defined on
///    earlier lines; at the start of an argument of an operator or builder call, also the
///    keyword arguments not given yet (`strides=`, in the file's era spelling).
/// `offset` is clamped to the text.
CompletionResult CompleteAt(const Document& doc, const FileModel& model, uint32_t offset);

/// Builds the lists that completion gives after `R.`, `T.` and `I.` in files of either era or
/// both. They are built once per process and kept, and the first costs its building (`T.`'s 489
/// items: about 1.5 ms); a server calls this once off the request path. Any thread, any time.
void WarmNamespaceCompletions();

struct SignatureHelp {
  /// `R.nn.conv2d(data, weight, strides=(1, 1), ...)`, `T.grid(*extents)`,
  /// `cls.main(x: R.Tensor((1, 64), dtype="float32")) -> R.Tensor(...)`. The callee is spelled as
  /// typed (alias included); parameters in the file's era spelling; the annotations of module
  /// functions in printer syntax (`R.`, `T.`, as hover prints them), whatever the file's aliases.
  std::string label;
  /// The byte range of each parameter inside `label`, in order (`*, ` markers are not parameters).
  std::vector<TextRange> params;
  /// Index into `params` of the parameter the cursor's argument binds to; -1 when unknown (an
  /// unknown keyword, too many arguments, a positional argument after keywords, a splat).
  int active_param = -1;
  /// One line.
  std::string doc;
};

/// Inside the argument list of a call of a Relax operator, a T./R./I. builder with known
/// parameters, or a module function (`cls.f(`): the innermost open call before the offset (an
/// enclosing tuple or subscript is an argument of the call around it). The active parameter comes
/// from the top-level commas before the offset, or from the `name=` being typed (either era's
/// spelling: `out_sinfo=` and `out_ty=` both select the same parameter). Nullopt inside comments,
/// outside calls, and when the innermost call is of an unknown function.
std::optional<SignatureHelp> SignatureHelpAt(const Document& doc, const FileModel& model, uint32_t offset);

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_QUERY_COMPLETION_H_
