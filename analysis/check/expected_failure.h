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
//     or runs code naming it inside a later `with ....raises(...)` block;
//   - it sits at the top of the file and every use of its name elsewhere in the file is inside a
//     `with ....raises(...)` block or an xfail-marked test (CollectNameUses, ExpectedFailureByUse:
//     TVM's tests define bad PrimFuncs at module level and reject them inside the tests).
// Invariants: only error and warning diagnostics inside the unit change, and only their severity
// (to information) and related locations (one more); syntax errors are left alone.
#ifndef TVMLS_ANALYSIS_CHECK_EXPECTED_FAILURE_H_
#define TVMLS_ANALYSIS_CHECK_EXPECTED_FAILURE_H_

#include <optional>
#include <utility>
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

/// How a top-level statement that is not itself a TVMScript unit (a test function, module-level
/// code) uses names: `expecting` holds each name used where a test expects failure (in the body
/// of a `with ....raises(...)` block, or anywhere in a function decorated with an `xfail`
/// decorator) with the outermost Python function around the use ("" at module level); `plain`
/// every name used anywhere else. Attribute names (`x.name`) and keyword names are not uses.
/// Both are sorted and free of duplicates.
struct NameUses {
  std::vector<std::pair<std::string, std::string>> expecting;  // (name, function)
  std::vector<std::string> plain;
};
void CollectNameUses(TSNode stmt, std::string_view text, NameUses* out);

/// A unit at the top of the file (not inside a test) is expected to fail when the file uses its
/// name only where tests expect failure: `expecting_functions` are the functions with such uses
/// (none: nullopt), `plain_uses` the number of other uses. The marker is the unit's name.
std::optional<ExpectedFailure> ExpectedFailureByUse(TextRange name_range,
                                                    const std::vector<std::string>& expecting_functions,
                                                    int plain_uses);

/// Lowers the error and warning diagnostics of `diagnostics` that lie inside `unit_range` to
/// information, each with a related location at `why.marker`.
void MarkExpectedFailure(const ExpectedFailure& why, TextRange unit_range,
                         std::vector<Diagnostic>* diagnostics);

/// The related location's message.
extern const char* const kExpectedFailureNote;

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_CHECK_EXPECTED_FAILURE_H_
