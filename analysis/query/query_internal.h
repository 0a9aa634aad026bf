// Lookups shared by the editor queries (queries.cc, navigation.cc): which function, symbol or
// `cls.f` reference is at an offset. Not part of the query interface.
#ifndef TVMLS_ANALYSIS_QUERY_QUERY_INTERNAL_H_
#define TVMLS_ANALYSIS_QUERY_QUERY_INTERNAL_H_

#include <cstdint>
#include <string>
#include <utility>

#include "model/model.h"
#include "text/text_range.h"

namespace tvmls::analysis::query_internal {

/// `offset` is inside `r` or at its end (the cursor right after a name counts); never for an
/// empty range.
inline bool Hit(TextRange r, uint32_t offset) {
  return r.begin <= offset && offset <= r.end && !r.empty();
}

/// The function whose definition contains `offset` (absolute), and its module (null when
/// standalone). Null when the offset is in no function.
const FunctionRef* FunctionAt(const FileModel& model, uint32_t offset, const ModuleModel** module);

/// The symbol with a definition or reference at `rel` (relative to the function), and that
/// occurrence's range in `*where`. The first in the function's symbol order when several are.
const Symbol* SymbolAt(const FunctionModel& fn, uint32_t rel, TextRange* where);

/// The module function referenced by a `cls.f` at `rel`: (name, relative range of `cls.f`).
const std::pair<std::string, TextRange>* CallAt(const FunctionModel& fn, uint32_t rel);

/// The function `name` of `module`; null when `module` is null or has none.
const FunctionRef* FindFunction(const ModuleModel* module, const std::string& name);

}  // namespace tvmls::analysis::query_internal

#endif  // TVMLS_ANALYSIS_QUERY_QUERY_INTERNAL_H_
