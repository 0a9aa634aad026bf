#include "vocab/passes.h"

#include <cstring>

namespace tvmls::vocab {
namespace {

// Sources, TVM HEAD and v0.23 alike:
//  - kill_after_last_use.cc: KillInserter emits each kill right after the binding of the last
//    use, in the block being built, dataflow or not; the default pipeline (pipeline.py) runs it
//    after ToNonDataflow. FoldConstant after it: apache/tvm #17340.
//  - to_non_dataflow.cc: every DataflowBlock becomes a BindingBlock. fuse_ops.cc groups the
//    bindings of dataflow blocks only (VisitBindingBlock_(DataflowBlockNode)), and
//    rewrite_dataflow_reshape.cc rewrites "only the bindings inside dataflow blocks".
//    convert_dataflow.cc builds dataflow blocks again (of pure bindings only).
//  - call_tir_rewrite.cc emits R.builtin.alloc_tensor for call_tir outputs;
//    static_plan_block_memory.cc plans builtin alloc_tensor only; lower_alloc_tensor.cc lowers
//    "any relax.builtin.alloc_tensor remaining after static planning".
constexpr PassInfo kPasses[] = {
    // name, needs, breaks, breaks_while, establishes
    {"KillAfterLastUse", 0, kPureDataflowBlocks, kDataflowBlocks, 0},
    {"FoldConstant", kPureDataflowBlocks, 0, 0, 0},
    {"ToNonDataflow", 0, kDataflowBlocks, 0, kPureDataflowBlocks},
    {"ConvertToDataflow", 0, 0, 0, kDataflowBlocks},
    {"FuseOps", kDataflowBlocks, 0, 0, 0},
    {"RewriteDataflowReshape", kDataflowBlocks, 0, 0, 0},
    {"CallTIRRewrite", 0, 0, 0, kBuiltinAllocTensors},
    {"StaticPlanBlockMemory", kBuiltinAllocTensors, 0, 0, 0},
    {"LowerAllocTensor", 0, kBuiltinAllocTensors, 0, 0},
    // Known to add no dataflow block, no impure call and no builtin alloc_tensor.
    {"LegalizeOps", 0, 0, 0, 0},
    {"AnnotateTIROpPattern", 0, 0, 0, 0},
    {"FuseTIR", 0, 0, 0, 0},
    {"DeadCodeElimination", 0, 0, 0, 0},
    {"RemovePurityChecking", 0, 0, 0, 0},
    {"AttachGlobalSymbol", 0, 0, 0, 0},
    {"ComputePrimValue", 0, 0, 0, 0},
    {"PrintIR", 0, 0, 0, 0},  // tvm.transform.PrintIR: prints, changes nothing
};

struct PropertyText {
  PassProperty property;
  const char* broken;
  const char* needed;
};

constexpr PropertyText kTexts[] = {
    {kPureDataflowBlocks,
     "inserts impure kills (R.memory.kill_tensor, kill_storage, R.vm.kill_object) right after each "
     "last use, inside dataflow blocks too when ToNonDataflow has not run before it",
     "expects dataflow blocks without impure calls: it folds a killed value into a constant, and "
     "the kill of a constant aborts the next KillAfterLastUse with \"non-normalized expression\" "
     "(apache/tvm #17340)"},
    {kDataflowBlocks, "turns every dataflow block into an ordinary binding block",
     "works only inside dataflow blocks, so it finds nothing to do"},
    {kBuiltinAllocTensors, "lowers every R.builtin.alloc_tensor to R.memory.alloc_storage / alloc_tensor",
     "plans only R.builtin.alloc_tensor, so it finds nothing to plan (TVM's default pipeline runs it "
     "after CallTIRRewrite and before LowerAllocTensor)"},
};

}  // namespace

const PassInfo* FindPass(std::string_view name) {
  for (const PassInfo& p : kPasses) {
    if (name == p.name) return &p;
  }
  return nullptr;
}

const char* PropertyBrokenText(PassProperty property) {
  for (const PropertyText& t : kTexts) {
    if (t.property == property) return t.broken;
  }
  return "";
}

const char* PropertyNeededText(PassProperty property) {
  for (const PropertyText& t : kTexts) {
    if (t.property == property) return t.needed;
  }
  return "";
}

}  // namespace tvmls::vocab
