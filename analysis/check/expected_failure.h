// Code a test expects TVM to reject. TVM's own tests (and a user's) are full of modules written
// to fail: a wrong module is the point of the test, so its diagnostics are reported with severity
// information (the file stays green, the engineer still sees what is wrong), each with a related
// location at what says so: "this test expects TVM to reject this code".
//
// A TVMScript unit (an `I.ir_module` class or a standalone `R.function` / `T.prim_func`) is
// expected to fail when, decided from the syntax tree:
//   - its decorator passes `check_well_formed=False`;
//   - it sits inside `with pytest.raises(...)` (any `....raises(...)` context manager);
//   - a Python function around it is decorated with `pytest.mark.xfail` (any decorator whose
//     dotted name has an `xfail` part);
//   - the nearest Python function around it asserts `assert not <...>well_formed(Name, ...)` of it,
//     or runs code naming it inside a later `with ....raises(...)` block.
// Invariants: only error and warning diagnostics inside the unit change, and only their severity
// (to information) and related locations (one more); syntax errors are left alone.
#ifndef TVMLS_ANALYSIS_CHECK_EXPECTED_FAILURE_H_
#define TVMLS_ANALYSIS_CHECK_EXPECTED_FAILURE_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "check/diagnostic.h"

namespace tvmls::analysis {

struct ExpectedFailure {
  TextRange marker;  // what says so: the raises call, the xfail decorator, the assert, the keyword
  std::string why;   // "pytest.raises", "xfail", "assert not well_formed", "check_well_formed=False"
};

/// Why the code around `unit` (its class_definition, function_definition or decorated_definition
/// node; `name` its name) expects TVM to reject it; nullopt when nothing says so.
std::optional<ExpectedFailure> ExpectedFailureOf(TSNode unit, std::string_view text,
                                                 std::string_view name);

/// Lowers the error and warning diagnostics of `diagnostics` that lie inside `unit_range` to
/// information, each with a related location at `why.marker`.
void MarkExpectedFailure(const ExpectedFailure& why, TextRange unit_range,
                         std::vector<Diagnostic>* diagnostics);

/// The related location's message.
extern const char* const kExpectedFailureNote;

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_CHECK_EXPECTED_FAILURE_H_
