// The struct info tvmls infers for every Relax parameter, binding and returned value of a file,
// as hover shows it: what `tvmls infer` prints, so a user sees what TVM would infer without
// building.
#ifndef TVMLS_ANALYSIS_QUERY_INFERRED_H_
#define TVMLS_ANALYSIS_QUERY_INFERRED_H_

#include <string>
#include <vector>

#include "model/model.h"

namespace tvmls::analysis {

struct Inferred {
  enum class Kind { kParameter, kBinding, kReturn };
  Kind kind = Kind::kBinding;
  TextRange range;          // absolute: the name (parameters, bindings) or the returned value
  std::string name;         // the variable; for a return, the function's name
  std::string struct_info;  // TVM's spelling; "" when tvmls does not know it
};

/// Every Relax function's parameters, bindings and returned values, in document order. Functions
/// with a syntax error are left out (their model describes the parser's recovery).
std::vector<Inferred> InferredStructInfo(const FileModel& model);

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_QUERY_INFERRED_H_
