#include "check/codes.h"

#include <unordered_map>

namespace tvmls::analysis {

const std::vector<CodeInfo>& DiagnosticCodes() {
  static const std::vector<CodeInfo> kCodes = {
      {"syntax-error", "the parser could not read the text"},
      {"storage-overflow", "a tensor view needs more bytes than its storage has"},
      {"storage-may-overflow", "a tensor view may need more bytes than its storage has"},
      {"impure-in-dataflow", "an impure call inside a dataflow block"},
      {"impure-in-pure-function", "an impure call in a function not marked pure=False"},
      {"kill-of-non-variable", "a kill of something that is not an allocated variable"},
      {"call-tir-mismatch", "call_tir arguments or output struct info contradict the PrimFunc"},
      {"invalid-axis-separators", "axis_separators that TIR buffer flattening rejects"},
      {"shape-mismatch", "an annotation contradicts the inferred shape"},
      {"dtype-mismatch", "an annotation contradicts the inferred dtype"},
      {"return-annotation-mismatch",
       "a function's return annotation contradicts the value it returns (TVM keeps the annotation)"},
      {"invalid-op-call", "operator inference proves the call wrong"},
      {"bad-op-arguments", "missing, unknown or duplicate operator arguments; a T. call of the wrong arity"},
      {"unknown-op", "an R. name that is not a Relax operator, or a T. name of no TIR builder"},
      {"undefined-name", "a name bound nowhere"},
      {"undefined-global", "a cls.f or global that the module does not define"},
      {"dataflow-var-escape", "a dataflow variable used after its block without R.output"},
      {"undefined-symbolic-var", "a symbolic variable used before any definition"},
      {"redefined-name", "a Relax variable bound twice"},
      {"missing-return", "a Relax function without a return"},
      {"if-in-dataflow", "an if statement inside a dataflow block"},
      {"output-outside-dataflow", "R.output outside a dataflow block"},
      {"multiple-return", "a Relax function with more than one return statement"},
      {"statement-after-output", "a binding after R.output in a dataflow block"},
      {"unbound-value", "a non-void Relax expression used as a statement"},
      {"private-global-symbol", "a private function given a global_symbol attribute"},
      {"duplicate-func-attr", "one key twice in a function's R.func_attr"},
      {"inline-prim-func", "a T.prim_func defined inside a Relax function"},
      {"missing-parameter-annotation", "a Relax function parameter without a type annotation"},
      {"chained-assignment", "an assignment with more than one target (a = b = value)"},
      {"if-branch-mismatch", "the branches of an `if` end by binding different names"},
      {"block-attr-conflict", "two T.block_attr calls of one block give a key different values"},
      {"output-not-in-block", "R.output of a variable its dataflow block does not bind"},
      {"invalid-rewriter", "an @R.rewriter class that PatternMatchingRewriter rejects (pattern/replacement missing, "
                           "not Relax functions, of different signatures; a public subroutine)"},
      {"invalid-annotation", "an R.Tensor annotation TVM's parser rejects (unknown keyword, bad ndim, ndim beside a shape)"},
      {"buffer-index-arity", "a buffer access with the wrong number of indices"},
      {"buffer-index-out-of-bounds", "a buffer index that provably leaves the buffer for some iteration"},
      {"block-iter-domain-mismatch", "a block iterator whose binding reaches outside its domain"},
      {"loop-var-in-block", "a loop variable used inside a block with iterators that it is outside of"},
      {"loop-var-out-of-scope", "a loop variable used after its loop"},
      {"block-access-undeclared", "a block load or store of a buffer its written-out T.reads / T.writes does not name"},
      {"block-access-outside-region", "a block access that provably leaves the region its T.reads / T.writes declares"},
      {"pass-order", "a pass placed after a pass that broke what it needs"},
      {"unused-binding", "a pure Relax binding whose variable is never used", /*unnecessary=*/true},
      {"unused-suppression", "a # tvmls: ignore or disable comment that suppresses nothing",
       /*unnecessary=*/true},
      // Emitted by the server layer (server/check_command.cc, server/lsp_server.cc): the
      // project configuration file has a mistake.
      {"invalid-config", "a mistake in tvmls.toml or pyproject.toml [tool.tvmls]"},
  };
  return kCodes;
}

const CodeInfo* FindCode(std::string_view code) {
  // Asked once per diagnostic written (thousands per edit in a large file).
  static const std::unordered_map<std::string_view, const CodeInfo*> by_code = [] {
    std::unordered_map<std::string_view, const CodeInfo*> out;
    for (const CodeInfo& info : DiagnosticCodes()) out.emplace(info.code, &info);
    return out;
  }();
  auto it = by_code.find(code);
  return it == by_code.end() ? nullptr : it->second;
}

}  // namespace tvmls::analysis
