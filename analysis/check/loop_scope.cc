// loop-var-in-block / loop-var-out-of-scope: loop variables where TIR does not define them.
//
// Invariants:
//  - loop-var-in-block (error): a loop variable used inside a block that has iterators (its
//    body, T.init, T.reads/T.writes), when the loop is outside that block; bindings and T.where
//    may use it. TVM's parser runs verify_well_formed, whose BlockVarAccessVerifier rejects this
//    ("Loop iterator var i is defined outside of any block, but is used inside the non-opaque
//    current block"). Range: the use; related: the loop. Fix (preferred) when one of the block's
//    iterators is bound to exactly that loop variable: use the iterator.
//  - loop-var-out-of-scope (error): a name bound in the function only as loop targets, used
//    after every loop binding it has ended. TVMScript's variable table drops it at the end of
//    the loop ("undefined variable"). Range: the use; related: the last loop binding it.
#include "check/check.h"

namespace tvmls::analysis::check {
namespace {

class LoopScopeCheck : public Check {
 public:
  void OnLoopVarUse(const LoopVarUse& u, Sink& sink) override {
    if (u.kind == LoopVarUse::Kind::kInBlock) {
      std::string block = u.block.empty() ? "the block" : "block \"" + u.block + "\"";
      Diagnostic& d = sink.Add(u.range, Severity::kError, "loop-var-in-block",
                               "loop variable `" + u.name + "` is defined outside " + block +
                                   ", which has iterators: inside it, use a block iterator bound to it");
      d.related.push_back({u.loop_range, "the loop"});
      if (u.replacement) {
        Fix fix;
        fix.title = "Use the block iterator `" + *u.replacement + "`";
        fix.preferred = true;
        fix.edits.push_back({u.range, *u.replacement});
        d.fixes.push_back(std::move(fix));
      }
      return;
    }
    Diagnostic& d = sink.Add(u.range, Severity::kError, "loop-var-out-of-scope",
                             "loop variable `" + u.name + "` is used after its loop: TIR defines it only inside");
    d.related.push_back({u.loop_range, "the loop"});
  }
};

}  // namespace

std::unique_ptr<Check> MakeLoopScopeCheck() { return std::make_unique<LoopScopeCheck>(); }

}  // namespace tvmls::analysis::check
