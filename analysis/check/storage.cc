// storage-overflow / storage-may-overflow: a tensor view made with `alloc_tensor` needs
// offset + prod(shape) * sizeof(dtype) bytes of the storage it lives in (TVM bug 1: a fixed-size
// storage backing a tensor whose size depends on a symbolic dim overflows silently until the
// pooled allocator's 4 KiB page runs out).
//
// Invariants:
//  - The storage's bytes follow the runtime (StorageBytes below); when they or the need are not
//    known, silence.
//  - Proved too small: error. Not provable either way: warning, with the precondition it needs.
//    Proved large enough (facts: non-negative shape vars, tir_var_upper_bound, R.assert_op, the
//    assumed upper bound setting): silent.
//  - Fixes: size the storage from the tensor (preferred, only when the storage backs exactly one
//    tensor and is an R.memory storage); assert the precondition before the allocation (for a
//    warning).
#include <map>
#include <set>

#include "check/check.h"
#include "types/struct_info.h"
#include "vocab/dtype.h"

namespace tvmls::analysis::check {
namespace {

// The bytes a storage allocation provides, as the runtime computes them, or nullopt when
// unknown. R.memory.alloc_storage(size, index, scope, dtype): `size` is bytes in scope "global"
// (lowering to R.vm.alloc_storage replaces the dtype by uint8), elements of `dtype` in scope
// "ipc_memory" (LowerGPUIPCAllocStorage passes shape and dtype to the IPC allocator); other
// scopes (textures) size storage their own way: unknown. R.vm.alloc_storage(shape, index, dtype,
// scope): prod(shape) * sizeof(dtype) (Allocator::Alloc).
std::optional<arith::Expr> StorageBytes(const StorageAlloc& s) {
  if (!s.size) return std::nullopt;
  if (s.scope_given && !s.scope) return std::nullopt;  // not a literal
  bool elements = !s.memory_op;
  if (s.memory_op && s.scope && *s.scope == "ipc_memory") {
    elements = true;
  } else if (s.scope && !s.scope->empty() && *s.scope != "global") {
    return std::nullopt;
  }
  if (!elements) return s.size;
  if (s.dtype_given && !s.dtype) return std::nullopt;
  std::optional<int64_t> width = s.dtype ? vocab::DTypeBytes(*s.dtype) : std::optional<int64_t>(1);
  if (!width) return std::nullopt;
  return *s.size * arith::Expr(*width);
}

// "; this only holds for m <= 4" when `need` is linear in one variable and `have` constant.
std::string LimitNote(const arith::Expr& need, const arith::Expr& have) {
  std::set<std::string> vars;
  need.CollectVars(&vars);
  if (vars.size() != 1 || !have.AsConst()) return "";
  const std::string& var = *vars.begin();
  arith::Expr at0 = need.Substitute({{var, arith::Expr(0)}});
  arith::Expr slope = need.Substitute({{var, arith::Expr(1)}}) - at0;
  if (!at0.AsConst() || !slope.AsConst() || *slope.AsConst() <= 0 ||
      need != at0 + arith::Expr::Var(var) * slope) {
    return "";
  }
  int64_t limit = *have.AsConst() - *at0.AsConst();
  limit = limit < 0 ? -1 : limit / *slope.AsConst();
  return "; this only holds for " + var + " <= " + std::to_string(limit);
}

class StorageCheck : public Check {
 public:
  void OnTensorView(const TensorView& v, Sink& sink) override {
    if (v.storage == nullptr) return;
    auto it = storages_.find(v.storage->id);
    if (it == storages_.end()) {
      const StorageAlloc& s = *v.storage;
      it = storages_.emplace(s.id, Storage{s.name, s.size_range, s.memory_op, StorageBytes(s), 0}).first;
    }
    Storage& storage = it->second;
    ++storage.tensors;
    if (!storage.bytes || !v.offset || !v.elements || !v.dtype) return;
    std::optional<int64_t> width = vocab::DTypeBytes(*v.dtype);
    if (!width) return;
    arith::Expr need = *v.offset + *v.elements * arith::Expr(*width);
    const arith::Expr& have = *storage.bytes;
    arith::Facts facts = v.facts ? *v.facts : arith::Facts();
    if (v.assumed_upper_bound > 0) {
      std::set<std::string> vars;
      need.CollectVars(&vars);
      for (const std::string& var : vars) {
        if (!facts.RangeOf(var).hi) facts.AddRange(var, {0, v.assumed_upper_bound});
      }
    }
    arith::Tri fits = facts.ProveLessEqual(need, have);
    if (fits == arith::Tri::kProved) return;
    std::string sname = storage.name.empty() ? "the storage" : "storage `" + storage.name + "`";
    std::string need_text = need.ToString();
    std::string msg = "tensor needs " + need_text + " bytes but " + sname + " was allocated with " +
                      have.ToString() + " bytes";
    bool proved = fits == arith::Tri::kDisproved;
    if (!proved) {
      msg += LimitNote(need, have) +
             ". The VM's pooled allocator rounds storage up to 4096-byte pages, so an overflow "
             "is silent until the tensor needs more than the rounded size, and then fails with "
             "'storage allocation failure'";
    }
    Diagnostic& d = sink.Add(v.shape_range, proved ? Severity::kError : Severity::kWarning,
                             proved ? "storage-overflow" : "storage-may-overflow", msg);
    d.related.push_back({storage.size_range, sname + " allocated here with " + have.ToString() + " bytes"});
    // Fix 1 (when this storage backs one tensor, known at the end): size the storage from the need.
    pending_.push_back({sink.size() - 1, it->first, need});
    // Fix 2: assert the precondition before the allocation.
    if (!proved && v.assert_at) {
      Fix f;
      f.title = "Assert " + need_text + " <= " + have.ToString() + " before the allocation";
      f.edits.push_back({TextRange{*v.assert_at, *v.assert_at},
                         v.assert_indent + "R.assert_op(" + need_text + " <= " + have.ToString() +
                             ", format=\"input too large for preallocated storage\")\n"});
      if (v.impure_edit) f.edits.push_back(*v.impure_edit);
      d.fixes.push_back(std::move(f));
    }
  }

  void OnFunctionEnd(Sink& sink) override {
    for (const Pending& p : pending_) {
      const Storage& s = storages_[p.storage];
      if (s.tensors != 1 || !s.memory_op) continue;
      Diagnostic& d = sink.At(p.diagnostic);
      Fix f;
      f.title = "Allocate the storage from the tensor's size: R.shape([" + p.need.ToString() + "])";
      f.preferred = true;
      f.edits.push_back({s.size_range, "R.shape([" + p.need.ToString() + "])"});
      d.fixes.insert(d.fixes.begin(), std::move(f));
      for (size_t i = 1; i < d.fixes.size(); ++i) d.fixes[i].preferred = false;
    }
  }

 private:
  struct Storage {
    std::string name;
    TextRange size_range;
    bool memory_op = true;
    std::optional<arith::Expr> bytes;
    int tensors = 0;  // views made on it
  };
  struct Pending {
    size_t diagnostic = 0;
    int storage = -1;
    arith::Expr need;
  };
  std::map<int, Storage> storages_;
  std::vector<Pending> pending_;
};

}  // namespace

std::unique_ptr<Check> MakeStorageCheck() { return std::make_unique<StorageCheck>(); }

}  // namespace tvmls::analysis::check
