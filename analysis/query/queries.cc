#include "query/queries.h"

#include <algorithm>

#include "query/query_internal.h"

namespace tvmls::analysis {

namespace query_internal {

const FunctionRef* FunctionAt(const FileModel& model, uint32_t offset, const ModuleModel** module) {
  *module = nullptr;
  for (const ModuleModel& m : model.modules) {
    for (const FunctionRef& f : m.functions) {
      TextRange r = Absolute(f, f.fn->range);
      if (r.begin <= offset && offset <= r.end) {
        *module = &m;
        return &f;
      }
    }
  }
  for (const FunctionRef& f : model.standalone) {
    TextRange r = Absolute(f, f.fn->range);
    if (r.begin <= offset && offset <= r.end) return &f;
  }
  return nullptr;
}

const Symbol* SymbolAt(const FunctionModel& fn, uint32_t rel, TextRange* where) {
  for (const Symbol& s : fn.symbols) {
    if (Hit(s.definition, rel)) {
      *where = s.definition;
      return &s;
    }
    for (TextRange r : s.references) {
      if (Hit(r, rel)) {
        *where = r;
        return &s;
      }
    }
  }
  return nullptr;
}

const std::pair<std::string, TextRange>* CallAt(const FunctionModel& fn, uint32_t rel) {
  for (const auto& c : fn.calls) {
    if (Hit(c.second, rel)) return &c;
  }
  return nullptr;
}

const FunctionRef* FindFunction(const ModuleModel* module, const std::string& name) {
  if (module == nullptr) return nullptr;
  for (const FunctionRef& f : module->functions) {
    if (f.fn->name == name) return &f;
  }
  return nullptr;
}

}  // namespace query_internal

std::vector<std::pair<uint32_t, const InlayHint*>> InlayHintsIn(const FileModel& model, TextRange range) {
  std::vector<std::pair<uint32_t, const InlayHint*>> hints;
  auto meets = [&](TextRange r) { return r.begin <= range.end && range.begin <= r.end; };
  auto function = [&](const FunctionRef& f) {
    if (f.has_syntax_error || !meets(Absolute(f, f.fn->range))) return;
    for (const InlayHint& hint : f.fn->inlays) {
      uint32_t offset = f.base + hint.offset;
      if (offset >= range.begin && offset <= range.end) hints.emplace_back(offset, &hint);
    }
  };
  for (const ModuleModel& m : model.modules) {
    if (!meets(m.range)) continue;
    for (const FunctionRef& f : m.functions) function(f);
  }
  for (const FunctionRef& f : model.standalone) function(f);
  std::stable_sort(hints.begin(), hints.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  return hints;
}

namespace {

using query_internal::CallAt;
using query_internal::FindFunction;
using query_internal::FunctionAt;
using query_internal::Hit;
using query_internal::SymbolAt;

std::string FunctionDetail(const FunctionModel& fn) {
  if (fn.kind == FunctionModel::Kind::kPrim) {
    return "T.prim_func " + fn.name + PrimSignatureText(fn.prim);
  }
  std::string s = std::string("R.function") + (fn.relax.pure ? "" : "(pure=False)") + " " + fn.name + "(";
  for (size_t i = 0; i < fn.relax.params.size(); ++i) {
    s += (i ? ", " : "") + fn.relax.param_names[i];
    std::string t = types::Print(fn.relax.params[i]);
    if (!t.empty()) s += ": " + t;
  }
  s += ")";
  std::string r = types::Print(fn.relax.ret);
  if (!r.empty()) s += " -> " + r;
  return s;
}

}  // namespace

std::optional<Hover> HoverAt(const FileModel& model, uint32_t offset) {
  const ModuleModel* module = nullptr;
  const FunctionRef* f = FunctionAt(model, offset, &module);
  if (f == nullptr) return std::nullopt;
  uint32_t rel = offset - f->base;
  if (Hit(f->fn->name_range, rel)) return Hover{Absolute(*f, f->fn->name_range), FunctionDetail(*f->fn)};
  TextRange where;
  if (const Symbol* s = SymbolAt(*f->fn, rel, &where)) {
    if (!s->detail.empty()) return Hover{Absolute(*f, where), s->detail};
  }
  if (const auto* call = CallAt(*f->fn, rel)) {
    if (const FunctionRef* callee = FindFunction(module, call->first)) {
      return Hover{Absolute(*f, call->second), FunctionDetail(*callee->fn)};
    }
  }
  // The smallest hover span containing the offset.
  const HoverSpan* best = nullptr;
  for (const HoverSpan& h : f->fn->hovers) {
    if (Hit(h.range, rel) && (best == nullptr || h.range.size() < best->range.size())) best = &h;
  }
  if (best != nullptr) return Hover{Absolute(*f, best->range), best->text, best->doc};
  return std::nullopt;
}

std::vector<TextRange> DefinitionAt(const FileModel& model, uint32_t offset) {
  const ModuleModel* module = nullptr;
  const FunctionRef* f = FunctionAt(model, offset, &module);
  if (f == nullptr) return {};
  uint32_t rel = offset - f->base;
  TextRange where;
  if (const Symbol* s = SymbolAt(*f->fn, rel, &where)) return {Absolute(*f, s->definition)};
  if (const auto* call = CallAt(*f->fn, rel)) {
    if (const FunctionRef* callee = FindFunction(module, call->first)) {
      return {Absolute(*callee, callee->fn->name_range)};
    }
  }
  if (Hit(f->fn->name_range, rel)) return {Absolute(*f, f->fn->name_range)};
  return {};
}

std::vector<TextRange> ReferencesAt(const FileModel& model, uint32_t offset, bool include_definition) {
  const ModuleModel* module = nullptr;
  const FunctionRef* f = FunctionAt(model, offset, &module);
  if (f == nullptr) return {};
  uint32_t rel = offset - f->base;
  std::vector<TextRange> out;
  TextRange where;
  if (const Symbol* s = SymbolAt(*f->fn, rel, &where)) {
    if (include_definition) out.push_back(Absolute(*f, s->definition));
    for (TextRange r : s->references) out.push_back(Absolute(*f, r));
    return out;
  }
  std::string name;
  if (const auto* call = CallAt(*f->fn, rel)) name = call->first;
  else if (Hit(f->fn->name_range, rel)) name = f->fn->name;
  if (name.empty()) return {};
  if (include_definition) {
    if (const FunctionRef* callee = FindFunction(module, name)) {
      out.push_back(Absolute(*callee, callee->fn->name_range));
    } else if (module == nullptr && f->fn->name == name) {
      out.push_back(Absolute(*f, f->fn->name_range));
    }
  }
  if (module != nullptr) {
    for (const FunctionRef& g : module->functions) {
      for (const auto& c : g.fn->calls) {
        if (c.first == name) out.push_back(Absolute(g, c.second));
      }
    }
  }
  std::sort(out.begin() + (include_definition && !out.empty() ? 1 : 0), out.end(),
            [](TextRange a, TextRange b) { return a.begin < b.begin; });
  return out;
}

std::vector<OutlineItem> Outline(const FileModel& model) {
  std::vector<OutlineItem> out;
  auto item = [](const FunctionRef& f) {
    OutlineItem i;
    i.kind = f.fn->kind == FunctionModel::Kind::kPrim ? OutlineItem::Kind::kPrimFunction
                                                      : OutlineItem::Kind::kRelaxFunction;
    i.name = f.fn->name;
    i.detail = FunctionDetail(*f.fn);
    i.range = Absolute(f, f.fn->range);
    i.selection = Absolute(f, f.fn->name_range);
    for (const DataflowBlock& b : f.fn->dataflow_blocks) {
      OutlineItem block;
      block.kind = OutlineItem::Kind::kDataflowBlock;
      block.name = "R.dataflow";
      block.range = Absolute(f, b.range);
      block.selection = Absolute(f, b.header);
      i.children.push_back(std::move(block));
    }
    return i;
  };
  for (const ModuleModel& m : model.modules) {
    OutlineItem mi;
    mi.kind = OutlineItem::Kind::kModule;
    mi.name = m.name;
    mi.range = m.range;
    mi.selection = m.name_range;
    for (const FunctionRef& f : m.functions) mi.children.push_back(item(f));
    out.push_back(std::move(mi));
  }
  for (const FunctionRef& f : model.standalone) out.push_back(item(f));
  std::sort(out.begin(), out.end(), [](const OutlineItem& a, const OutlineItem& b) {
    return a.range.begin < b.range.begin;
  });
  return out;
}

}  // namespace tvmls::analysis
