#include "query/inferred.h"

#include <algorithm>

namespace tvmls::analysis {
namespace {

void Collect(const FunctionRef& ref, const types::PrintOptions& print, std::vector<Inferred>* out) {
  const FunctionModel& fn = *ref.fn;
  if (fn.kind != FunctionModel::Kind::kRelax || ref.has_syntax_error) return;
  for (const Symbol& s : fn.symbols) {
    if (s.kind != Symbol::Kind::kRelaxParam && s.kind != Symbol::Kind::kRelaxVar) continue;
    Inferred i;
    i.kind = s.kind == Symbol::Kind::kRelaxParam ? Inferred::Kind::kParameter : Inferred::Kind::kBinding;
    i.range = Absolute(ref, s.definition);
    i.name = s.name;
    // The hover text is `name: <struct info>`, or the bare name when unknown.
    if (s.detail.size() > s.name.size() + 2) i.struct_info = s.detail.substr(s.name.size() + 2);
    out->push_back(std::move(i));
  }
  for (const FunctionModel::Returned& r : fn.returns) {
    Inferred i;
    i.kind = Inferred::Kind::kReturn;
    i.range = Absolute(ref, r.range);
    i.name = fn.name;
    if (!r.info.IsUnknown()) i.struct_info = types::Print(r.info, print);
    out->push_back(std::move(i));
  }
}

}  // namespace

std::vector<Inferred> InferredStructInfo(const FileModel& model) {
  types::PrintOptions print;
  print.current_era = model.aliases.current_era_printing();
  std::vector<Inferred> out;
  for (const ModuleModel& m : model.modules) {
    for (const FunctionRef& f : m.functions) Collect(f, print, &out);
  }
  for (const FunctionRef& f : model.standalone) Collect(f, print, &out);
  std::stable_sort(out.begin(), out.end(),
                   [](const Inferred& a, const Inferred& b) { return a.range.begin < b.range.begin; });
  return out;
}

}  // namespace tvmls::analysis
