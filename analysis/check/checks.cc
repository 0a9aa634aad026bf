// The list of checks. A new check: a file under check/ with a Make...Check() function, declared
// and added below (order decides only the order of diagnostics at one position).
#include "check/check.h"

namespace tvmls::analysis::check {

Diagnostic& Sink::Add(TextRange range, Severity severity, const char* code, std::string message) {
  Diagnostic d;
  d.range = range;
  d.severity = severity;
  d.code = code;
  d.message = std::move(message);
  out_->push_back(std::move(d));
  return out_->back();
}

std::unique_ptr<Check> MakeStorageCheck();
std::unique_ptr<Check> MakeReturnAnnotationCheck();
std::unique_ptr<Check> MakeUnusedBindingCheck();
std::unique_ptr<Check> MakeBufferIndexCheck();
std::unique_ptr<Check> MakeAxisSeparatorsCheck();
std::unique_ptr<Check> MakePurityCheck();

std::vector<std::unique_ptr<Check>> MakeChecks() {
  std::vector<std::unique_ptr<Check>> checks;
  checks.push_back(MakeStorageCheck());
  checks.push_back(MakeReturnAnnotationCheck());
  checks.push_back(MakeUnusedBindingCheck());
  checks.push_back(MakeBufferIndexCheck());
  checks.push_back(MakeAxisSeparatorsCheck());
  checks.push_back(MakePurityCheck());
  return checks;
}

}  // namespace tvmls::analysis::check
