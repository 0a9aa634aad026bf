// Pipelines in Python code: the passes a file runs in order, found wherever a statement builds
// them (tests, pipeline builders), so that check/pass_order.cc can say which pass runs where its
// needs are broken. Two forms:
//  - a list or tuple of passes given to `Sequential` (`tvm.transform.Sequential([...])`,
//    `tvm.ir.transform.Sequential`, `Sequential(passes=...)`), literally or through a name the
//    same statement assigned the list to (`passes = [...]` ... `Sequential(passes)`);
//  - statements in a row of one block that apply a pass to the previous one's result:
//    `mod = relax.transform.A()(mod)` then `mod = relax.transform.B()(mod)`.
// Lowering-free and cheap: statements without the words "Sequential" or "transform" are not
// walked, nor are the TVMScript units inside a statement.
#ifndef TVMLS_ANALYSIS_MODEL_PIPELINE_H_
#define TVMLS_ANALYSIS_MODEL_PIPELINE_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "text/text_range.h"

namespace tvmls::analysis {

/// One pass of a pipeline, in order.
struct PipelineStep {
  /// The pass's name when the step is a constructor call `relax.transform.Name(...)` /
  /// `transform.Name(...)` / `Name(...)` (not of tir/tirx/relay passes); "" otherwise.
  std::string pass;
  TextRange range;   // the constructor call (the list element), absolute
  std::string text;  // its text
};

struct Pipeline {
  std::vector<PipelineStep> steps;  // at least two
};

/// Appends the pipelines of the top-level statement `stmt` to `out`; nodes whose id is in
/// `skip` (the TVMScript units discovery found) are not entered.
void FindPipelines(TSNode stmt, std::string_view text, const std::set<const void*>& skip,
                   std::vector<Pipeline>* out);

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_MODEL_PIPELINE_H_
