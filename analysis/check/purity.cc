// impure-in-dataflow / impure-in-pure-function / kill-of-non-variable: TVM bug 2 (an impure
// R.memory.kill_tensor inside a dataflow block, produced by running KillAfterLastUse before
// FoldConstant) and its relatives.
//
// Invariants:
//  - impure-in-dataflow (error): any impure call inside a dataflow block (Relax's well-formed
//    check rejects it). Related: the block's `with`. Fixes when the statement is exactly the
//    call: delete it (kills only, preferred: the build pipeline inserts kills itself after
//    ToNonDataflow); move it after the block (preferred for other calls), offered only when
//    every dataflow variable it reads is an output of the block and what it binds is not used
//    in dataflow blocks (decided at the block's end).
//  - impure-in-pure-function (error): an impure call in a function that is pure and not forced
//    pure. Fix: @R.function(pure=False), preferred unless a dataflow fix at the same position is.
//  - kill-of-non-variable (error): a kill whose argument is a constant.
#include "check/check.h"

namespace tvmls::analysis::check {
namespace {

class PurityCheck : public Check {
 public:
  void OnImpureCall(const ImpureCall& c, Sink& sink) override {
    // One preferred fix per position: when the dataflow diagnostic's fix (delete the kill) is
    // preferred, marking the function impure is only an alternative.
    bool dataflow_fix_preferred = false;
    if (c.dataflow_keyword) {
      Diagnostic& d = sink.Add(c.callee_range, Severity::kError, "impure-in-dataflow",
                               "impure " + c.what + " inside a dataflow block; dataflow blocks may only contain pure calls");
      d.related.push_back({*c.dataflow_keyword, "the dataflow block"});
      if (c.statement_lines) {
        if (c.is_kill) {
          Fix f;
          f.title = "Delete the " + c.what + " (the build pipeline inserts kills itself after ToNonDataflow)";
          f.preferred = true;
          f.edits.push_back({*c.statement_lines, ""});
          d.fixes.push_back(std::move(f));
        }
        Fix move;
        move.title = "Move the " + c.what + " after the dataflow block";
        move.preferred = !c.is_kill;
        move.edits.push_back({*c.statement_lines, ""});
        move.edits.push_back(c.insert_after_block);
        moves_.push_back({sink.size() - 1, std::move(move), c.reads_dataflow_vars, c.binds});
      }
      for (const Fix& f : d.fixes) dataflow_fix_preferred = dataflow_fix_preferred || f.preferred;
    }
    if (c.function_pure) {
      Diagnostic& d = sink.Add(c.callee_range, Severity::kError, "impure-in-pure-function",
                               "function `" + c.function_name + "` is pure but calls impure " + c.what +
                                   " (add pure=False to @R.function, or set relax.force_pure)");
      if (!c.decorator_range.empty()) d.related.push_back({c.decorator_range, "the function is pure by default"});
      if (c.impure_edit) {
        Fix f;
        f.title = "Mark `" + c.function_name + "` impure: @R.function(pure=False)";
        f.preferred = !dataflow_fix_preferred;
        f.edits.push_back(*c.impure_edit);
        d.fixes.push_back(std::move(f));
      }
    }
  }

  void OnDataflowEnd(const DataflowEnd& end, Sink& sink) override {
    for (PendingMove& m : moves_) {
      bool ok = m.diagnostic < sink.size();
      for (const std::string& n : m.needs) ok = ok && end.outputs->count(n) > 0;
      if (!m.binds.empty() && m.binds != "_") ok = ok && end.used_in_dataflow->count(m.binds) == 0;
      if (ok) sink.At(m.diagnostic).fixes.push_back(std::move(m.fix));
    }
    moves_.clear();
  }

  void OnKillOfConstant(const KillOfConstant& k, Sink& sink) override {
    sink.Add(k.argument_range, Severity::kError, "kill-of-non-variable",
             "R." + k.op + " needs a variable that owns a VM register, not a constant (" + k.argument + ")");
  }

 private:
  struct PendingMove {
    size_t diagnostic = 0;
    Fix fix;
    std::set<std::string> needs;
    std::string binds;
  };
  std::vector<PendingMove> moves_;  // of the current dataflow block
};

}  // namespace

std::unique_ptr<Check> MakePurityCheck() { return std::make_unique<PurityCheck>(); }

}  // namespace tvmls::analysis::check
