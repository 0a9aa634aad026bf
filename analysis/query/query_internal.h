// Lookups shared by the editor queries (queries.cc, navigation.cc, completion.cc,
// semantic_tokens.cc): which function, symbol or `cls.f` reference is at an offset, and the
// lexical helpers of the queries that read the text. Not part of the query interface.
#ifndef TVMLS_ANALYSIS_QUERY_QUERY_INTERNAL_H_
#define TVMLS_ANALYSIS_QUERY_QUERY_INTERNAL_H_

#include <cstdint>
#include <string>
#include <string_view>
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

// ---- Text

/// A character of a Python identifier (non-ASCII bytes count: identifiers may be Unicode).
inline bool IsIdentChar(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || c == '_' ||
         u >= 0x80;
}

/// A Python keyword (`None`, `True`, `False` included).
bool IsPythonKeyword(std::string_view word);

/// The start of the nearest line at or before `offset` that begins a definition (`def`,
/// `async def`, `class`, a decorator), within 4,000 lines: outside brackets and strings in any
/// sane file, so a lexical scan can start there. Otherwise the line 4,000 lines back, or 0.
uint32_t ScanStart(std::string_view text, uint32_t offset);

}  // namespace tvmls::analysis::query_internal

#endif  // TVMLS_ANALYSIS_QUERY_QUERY_INTERNAL_H_
