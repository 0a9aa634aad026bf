// Relax passes and the order they need: one table, one row per pass tvmls knows.
//
// A pipeline (`tvm.transform.Sequential([...])`, or `mod = relax.transform.X()(mod)` statements
// in a row) runs its passes in order. Some passes leave the module in a state that a later pass
// does not expect: KillAfterLastUse run while dataflow blocks remain puts impure kills inside
// them; ToNonDataflow removes the dataflow blocks that FuseOps works in. Such a state is a
// `PassProperty`: a row says which properties its pass needs, which it breaks and which it
// establishes again. The check (check/pass_order.cc) simulates a pipeline over these rows.
//
// Only facts read in TVM's source are here (src/relax/transform/*.cc, python/tvm/relax/pipeline.py,
// apache/tvm #17340); each property says where. A pass with no row is unknown: it may establish
// anything, so a pipeline says nothing across it. A row with no effects (`LegalizeOps`) is a
// pass known not to touch any property: it neither needs nor breaks nor establishes one.
#ifndef TVMLS_ANALYSIS_VOCAB_PASSES_H_
#define TVMLS_ANALYSIS_VOCAB_PASSES_H_

#include <cstdint>
#include <string_view>

namespace tvmls::vocab {

/// A state of the module that a pass may need, break or establish (bit flags).
enum PassProperty : uint32_t {
  /// Dataflow blocks hold no kill (R.memory.kill_tensor / kill_storage, R.vm.kill_object): the
  /// impure calls KillAfterLastUse inserts.
  kPureDataflowBlocks = 1u << 0,
  /// Dataflow blocks may be present (ToNonDataflow removes them all).
  kDataflowBlocks = 1u << 1,
  /// Output allocations are still `R.builtin.alloc_tensor` (what memory planning rewrites);
  /// LowerAllocTensor lowers every remaining one.
  kBuiltinAllocTensors = 1u << 2,
  /// No `R.builtin.alloc_tensor` is left (LowerRuntimeBuiltin throws on one); CallTIRRewrite
  /// emits them, LowerAllocTensor lowers them all.
  kNoBuiltinAllocTensors = 1u << 3,
};

struct PassInfo {
  const char* name;           // as in relax.transform: "FoldConstant"
  uint32_t needs = 0;         // properties the pass needs to do its work
  uint32_t breaks = 0;        // properties it breaks ...
  uint32_t breaks_while = 0;  // ... only while these hold (0: always)
  uint32_t establishes = 0;   // properties that hold after it
};

/// The row of `name` (the last component of `relax.transform.Name`), or null for a pass tvmls
/// does not know.
const PassInfo* FindPass(std::string_view name);

/// One sentence: what breaking `property` means, naming the pass that broke it ("KillAfterLastUse
/// inserted ..."); and why `pass` needs it ("FoldConstant folds ..."). `property` is one bit.
const char* PropertyBrokenText(PassProperty property);
const char* PropertyNeededText(PassProperty property);
/// Whether moving a pass before the one that broke `property` is a fix (false where the real fix
/// is another pass in between).
bool PropertyMoveFixes(PassProperty property);

}  // namespace tvmls::vocab

#endif  // TVMLS_ANALYSIS_VOCAB_PASSES_H_
