// Pipelines in Python code: the passes a file runs in order, found wherever a statement builds
// them (tests, pipeline builders), so that check/pass_order.cc can say which pass runs where its
// needs are broken. A pipeline is
//  - the passes given to `Sequential` (`tvm.transform.Sequential`, `tvm.ir.transform.Sequential`,
//    a `Sequential` imported from them; positional or `passes=`), flattened: a list or tuple
//    literal, a nested `Sequential([...])`, `*name` splats, `a + b` concatenations, and a name the
//    same function bound to a list: `passes = []` then `passes.append(X())`,
//    `passes.extend([...])`, `passes += [...]`, `passes = passes + [...]`, in any statements of
//    that function before the call;
//  - passes applied one after another to a module: `mod = relax.transform.A()(mod)` then
//    `mod = relax.transform.B()(mod)` (also through a name bound to a pass or a `Sequential`,
//    `seq(mod)`, and nested, `B()(A()(mod))`).
//
// Flow: the statements of each function are followed in order. What a branch adds (`if`, `elif`,
// `else`, `match` cases, a conditional expression `A() if c else B()`) is conditional: each step
// carries the branches it sits in (`PipelineStep::cond`), so that the check can tell a pass that
// always runs before another from one that may. A loop, a `try`, a nested function, an unknown
// call given the list, a method other than append/extend (`insert`, `pop`), an assignment to an
// element: what they do to a list is not followed, and the list is unknown from there on (a
// module's chain gets an unknown step: an unknown pass may establish anything).
//
// Passes are Relax passes only when named through TVM's modules as the file imports them
// (Aliases::py_*): `relax.transform.X`, `tvm.relax.transform.X`, `rx.transform.X`,
// `transform.X` for `from tvm.relax import transform`, `X` for `from tvm.relax.transform import
// X`. Anything else (a user's own module, a relative `from . import transform`, TIR passes) is a
// step of unknown pass.
//
// Lowering-free and cheap: a top-level statement without the words "Sequential" or "transform"
// or an imported pass name is not walked, nor are the TVMScript units inside a statement.
#ifndef TVMLS_ANALYSIS_MODEL_PIPELINE_H_
#define TVMLS_ANALYSIS_MODEL_PIPELINE_H_

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tree_sitter/api.h>

#include "model/model.h"
#include "text/text_range.h"

namespace tvmls::analysis {

/// The branches a step sits in: (choice, arm) pairs sorted by choice. A choice is one `if` chain,
/// `match` or conditional expression; its arms exclude each other (an `if` without `else` has an
/// arm for "none taken").
using PipelineCond = std::vector<std::pair<uint32_t, uint32_t>>;

/// One pass of a pipeline, in order.
struct PipelineStep {
  /// The Relax pass's name when the step is a constructor call `relax.transform.Name(...)` (as
  /// resolved through the file's imports); "" for anything else: an unknown pass.
  std::string pass;
  TextRange range;   // the constructor call (the list element), absolute
  std::string text;  // its text
  PipelineCond cond;
  /// The step's text sits where any other pass expression could (a list element, an append's
  /// argument, the pass applied in `mod = X()(mod)`), so a fix may swap it with another such.
  bool movable = true;
};

struct Pipeline {
  std::vector<PipelineStep> steps;  // at least two
};

/// Appends the pipelines of the top-level statement `stmt` to `out`; nodes whose id is in
/// `skip` (the TVMScript units discovery found) are not entered. `aliases` names TVM's pass
/// modules (Aliases::py_*).
void FindPipelines(TSNode stmt, std::string_view text, const std::set<const void*>& skip, const Aliases& aliases,
                   std::vector<Pipeline>* out);

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_MODEL_PIPELINE_H_
