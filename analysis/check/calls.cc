// invalid-op-call / bad-op-arguments / unknown-op: calls of operators and of the module's Relax
// functions.
//
// Invariants:
//  - bad-op-arguments (error): the arguments cannot be bound to the op's parameters as Python
//    would (too many positional, unknown keyword, a parameter twice, a required one missing).
//    When this happens inference does not run, so no invalid-op-call follows.
//  - invalid-op-call (error): the op's inference proves a conflict (ops/registry.h: inference
//    reports only what it can prove); a constant tuple index out of range; a call of a Relax
//    function with the wrong number of arguments, or an argument whose struct info provably
//    contradicts the parameter's annotation (symbolic dims bound by the earlier arguments).
//    The same for a `T.` call whose arguments do not fit the parameters of its row in the name
//    table (too many positional arguments, a required one missing; keywords are not judged).
//  - unknown-op (warning): an `R.` name tvmls does not know; the call's result is unknown, so
//    nothing downstream is checked. A warning, not an error: TVM may have ops tvmls lacks. Also a
//    `T.` name the name table lacks for the file's era, named with the era that has it when the
//    other one does (`T.sblock` in a classic file).
#include "check/check.h"

namespace tvmls::analysis::check {
namespace {

class CallCheck : public Check {
 public:
  void OnOpCall(const OpCall& c, Sink& sink) override {
    for (const OpCall::Problem& p : c.argument_problems) {
      sink.Add(p.range, Severity::kError, "bad-op-arguments", c.spelling + ": " + p.message);
    }
    for (const OpCall::Problem& e : c.inference_errors) {
      sink.Add(e.range, Severity::kError, "invalid-op-call", c.spelling + ": " + e.message);
    }
  }

  void OnUnknownOp(const UnknownOp& u, Sink& sink) override {
    if (!u.other_era.empty()) {
      sink.Add(u.callee_range, Severity::kWarning, "unknown-op",
               u.spelling + " exists only in the " + u.other_era + " TVMScript era, not in this file's");
      return;
    }
    const bool tir = u.spelling.rfind("T.", 0) == 0;
    sink.Add(u.callee_range, Severity::kWarning, "unknown-op",
             u.spelling + (tir ? " is not a TIR name tvmls knows" : " is not an operator tvmls knows") +
                 "; its result is not checked");
  }

  void OnTupleIndex(const TupleIndex& t, Sink& sink) override {
    int64_t size = static_cast<int64_t>(t.tuple.fields.size());
    if (t.index >= 0 && t.index < size) return;
    sink.Add(t.index_range, Severity::kError, "invalid-op-call",
             "tuple index " + std::to_string(t.index) + " is out of range for " + types::Print(t.tuple, t.print) +
                 " of " + std::to_string(size) + " field" + (size == 1 ? "" : "s"));
  }

  void OnRelaxFunctionCall(const RelaxFunctionCall& c, Sink& sink) override {
    if (c.arity_known && c.given != c.parameters) {
      sink.Add(c.call_range, Severity::kError, "invalid-op-call",
               "function `" + c.callee + "` takes " + std::to_string(c.parameters) + " argument" +
                   (c.parameters == 1 ? "" : "s") + " but " + std::to_string(c.given) + " were given");
      return;
    }
    arith::Facts none;
    for (size_t i = 0; i < c.arguments.size(); ++i) {
      const RelaxFunctionCall::Argument& a = c.arguments[i];
      types::BaseCheckDetail check = types::CheckBase(a.expected, a.value, c.facts ? *c.facts : none);
      if (check.result != types::BaseCheck::kFailL0) continue;
      sink.Add(a.range, Severity::kError, "invalid-op-call",
               "argument " + std::to_string(i) + " of `" + c.callee + "` is " + types::Print(a.value, c.print) +
                   " but the parameter `" + a.parameter + "` is " + types::Print(a.declared, c.print) + " (" +
                   check.reason + ")");
    }
  }
};

}  // namespace

std::unique_ptr<Check> MakeCallCheck() { return std::make_unique<CallCheck>(); }

}  // namespace tvmls::analysis::check
