// call-tir-mismatch: a call into a PrimFunc whose arguments contradict its buffers (TVM bug 3: a
// (1, 64, 56, 56) tensor passed to a buffer declared (64, 64, 56, 56) passes the well-formed
// check and fails at build).
//
// Invariants:
//  - The parameters are bound as TVM lowers the call: inputs, then the outputs that take a
//    parameter, then the trailing integers (tir_vars); a different count is an error at the
//    first input without a parameter (too many) or the argument tuple (too few).
//  - Symbolic buffer dims bind on first use (trailing integers and scalar inputs first); a dim
//    is an error only when it provably differs from the bound expression (facts at the call).
//  - Per argument, the first difference only: dtype, then rank, then the first dim. A primitive
//    value (R.Prim) passed to a scalar parameter is an error when both dtypes are known and
//    differ (TVM derives the call's type from the PrimFunc's signature: "type mismatch").
//  - Related: the parameter's declaration in the callee (rebased by the analyzer). Fixes: an
//    output gets the struct info the PrimFunc implies (preferred); an input whose dims are all
//    constants gets the callee's buffer shape rewritten in the user's spelling, offered only
//    when this is the callee's only caller.
#include <map>
#include <set>

#include "check/check.h"
#include "types/struct_info.h"

namespace tvmls::analysis::check {
namespace {

std::string Quote(const std::string& s) { return "`" + s + "`"; }

class CallTirCheck : public Check {
 public:
  void OnCallTir(const CallTir& c, Sink& sink) override {
    const PrimSignature& sig = c.function->prim;
    size_t expected = c.inputs.size() + c.outputs.size() + c.tir_values.size();
    if (expected != sig.params.size()) {
      ReportCount(c, sig, sink);
      return;
    }
    Comparison cmp{c.callee, c.facts, c.print, {}};
    // Trailing integer parameters first: they may define buffer dims.
    for (size_t k = 0; k < c.tir_values.size(); ++k) {
      cmp.binding[sig.params[c.inputs.size() + c.outputs.size() + k].name] = c.tir_values[k];
    }
    // Scalar inputs (current era: primitive values in the argument tuple) bind next.
    for (size_t i = 0; i < c.inputs.size(); ++i) {
      const PrimSignature::Param& p = sig.params[i];
      if (p.kind == PrimSignature::Param::Kind::kScalar && c.inputs[i].scalar) cmp.binding[p.name] = *c.inputs[i].scalar;
    }
    for (size_t i = 0; i < c.inputs.size(); ++i) {
      const PrimSignature::Param& p = sig.params[i];
      if (p.kind == PrimSignature::Param::Kind::kScalar) {
        ComparePrim(c, i, p, sink);
        continue;
      }
      if (p.buffer < 0) continue;
      Compare(&cmp, c.inputs[i], sig.buffers[p.buffer], "argument " + std::to_string(i), p.name, false, sink);
    }
    for (size_t j = 0; j < c.outputs.size(); ++j) {
      const PrimSignature::Param& p = sig.params[c.inputs.size() + j];
      if (p.buffer < 0) continue;
      Compare(&cmp, c.outputs[j], sig.buffers[p.buffer], "output " + std::to_string(j), p.name, true, sink);
    }
  }

  void OnPrimFuncCall(const PrimFuncCall& c, Sink& sink) override {
    const PrimSignature& sig = c.function->prim;
    Comparison cmp{c.callee, c.facts, c.print, {}};
    for (size_t i = 0; i < c.arguments.size() && i < sig.params.size(); ++i) {
      const PrimSignature::Param& p = sig.params[i];
      if (p.buffer < 0) continue;
      Compare(&cmp, c.arguments[i], sig.buffers[p.buffer], "argument " + std::to_string(i), p.name, false, sink);
    }
  }

 private:
  // One call's comparison state: symbolic buffer dims bound so far.
  struct Comparison {
    std::string callee;
    const arith::Facts* facts;
    types::PrintOptions print;
    std::map<std::string, arith::Expr> binding;
  };

  static void ReportCount(const CallTir& c, const PrimSignature& sig, Sink& sink) {
    size_t n_in = c.inputs.size(), n_out = c.outputs.size(), n_tir = c.tir_values.size();
    TextRange at = c.arguments_range.empty() ? c.callee_range : c.arguments_range;
    size_t room = sig.params.size() >= n_out + n_tir ? sig.params.size() - n_out - n_tir : 0;
    if (n_in + n_out + n_tir > sig.params.size() && room < n_in) at = c.inputs[room].range;
    sink.Add(at, Severity::kError, "call-tir-mismatch",
             "R.call_tir passes " + std::to_string(n_in) + " input" + (n_in == 1 ? "" : "s") + ", " +
                 std::to_string(n_out) + " output" + (n_out == 1 ? "" : "s") +
                 (n_tir ? " and " + std::to_string(n_tir) + " trailing integer" + (n_tir == 1 ? "" : "s") : "") +
                 " but PrimFunc " + Quote(c.callee) + " takes " + std::to_string(sig.params.size()) +
                 " parameter" + (sig.params.size() == 1 ? "" : "s"));
    sink.AddRelatedInCallee(c.callee, c.function->name_range, "PrimFunc " + Quote(c.callee) + " declared here");
  }

  // A primitive value passed to a scalar parameter of another dtype (TVM: "Argument i type
  // mismatch", from deriving the call's return type against the PrimFunc's signature).
  static void ComparePrim(const CallTir& c, size_t i, const PrimSignature::Param& p, Sink& sink) {
    const types::StructInfo& arg = c.inputs[i].info;
    if (arg.kind != types::Kind::kPrim || arg.dtype.empty() || p.dtype.empty() || arg.dtype == p.dtype) return;
    sink.Add(c.inputs[i].range, Severity::kError, "call-tir-mismatch",
             "argument " + std::to_string(i) + " of R.call_tir is a primitive value of dtype " + arg.dtype +
                 " but PrimFunc " + Quote(c.callee) + " parameter " + Quote(p.name) + " is T." + p.dtype);
    sink.AddRelatedInCallee(c.callee, p.name_range, Quote(p.name) + " declared as T." + p.dtype);
  }

  // Compares one argument with the buffer of its parameter; reports the first difference.
  static void Compare(Comparison* cmp, const PrimArgument& arg_at, const BufferDecl& b, const std::string& what,
                      const std::string& param, bool is_output, Sink& sink) {
    const types::StructInfo& arg = arg_at.info;
    if (!arg.IsTensor()) return;
    std::string expected_text = "T.Buffer(" + (b.shape ? types::PrintShape(*b.shape) : "?") + ", \"" + b.dtype + "\")";
    auto fail = [&](const std::string& detail, TextRange related_range) {
      sink.Add(arg_at.range, Severity::kError, "call-tir-mismatch",
               what + " of R.call_tir has " + detail + " but PrimFunc " + Quote(cmp->callee) + " parameter " +
                   Quote(param) + " expects " + expected_text);
      sink.AddRelatedInCallee(cmp->callee, related_range, Quote(param) + " declared as " + expected_text);
      if (is_output) OutputFix(*cmp, arg_at.range, b, sink);
    };
    if (!b.dtype.empty() && !arg.dtype.empty() && b.dtype != arg.dtype) {
      fail("dtype " + arg.dtype, b.decl_range);
      return;
    }
    if (!b.shape) return;
    int rank = static_cast<int>(b.shape->size());
    if (arg.ndim >= 0 && arg.ndim != rank) {
      fail("rank " + std::to_string(arg.ndim) + " (" + types::Print(arg, cmp->print) + ")",
           b.shape_range.empty() ? b.decl_range : b.shape_range);
      return;
    }
    if (!arg.values) return;
    arith::Facts none;
    const arith::Facts& facts = cmp->facts ? *cmp->facts : none;
    for (int k = 0; k < rank; ++k) {
      const arith::Expr& bd = (*b.shape)[k];
      const arith::Expr& ad = (*arg.values)[k];
      if (auto var = bd.AsVar(); var && !cmp->binding.count(*var)) {
        cmp->binding[*var] = ad;
        continue;
      }
      std::set<std::string> vars;
      bd.CollectVars(&vars);
      bool all_bound = true;
      for (const std::string& v : vars) all_bound = all_bound && cmp->binding.count(v);
      if (!all_bound) continue;
      arith::Expr expect = bd.Substitute(cmp->binding);
      if (facts.ProveEqual(ad, expect) != arith::Tri::kDisproved) continue;
      TextRange dim_range = k < static_cast<int>(b.dim_ranges.size()) ? b.dim_ranges[k] : b.shape_range;
      fail("shape " + types::PrintShape(*arg.values) + " (dim " + std::to_string(k) + " is " + ad.ToString() +
               ", expected " + expect.ToString() + ")",
           dim_range.empty() ? b.decl_range : dim_range);
      if (!is_output) BufferShapeFix(cmp->callee, b, arg, sink);
      return;
    }
  }

  // An output annotation that contradicts the PrimFunc: write what the PrimFunc implies.
  static void OutputFix(const Comparison& cmp, TextRange at, const BufferDecl& b, Sink& sink) {
    if (!b.shape || b.dtype.empty()) return;
    std::vector<arith::Expr> derived;
    for (const arith::Expr& e : *b.shape) {
      std::set<std::string> vars;
      e.CollectVars(&vars);
      for (const std::string& v : vars) {
        if (!cmp.binding.count(v)) return;
      }
      derived.push_back(e.Substitute(cmp.binding));
    }
    if (types::HasOpaque(derived)) return;
    std::string text = types::Print(types::StructInfo::Tensor(derived, b.dtype), cmp.print);
    Fix f;
    f.title = "Change the output struct info to " + text;
    f.preferred = true;
    f.edits.push_back({at, text});
    sink.At(sink.size() - 1).fixes.push_back(std::move(f));
  }

  // An input that contradicts the callee's buffer: rewrite the buffer's shape in the callee.
  static void BufferShapeFix(const std::string& callee, const BufferDecl& b, const types::StructInfo& arg,
                             Sink& sink) {
    if (!arg.values || b.shape_range.empty() || types::HasOpaque(*arg.values)) return;
    for (const arith::Expr& e : *arg.values) {
      if (!e.AsConst()) return;  // symbolic dims would need declarations in the PrimFunc
    }
    Fix f;
    const std::vector<arith::Expr>& want = *arg.values;
    bool per_dim = b.shape && b.shape->size() == want.size() && b.dim_ranges.size() == want.size() &&
                   b.dim_spellings.size() == want.size();
    if (per_dim) {
      // Only the dims that differ change, each spelled as the user spelled it (`T.int64(64)`
      // becomes `T.int64(1)`, `64` becomes `1`).
      std::string shown = "(";
      for (size_t i = 0; i < want.size(); ++i) {
        const std::string& spelling = b.dim_spellings[i];
        std::string value = want[i].ToString();
        size_t hole = spelling.find("{}");
        std::string spelled =
            hole == std::string::npos ? value : spelling.substr(0, hole) + value + spelling.substr(hole + 2);
        shown += (i ? ", " : "") + spelled;
        if (!((*b.shape)[i] == want[i])) f.edits.push_back({b.dim_ranges[i], spelled});
      }
      shown += want.size() == 1 ? ",)" : ")";
      if (f.edits.empty()) return;
      f.title = "Change the shape of " + Quote(b.name) + " in " + Quote(callee) + " to " + shown;
    } else {
      f.title = "Change the shape of " + Quote(b.name) + " in " + Quote(callee) + " to " + types::PrintShape(want);
      f.edits.push_back({b.shape_range, types::PrintShape(want)});
    }
    sink.AddFixInCallee(callee, std::move(f));
  }
};

}  // namespace

std::unique_ptr<Check> MakeCallTirCheck() { return std::make_unique<CallTirCheck>(); }

}  // namespace tvmls::analysis::check
