// Editor queries over the semantic model, in byte offsets: hover text, definition, references,
// outline. The server converts to LSP positions; nothing here knows LSP.
#ifndef TVMLS_ANALYSIS_QUERY_QUERIES_H_
#define TVMLS_ANALYSIS_QUERY_QUERIES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/model.h"
#include "text/text_range.h"

namespace tvmls::analysis {

struct Hover {
  TextRange range;   // the token the hover is about
  std::string text;  // printer syntax: struct info, buffer declaration, op signature
  std::string doc;   // prose below it (markdown): an operator's doc, what a dtype or dim is
};

/// Struct info of the variable, parameter, call result, buffer or op at `offset`.
std::optional<Hover> HoverAt(const FileModel& model, uint32_t offset);

/// Where the name at `offset` is defined: a Relax variable or parameter, a symbolic variable, a
/// TIR buffer, or the function a `cls.f` refers to. Empty when nothing is known.
std::vector<TextRange> DefinitionAt(const FileModel& model, uint32_t offset);

/// Every occurrence of the name at `offset` (the definition first when `include_definition`).
/// For a function name (at its definition or at any `cls.f`), every `cls.f` of its module.
std::vector<TextRange> ReferencesAt(const FileModel& model, uint32_t offset, bool include_definition);

/// The inlay hints of the functions without syntax errors at absolute offsets in [range.begin,
/// range.end], with those offsets, in text order. Reads only the modules and functions whose
/// definitions meet the range, and only their hints: O(modules + functions + hints read), never
/// the whole file's hints.
std::vector<std::pair<uint32_t, const InlayHint*>> InlayHintsIn(const FileModel& model, TextRange range);

struct OutlineItem {
  enum class Kind { kModule, kRelaxFunction, kPrimFunction, kDataflowBlock };
  Kind kind = Kind::kModule;
  std::string name;         // "R.dataflow" for a dataflow block
  std::string detail;       // the function's signature, "" for modules and dataflow blocks
  TextRange range;          // whole definition (the whole `with` statement of a dataflow block)
  TextRange selection;      // the name (a dataflow block's `with R.dataflow():` header)
  std::vector<OutlineItem> children;
};

/// Modules with their functions, then standalone functions, in document order. A Relax
/// function's children are its dataflow blocks, in document order; PrimFuncs have none.
std::vector<OutlineItem> Outline(const FileModel& model);

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_QUERY_QUERIES_H_
