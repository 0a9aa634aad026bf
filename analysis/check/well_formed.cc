// Well-formedness: what TVM's parser and relax.analysis.well_formed reject about names and
// blocks: missing-return, output-outside-dataflow, if-in-dataflow, redefined-name (also a
// parameter named like a symbolic variable that a string dim defines), dataflow-var-escape,
// undefined-name, undefined-global, undefined-symbolic-var.
//
// Invariants:
//  - All errors: TVM rejects each of these when it parses or checks the module.
//  - The lowering decides what is wrong (it resolves names with TVM's scoping: dataflow
//    variables end at their block unless listed in R.output, a name bound in only one branch of
//    an `if` is not visible after it, symbolic variables are declared with `n = T.int64()` and
//    defined by a parameter annotation or R.match_cast, Python values are the file's globals and
//    the closure of the function: model/discovery.h); this check words it and adds fixes:
//    list an escaping dataflow variable in R.output; declare an undeclared symbolic variable.
//  - Each problem once per name and function where the lowering says so (it reports a symbolic
//    variable's first use only).
#include "check/check.h"

namespace tvmls::analysis::check {
namespace {

std::string Quote(const std::string& s) { return "`" + s + "`"; }

class WellFormedCheck : public Check {
 public:
  void OnScopeProblem(const ScopeProblem& p, Sink& sink) override {
    using K = ScopeProblem::Kind;
    const std::string& n = p.name;
    switch (p.kind) {
      case K::kMissingReturn:
        sink.Add(p.range, Severity::kError, "missing-return",
                 "Relax function " + Quote(p.function) +
                     " has no return statement; a Relax function must return a value");
        return;
      case K::kOutputOutsideDataflow:
        sink.Add(p.range, Severity::kError, "output-outside-dataflow",
                 "R.output is only allowed inside a dataflow block (`with R.dataflow():`)");
        return;
      case K::kIfInDataflow:
        sink.Add(p.range, Severity::kError, "if-in-dataflow",
                 "`if` is not allowed inside a dataflow block; move it after the block");
        return;
      case K::kSymbolicRedeclared:
        sink.Add(p.range, Severity::kError, "redefined-name",
                 "symbolic variable " + Quote(n) + " is defined as T.int64 by the signature but redeclared as T." +
                     p.detail);
        return;
      case K::kParamIsSymbolicVar:
        sink.Add(p.range, Severity::kError, "redefined-name",
                 Quote(n) + " is both a parameter and a symbolic variable that a string dim of the signature "
                            "defines; TVM defines the symbolic variables first, then the parameters (\"Variable " +
                     n + " already defined\")")
            .related.push_back({p.related, p.detail});
        return;
      case K::kDataflowVarEscape: {
        Diagnostic& d = sink.Add(p.range, Severity::kError, "dataflow-var-escape",
                                 "dataflow variable " + Quote(n) +
                                     " is used outside its dataflow block; list it in R.output to use it here");
        d.related.push_back({p.related, Quote(n) + " is defined in the dataflow block here"});
        if (p.insert_output) {
          Fix f;
          f.title = "Add " + Quote(n) + " to R.output";
          f.preferred = true;
          f.edits.push_back(*p.insert_output);
          d.fixes.push_back(std::move(f));
        }
        return;
      }
      case K::kBranchOnly: {
        Diagnostic& d = sink.Add(p.range, Severity::kError, "undefined-name", p.detail);
        for (const RelatedLocation& r : p.notes) d.related.push_back(r);
        return;
      }
      case K::kUsedBeforeDefinition:
        sink.Add(p.range, Severity::kError, "undefined-name", Quote(n) + " is used before it is defined in this function");
        return;
      case K::kUndefinedName:
        sink.Add(p.range, Severity::kError, "undefined-name", "undefined name " + Quote(n));
        return;
      case K::kUndefinedInPrimFunc:
        sink.Add(p.range, Severity::kError, "undefined-name",
                 "undefined name " + Quote(n) + " in PrimFunc " + Quote(p.function));
        return;
      case K::kUndefinedGlobal:
        sink.Add(p.range, Severity::kError, "undefined-global",
                 "module " + Quote(p.detail) + " has no function " + Quote(n));
        return;
      case K::kSymbolicInSignature:
        sink.Add(p.range, Severity::kError, "undefined-symbolic-var",
                 "symbolic variable " + Quote(n) +
                     " is used in the signature but no parameter annotation defines it (a dim that is exactly `" + n +
                     "` defines it)");
        return;
      case K::kSymbolicNotDefined: {
        Diagnostic& d = sink.Add(p.range, Severity::kError, "undefined-symbolic-var",
                                 "symbolic variable " + Quote(n) +
                                     " is declared but not defined: no parameter annotation or earlier "
                                     "R.match_cast gives it a value");
        d.related.push_back({p.related, Quote(n) + " declared here"});
        return;
      }
      case K::kSymbolicNotDeclared: {
        Diagnostic& d = sink.Add(p.range, Severity::kError, "undefined-symbolic-var",
                                 "symbolic variable " + Quote(n) + " is not declared in this function; declare it with `" +
                                     n + " = T.int64()` (and define it by a parameter annotation or R.match_cast)");
        if (p.declare_at) {
          Fix f;
          f.title = "Declare " + Quote(n + " = T.int64()");
          f.preferred = true;
          f.edits.push_back({TextRange{*p.declare_at, *p.declare_at}, p.declare_indent + n + " = T.int64()\n"});
          d.fixes.push_back(std::move(f));
        }
        return;
      }
    }
  }
};

}  // namespace

std::unique_ptr<Check> MakeWellFormedCheck() { return std::make_unique<WellFormedCheck>(); }

Diagnostic DuplicateModuleFunction(TextRange name_range, const std::string& module, const std::string& function) {
  Diagnostic d;
  d.range = name_range;
  d.severity = Severity::kError;
  d.code = "redefined-name";
  d.message = "module " + module + " already defines a function named `" + function + "`";
  return d;
}

}  // namespace tvmls::analysis::check
