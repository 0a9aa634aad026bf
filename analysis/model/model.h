// The semantic model of a file: its TVMScript modules, functions, symbols and facts, lowered
// from the syntax tree error-tolerantly (a broken function does not stop the others).
//
// Coordinates: every TextRange in a FunctionModel is relative to the function's start byte, so a
// function whose text did not change is reused after an edit elsewhere as it is: only the
// FunctionRef's `base` moves. Absolute(ref, range) gives document offsets.
#ifndef TVMLS_ANALYSIS_MODEL_MODEL_H_
#define TVMLS_ANALYSIS_MODEL_MODEL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "arith/expr.h"
#include "check/diagnostic.h"
#include "text/text_range.h"
#include "types/struct_info.h"

namespace tvmls::analysis {

/// Names the file binds to TVMScript's namespaces. `T`, `R`, `I` are conventions: the imports
/// decide (`from tvm.script import relax as rx` makes `rx` the Relax alias).
struct Aliases {
  std::set<std::string> ir = {"I"};
  std::set<std::string> relax = {"R"};
  std::set<std::string> tir = {"T"};
  /// Names of the `tvm` package (`tvm.script.ir_module`).
  std::set<std::string> tvm = {"tvm"};
  /// Python names of TVM's pass modules and passes, for pipelines (model/pipeline.h): the
  /// `tvm.relax` package (`from tvm import relax as rx`), `tvm.relax.transform`
  /// (`from tvm.relax import transform`), `tvm.ir.transform` (`from tvm import transform`), and
  /// passes imported by name (`from tvm.relax.transform import FoldConstant as FC`: FC ->
  /// FoldConstant; also `Sequential` and `PrintIR` from tvm.ir.transform).
  std::set<std::string> py_relax = {"relax"};
  std::set<std::string> py_relax_transform;
  std::set<std::string> py_ir_transform;
  std::map<std::string, std::string> py_passes;
  bool py_pass_star = false;  // `from tvm.relax.transform import *`
  /// Classic (`tir`, T.block), current (`tirx`, T.sblock), or both accepted (nothing said).
  bool classic = true;
  bool current = true;
  bool current_era_printing() const { return current && !classic; }
};

/// A TIR buffer as declared: a `T.Buffer` parameter annotation, `T.match_buffer`,
/// `T.alloc_buffer`, `T.decl_buffer` or a `T.Buffer(...)` in a body.
struct BufferDecl {
  std::string name;
  TextRange name_range;
  TextRange decl_range;    // the annotation or the call
  TextRange shape_range;   // the shape argument
  std::vector<TextRange> dim_ranges;
  /// How each constant dim is spelled, with `{}` for the number: "{}" for `64`, "T.int64({})"
  /// for `T.int64(64)`; "" for a symbolic dim. Fixes that rewrite a dim keep the user's spelling.
  std::vector<std::string> dim_spellings;
  std::optional<std::vector<arith::Expr>> shape;
  std::string dtype = "float32";
  std::string scope = "global";
  enum class Origin { kParam, kMatchBuffer, kAllocBuffer, kDeclBuffer, kBufferCtor };
  Origin origin = Origin::kParam;
  /// Declared with `data=`, `strides=` or `elem_offset=`: a view whose indices may legally
  /// address memory beyond its own shape (bounds against loop ranges are not checked).
  bool view = false;
  int rank() const { return shape ? static_cast<int>(shape->size()) : -1; }
};

/// What a Relax caller needs to know about a PrimFunc.
struct PrimSignature {
  struct Param {
    std::string name;
    TextRange name_range;
    enum class Kind { kBuffer, kHandle, kScalar, kUnknown };
    Kind kind = Kind::kUnknown;
    std::string dtype;  // scalar dtype
    int buffer = -1;    // index into buffers (kBuffer, or kHandle bound by match_buffer)
  };
  std::vector<Param> params;
  std::vector<BufferDecl> buffers;  // parameter buffers (annotation or match_buffer)
  bool complete = true;             // false when a parameter could not be understood
  bool writes = true;               // stores to a buffer (a direct call is impure)
  bool returns_value = false;       // has a return annotation (`-> T.int32`)
};

/// Parameter `index` of `sig` as hovers, outlines and signature help show it:
/// `A: T.Buffer((128, 128), "float32")` (`?` for a shape not known), `n: T.int32`, `h: T.handle`,
/// or the bare name when its kind is unknown. Requires index < sig.params.size().
std::string PrimParamText(const PrimSignature& sig, size_t index);

/// Every parameter of `sig` in parentheses, as PrimParamText writes them: `(A: T.Buffer((4,),
/// "float32"), n: T.int32)`; `()` for none.
std::string PrimSignatureText(const PrimSignature& sig);

/// What a caller needs to know about a Relax function.
struct RelaxSignature {
  std::vector<std::string> param_names;
  std::vector<types::StructInfo> params;
  types::StructInfo ret;  // kUnknown without a return annotation
  bool pure = true;
  bool complete = true;
};

/// A named thing in a function, with its definition, references and hover text.
struct Symbol {
  enum class Kind { kRelaxVar, kRelaxParam, kSymbolicVar, kBuffer, kTirVar, kFunction };
  Kind kind = Kind::kRelaxVar;
  std::string name;
  TextRange definition;
  std::vector<TextRange> references;
  std::string detail;  // hover text: struct info, buffer shape/dtype/scope, signature
  /// Another symbol (an index into the function's symbols) this one is the same variable as:
  /// a name bound in both branches of an `if` is one variable after it, and the else branch's
  /// binding points at the then branch's. -1 when none. Renaming one renames all of them.
  int same_as = -1;
};

/// A span with hover text that is not a symbol: call results, op names, `cls.f` references.
struct HoverSpan {
  TextRange range;
  std::string text;  // code: struct info, a signature, a declaration
  std::string doc;   // prose shown below it (markdown); may be empty
};

/// An inferred struct info shown after an unannotated binding target.
struct InlayHint {
  uint32_t offset = 0;  // after the target name
  std::string label;    // ": R.Tensor((1, 64, 56, 56), dtype=\"float32\")"
  /// Inserting the label at `offset` is valid Python: false for the targets of tuple unpacking
  /// (`a, b = t`), where an annotation is a syntax error.
  bool insertable = true;
};

/// A `with R.dataflow():` block of a Relax function (relative ranges).
struct DataflowBlock {
  TextRange range;   // the whole `with` statement
  TextRange header;  // `with R.dataflow():`, from `with` to the colon
};

struct FunctionModel {
  enum class Kind { kRelax, kPrim };
  Kind kind = Kind::kRelax;
  std::string name;
  TextRange range;          // relative, the whole decorated definition
  TextRange name_range;     // relative
  std::string module;       // enclosing module class, "" when standalone
  /// `private=True` in its `@R.function` / `@T.prim_func` decorator: TVM gives it no
  /// "global_symbol" (it is not publicly exposed).
  bool is_private = false;
  RelaxSignature relax;
  PrimSignature prim;
  uint64_t signature_hash = 0;
  /// Results of the function's own checks (relative ranges).
  std::vector<Diagnostic> diagnostics;
  /// Syntax errors inside the definition (relative ranges, code `syntax-error`).
  std::vector<Diagnostic> syntax_errors;
  std::vector<Symbol> symbols;
  std::vector<HoverSpan> hovers;
  std::vector<InlayHint> inlays;
  /// The values a Relax function returns, with their inferred struct info (`return y`: the
  /// range of `y`), in text order.
  struct Returned {
    TextRange range;
    types::StructInfo info;
  };
  std::vector<Returned> returns;
  /// The dataflow blocks of a Relax function's own body, in text order (empty for PrimFuncs).
  std::vector<DataflowBlock> dataflow_blocks;
  /// Module functions referenced as `cls.f` with the signature hash seen.
  std::map<std::string, uint64_t> dependencies;
  /// Names looked up in the surrounding Python (closure values), with the answer: the function
  /// is reused only while every lookup still gives the same answer.
  std::map<std::string, bool> outer_lookups;
  /// Direct calls / call_tir uses of module functions: (callee, relative range of the reference).
  std::vector<std::pair<std::string, TextRange>> calls;
  /// Parts of diagnostics that point into another function (the callee of a call_tir): their
  /// ranges are relative to that function, rebased when the file's diagnostics are assembled.
  struct CrossRef {
    size_t diagnostic = 0;
    size_t item = 0;      // index into related (is_fix false) or fixes (is_fix true)
    std::string callee;
    bool is_fix = false;  // all edits of that fix are in the callee
  };
  std::vector<CrossRef> cross_refs;
};

/// A function model placed in the document.
struct FunctionRef {
  std::shared_ptr<const FunctionModel> fn;
  uint32_t base = 0;  // absolute start byte of the decorated definition
  /// The definition contains a syntax error: its semantic diagnostics are not shown (they would
  /// describe what the parser's recovery made of the text).
  bool has_syntax_error = false;
};

struct ModuleModel {
  std::string name;
  TextRange range;       // absolute
  TextRange name_range;  // absolute
  std::vector<FunctionRef> functions;
  /// Class-level names that are not functions (`f = R.ExternFunc("f")`): they count as globals.
  std::set<std::string> extern_globals;
  /// An `@R.rewriter` class (model/discovery.h).
  bool rewriter = false;
};

struct FileModel {
  Aliases aliases;
  std::vector<ModuleModel> modules;
  /// Functions outside any module (`@R.function` / `@T.prim_func` at file or test-function level).
  std::vector<FunctionRef> standalone;
};

/// Relative range -> absolute.
inline TextRange Absolute(const FunctionRef& f, TextRange r) {
  return TextRange{r.begin + f.base, r.end + f.base};
}

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_MODEL_MODEL_H_
