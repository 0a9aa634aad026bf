// Parser rules: what TVM's Relax and TIR parsers and IR builders reject about a function's
// statements, decorator and attributes, beyond names and blocks (check/well_formed.cc):
// multiple-return, statement-after-output, unbound-value, private-global-symbol (Relax and TIR),
// duplicate-func-attr (Relax and TIR), inline-prim-func, missing-parameter-annotation,
// chained-assignment (Relax and TIR), invalid-annotation (what R.Tensor(...) rejects),
// if-branch-mismatch (the branches of an `if` end by binding different names: TVM's
// ElseFrame), output-not-in-block (R.output of a variable bound outside its dataflow block:
// DataflowBlockOutput), block-attr-conflict (a block's T.block_attr calls give a key two
// values: MergeAnnotations); and, for a macro decorator's positional argument (`@T.macro(True)`,
// found by discovery), bad-op-arguments (MacroDecoratorArgument).
//
// Invariants:
//  - All errors: TVM raises each one while parsing (v0.23: parser/{relax,tir}/parser.py,
//    ir_builder/{relax,tir}/ir.cc and utils.h; current: {relax,tirx}/script/parser/parser.py,
//    {relax,tirx}/script/builder/ir.cc and utils.h, with the same messages), quoted in the
//    message.
//  - The lowering decides (model/lower_relax*.cc, model/prim_block_attrs.cc): a `return` inside
//    an `if` branch is not counted; after R.output only statements that emit a binding count (an
//    assignment or a call of an R. or module function); a value is non-void only when its struct
//    info is known to be a tensor, shape, prim value or non-empty tuple; both branches of an `if`
//    must end in `name = <known Relax value>` to be compared (anything else, a Python value of
//    unknown kind among them, may emit no binding); R.output's argument must be a Relax variable
//    (a parameter or an earlier binding); block annotations are compared as literals only.
//  - Ranges: the later `return` keyword; the statement after R.output; the call whose value is
//    dropped; the "global_symbol" key; the later duplicate key; the nested PrimFunc's name; the
//    parameter; the second target of a chained assignment; the R.Tensor argument at fault; the
//    `else` branch's last target; the R.output argument; the later block annotation key; the
//    macro decorator's argument.
//  - Fixes: unbound-value binds the value to `_` (preferred), as TVM's printer does;
//    chained-assignment splits `a = b = value` into `b = value` and `a = b` on the next line
//    (preferred; only for two plain names).
#include "check/check.h"

namespace tvmls::analysis::check {
namespace {

class ParserRulesCheck : public Check {
 public:
  void OnParserRule(const ParserRule& r, Sink& sink) override {
    using K = ParserRule::Kind;
    switch (r.kind) {
      case K::kMultipleReturn:
        sink.Add(r.range, Severity::kError, "multiple-return",
                 "Relax functions do not support multiple return statements; a function has a single "
                 "return, at its end")
            .related.push_back({r.related, "the first return"});
        return;
      case K::kStatementAfterOutput: {
        bool output = r.detail == "output";
        sink.Add(r.range, Severity::kError, "statement-after-output",
                 output ? "a dataflow block has a single R.output, its last statement (TVM: \"It is not "
                          "allowed for a dataflow block to have multiple output operation\")"
                        : "R.output ends the dataflow block: no binding may follow it (TVM: \"New binding "
                          "is not allowed after dataflow block output\"); move it before R.output")
            .related.push_back({r.related, "the block's R.output"});
        return;
      }
      case K::kUnboundValue: {
        Diagnostic& d = sink.Add(r.range, Severity::kError, "unbound-value",
                                 "non-void Relax expressions must be bound to a variable, but this one, of "
                                 "type " + r.detail + ", is used as a statement");
        Fix f;
        f.title = "Bind the value to `_`";
        f.preferred = true;
        f.edits.push_back({{r.insert_at, r.insert_at}, "_ = "});
        d.fixes.push_back(std::move(f));
        return;
      }
      case K::kPrivateGlobalSymbol:
        sink.Add(r.range, Severity::kError, "private-global-symbol",
                 "a private function may not have the \"global_symbol\" attribute; drop `private=True` or "
                 "the attribute")
            .related.push_back({r.related, "the function is private"});
        return;
      case K::kDuplicateFuncAttr:
        sink.Add(r.range, Severity::kError, "duplicate-func-attr",
                 "duplicate func_attr annotation for key \"" + r.detail + "\"")
            .related.push_back({r.related, "first given here"});
        return;
      case K::kInlinePrimFunc:
        sink.Add(r.range, Severity::kError, "inline-prim-func",
                 "inline prim_func is disallowed in Relax IR; define the PrimFunc in the module and call "
                 "it with R.call_tir(cls.f, ...)");
        return;
      case K::kMissingParameterAnnotation:
        sink.Add(r.range, Severity::kError, "missing-parameter-annotation",
                 "type annotation is required for function parameters: `" + r.detail + "` has none");
        return;
      case K::kInvalidAnnotation:
        sink.Add(r.range, Severity::kError, "invalid-annotation", r.detail);
        return;
      case K::kChainedAssignment: {
        Diagnostic& d = sink.Add(r.range, Severity::kError, "chained-assignment",
                                 "consequential assignments like 'a = b = c' are not supported in TVMScript; "
                                 "bind the value once, then assign the name");
        d.related.push_back({r.related, "the first target"});
        if (!r.edits.empty()) {
          Fix f;
          f.title = "Bind the value once, then write `" + r.detail + "`";
          f.preferred = true;
          f.edits = r.edits;
          d.fixes.push_back(std::move(f));
        }
        return;
      }
      case K::kIfBranchMismatch:
        sink.Add(r.range, Severity::kError, "if-branch-mismatch",
                 "the last binding of both branches of an `if` must bind the same variable, which becomes the "
                 "`if`'s value: the `if` branch ends by binding `" + r.detail + "`, this `else` branch by "
                 "binding another name")
            .related.push_back({r.related, "the `if` branch's last binding"});
        return;
      case K::kBlockAttrConflict:
        sink.Add(r.range, Severity::kError, "block-attr-conflict",
                 "the block's annotations already give \"" + r.detail +
                     "\" another value; TVM merges a block's T.block_attr calls and fails on a key with two "
                     "values (\"Try to merge two annotations with different values\")")
            .related.push_back({r.related, "the earlier value's key"});
        return;
      case K::kOutputNotInBlock:
        sink.Add(r.range, Severity::kError, "output-not-in-block",
                 "R.output may list only variables its dataflow block binds, but `" + r.detail +
                     "` is bound outside it (TVM: \"An output variable is not emitted by this dataflow block\")")
            .related.push_back({r.related, "`" + r.detail + "` is bound here"});
        return;
    }
  }
};

}  // namespace

std::unique_ptr<Check> MakeParserRulesCheck() { return std::make_unique<ParserRulesCheck>(); }

Diagnostic MacroDecoratorArgument(TextRange argument, const std::string& spelling) {
  Diagnostic d;
  d.range = argument;
  d.severity = Severity::kError;
  d.code = "bad-op-arguments";
  d.message = "@" + spelling + " takes no positional argument other than the function it decorates" +
              (spelling.find("macro") != std::string::npos ? " (write `hygienic=...` by keyword)" : "") +
              "; TVM: \"Invalid use of " + spelling + "\"";
  return d;
}

}  // namespace tvmls::analysis::check
