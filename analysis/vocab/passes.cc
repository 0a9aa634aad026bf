#include "vocab/passes.h"

#include <cstring>

namespace tvmls::vocab {
namespace {

// Each row cites the TVM source it is read from (apache/tvm HEAD; the same in v0.23 unless said).
// python/tvm/relax/transform/transform.py is "transform.py" below; the C++ files are under
// src/relax/transform/ unless a path is given. Passes not listed are unknown (silent across).
constexpr PassInfo kPasses[] = {
    // name, needs, breaks, breaks_while, establishes
    //
    // kill_after_last_use.cc: KillInserter emits each kill (R.memory.kill_tensor / kill_storage,
    // R.vm.kill_object: impure) right after the binding of the last use, in the block being
    // built, dataflow or not; pipeline.py runs it after ToNonDataflow.
    {"KillAfterLastUse", 0, kPureDataflowBlocks, kDataflowBlocks, 0},
    // fold_constant.cc folds a value bound to a constant, killed or not; apache/tvm #17340 (the
    // seed bug): KillAfterLastUse, FoldConstant, then KillAfterLastUse aborts on the kill of a
    // constant ("non-normalized expression", kill_after_last_use.cc).
    {"FoldConstant", kPureDataflowBlocks, 0, 0, 0},
    // to_non_dataflow.cc: VisitBindingBlock_(DataflowBlockNode) turns every dataflow block into a
    // BindingBlock (so no dataflow block holds an impure call any more).
    {"ToNonDataflow", 0, kDataflowBlocks, 0, kPureDataflowBlocks},
    // convert_dataflow.cc: DataflowBlockExtractor builds dataflow blocks again, of pure bindings.
    {"ConvertToDataflow", 0, 0, 0, kDataflowBlocks},
    // fuse_ops.cc: OperatorFusor rewrites only in VisitBindingBlock_(DataflowBlockNode), for
    // FuseOps and FuseOpsByPattern alike; transform.py: "ConvertToDataflow may need to be called
    // first" (FuseOps), "Only operates within dataflow blocks" (FuseOpsByPattern).
    {"FuseOps", kDataflowBlocks, 0, 0, 0},
    {"FuseOpsByPattern", kDataflowBlocks, 0, 0, 0},
    // rewrite_dataflow_reshape.cc rewrites "only the bindings inside dataflow blocks";
    // transform.py: "Operates only in dataflow blocks".
    {"RewriteDataflowReshape", kDataflowBlocks, 0, 0, 0},
    // dataflow_inplace.cc: the mutator's only override is VisitBindingBlock_(DataflowBlockNode);
    // transform.py: "ConvertToDataflow may need to be called first to provide dataflow blocks".
    {"DataflowUseInplaceCalls", kDataflowBlocks, 0, 0, 0},
    // call_tir_rewrite.cc emits R.builtin.alloc_tensor for every call_tir / call_dps_packed
    // output (AllocateOutputTensor).
    {"CallTIRRewrite", 0, kNoBuiltinAllocTensors, 0, kBuiltinAllocTensors},
    // static_plan_block_memory.cc plans builtin alloc_tensor only, and leaves the dynamic ones
    // (lower_alloc_tensor.cc: "remaining after static planning").
    {"StaticPlanBlockMemory", kBuiltinAllocTensors, 0, 0, 0},
    // lower_alloc_tensor.cc lowers "any relax.builtin.alloc_tensor remaining after static
    // planning" to R.memory.alloc_storage / alloc_tensor.
    {"LowerAllocTensor", 0, kBuiltinAllocTensors, 0, kNoBuiltinAllocTensors},
    // src/relax/backend/vm/lower_runtime_builtin.cc throws on relax.builtin.alloc_tensor: "This
    // operation should have been lowered earlier using the 'relax.transform.LowerAllocTensor'
    // pass". transform.py: VMBuiltinLower is the old name (it returns LowerRuntimeBuiltin()).
    {"LowerRuntimeBuiltin", kNoBuiltinAllocTensors, 0, 0, 0},
    {"VMBuiltinLower", kNoBuiltinAllocTensors, 0, 0, 0},
    // Known to touch none of the properties: they add no kill, no dataflow block and no builtin
    // alloc_tensor, and remove none: legalize_ops.cc (ops to pure call_tir),
    // annotate_tir_op_pattern.cc and attach_global_symbol.cc (attributes), fuse_tir.cc (fused
    // functions to PrimFuncs), dead_code_elimination.cc (unused pure bindings),
    // remove_purity_checking.cc (force_pure, and call_pure_packed unwrapped to call_packed: an
    // impure call but no kill, which is what FoldConstant trips on), compute_prim_value.cc (calls
    // of a new PrimFunc), normalize.cc (normal form), canonicalize_bindings.cc (the bindings of
    // existing blocks), eliminate_common_subexpr.cc (pure bindings).
    {"LegalizeOps", 0, 0, 0, 0},
    {"AnnotateTIROpPattern", 0, 0, 0, 0},
    {"FuseTIR", 0, 0, 0, 0},
    {"DeadCodeElimination", 0, 0, 0, 0},
    {"RemovePurityChecking", 0, 0, 0, 0},
    {"AttachGlobalSymbol", 0, 0, 0, 0},
    {"ComputePrimValue", 0, 0, 0, 0},
    {"Normalize", 0, 0, 0, 0},
    {"CanonicalizeBindings", 0, 0, 0, 0},
    {"EliminateCommonSubexpr", 0, 0, 0, 0},
    {"PrintIR", 0, 0, 0, 0},  // python/tvm/ir/transform.py PrintIR: prints, changes nothing
};

struct PropertyText {
  PassProperty property;
  const char* broken;
  const char* needed;
  bool move_fixes = true;  // whether moving the pass before the breaker is a fix
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
    // Moving LowerRuntimeBuiltin before CallTIRRewrite would leave the allocations it lowers
    // unlowered: the fix is LowerAllocTensor in between, which the message names.
    {kNoBuiltinAllocTensors, "emits R.builtin.alloc_tensor for the outputs of call_tir",
     "throws on any R.builtin.alloc_tensor left (\"This operation should have been lowered earlier "
     "using the 'relax.transform.LowerAllocTensor' pass\"): run LowerAllocTensor between them",
     false},
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

bool PropertyMoveFixes(PassProperty property) {
  for (const PropertyText& t : kTexts) {
    if (t.property == property) return t.move_fixes;
  }
  return true;
}

const char* PropertyNeededText(PassProperty property) {
  for (const PropertyText& t : kTexts) {
    if (t.property == property) return t.needed;
  }
  return "";
}

}  // namespace tvmls::vocab
