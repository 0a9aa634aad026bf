// Parser rules: what TVM's Relax and TIR parsers and IR builders reject about a function's
// statements, decorator and attributes, beyond names and blocks (check/well_formed.cc):
// multiple-return, statement-after-output, unbound-value, private-global-symbol (Relax and TIR),
// duplicate-func-attr (Relax and TIR), inline-prim-func, missing-parameter-annotation,
// chained-assignment (Relax and TIR), invalid-annotation (what R.Tensor(...) rejects).
//
// Invariants:
//  - All errors: TVM raises each one while parsing (v0.23: parser/{relax,tir}/parser.py,
//    ir_builder/{relax,tir}/ir.cc and utils.h; current: {relax,tirx}/script/parser/parser.py,
//    {relax,tirx}/script/builder/ir.cc and utils.h, with the same messages), quoted in the
//    message.
//  - The lowering decides (model/lower_relax*.cc): a `return` inside an `if` branch is not
//    counted; after R.output only statements that emit a binding count (an assignment or a call
//    of an R. or module function); a value is non-void only when its struct info is known to be
//    a tensor, shape, prim value or non-empty tuple.
//  - Ranges: the later `return` keyword; the statement after R.output; the call whose value is
//    dropped; the "global_symbol" key; the later duplicate key; the nested PrimFunc's name; the
//    parameter; the second target of a chained assignment; the R.Tensor argument at fault. Fixes: unbound-value binds the value
//    to `_` (preferred), as TVM's printer does; chained-assignment splits `a = b = value` into
//    `b = value` and `a = b` on the next line (preferred; only for two plain names).
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
    }
  }
};

}  // namespace

std::unique_ptr<Check> MakeParserRulesCheck() { return std::make_unique<ParserRulesCheck>(); }

}  // namespace tvmls::analysis::check
