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
  fn_->diagnostics.push_back(std::move(d));
  return fn_->diagnostics.back();
}

void Sink::AddRelatedInCallee(const std::string& callee, TextRange range, std::string message) {
  Diagnostic& d = fn_->diagnostics.back();
  d.related.push_back({range, std::move(message)});
  fn_->cross_refs.push_back({fn_->diagnostics.size() - 1, d.related.size() - 1, callee, false});
}

void Sink::AddFixInCallee(const std::string& callee, Fix fix) {
  Diagnostic& d = fn_->diagnostics.back();
  d.fixes.push_back(std::move(fix));
  fn_->cross_refs.push_back({fn_->diagnostics.size() - 1, d.fixes.size() - 1, callee, true});
}

std::optional<Fix> AnnotationFix(std::string title, TextRange annotation_range, const types::StructInfo& value,
                                 const types::PrintOptions& print, const Respell& respell) {
  if (!types::FullyKnown(value)) return std::nullopt;
  Fix f;
  f.title = std::move(title);
  f.preferred = true;
  std::optional<std::vector<TextEdit>> edits = respell ? respell(value) : std::nullopt;
  if (edits) {
    f.edits = std::move(*edits);
  } else {
    f.edits.push_back({annotation_range, types::Print(value, print)});
  }
  return f;
}

std::unique_ptr<Check> MakeStorageCheck();
std::unique_ptr<Check> MakeReturnAnnotationCheck();
std::unique_ptr<Check> MakeUnusedBindingCheck();
std::unique_ptr<Check> MakeBufferIndexCheck();
std::unique_ptr<Check> MakeBlockIterCheck();
std::unique_ptr<Check> MakeLoopScopeCheck();
std::unique_ptr<Check> MakeBlockRegionsCheck();
std::unique_ptr<Check> MakeAxisSeparatorsCheck();
std::unique_ptr<Check> MakePurityCheck();
std::unique_ptr<Check> MakeCallTirCheck();
std::unique_ptr<Check> MakeAnnotationCheck();
std::unique_ptr<Check> MakeCallCheck();
std::unique_ptr<Check> MakeWellFormedCheck();
std::unique_ptr<Check> MakeParserRulesCheck();

std::vector<std::unique_ptr<Check>> MakeChecks() {
  std::vector<std::unique_ptr<Check>> checks;
  checks.push_back(MakeStorageCheck());
  checks.push_back(MakeReturnAnnotationCheck());
  checks.push_back(MakeUnusedBindingCheck());
  checks.push_back(MakeBufferIndexCheck());
  checks.push_back(MakeBlockIterCheck());
  checks.push_back(MakeLoopScopeCheck());
  checks.push_back(MakeBlockRegionsCheck());
  checks.push_back(MakeAxisSeparatorsCheck());
  checks.push_back(MakePurityCheck());
  checks.push_back(MakeCallTirCheck());
  checks.push_back(MakeAnnotationCheck());
  checks.push_back(MakeCallCheck());
  checks.push_back(MakeWellFormedCheck());
  checks.push_back(MakeParserRulesCheck());
  return checks;
}

}  // namespace tvmls::analysis::check
