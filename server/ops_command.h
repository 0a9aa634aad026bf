// `tvmls ops` and `tvmls infer`: what tvmls knows, for users and tests.
//
//   tvmls ops [--format text|json]
//       every Relax operator of the registry (ops/registry.h): its registry name, its TVMScript
//       spellings in both eras, purity, whether tvmls infers its result, its parameters with
//       their defaults. json: one array of
//       {"name", "script": [...], "pure", "inference", "params": [{"name", "default"}]}
//       ("default" null for a required parameter).
//   tvmls infer [--format text|json] FILE|DIR...
//       the struct info of every Relax parameter, binding and returned value, as hover shows it:
//       `path:line:col: name: R.Tensor((1, 64), dtype="float32")` (a return: `return f: ...`;
//       unknown: `?`). Settings come from each file's configuration, as for `tvmls check`.
#ifndef TVMLS_SERVER_OPS_COMMAND_H_
#define TVMLS_SERVER_OPS_COMMAND_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace tvmls::server {

/// Runs `tvmls ops` with `args` (after the command). Returns the exit code.
int RunOps(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// Runs `tvmls infer` with `args`. Exit code 0, or 2 when an input cannot be read.
int RunInfer(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace tvmls::server

#endif  // TVMLS_SERVER_OPS_COMMAND_H_
