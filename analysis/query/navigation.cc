#include "query/navigation.h"

#include <algorithm>
#include <cstring>
#include <string_view>

#include "model/syntax_util.h"
#include "query/query_internal.h"

namespace tvmls::analysis {

namespace {

using query_internal::CallAt;
using query_internal::FindFunction;
using query_internal::FunctionAt;
using query_internal::Hit;
using query_internal::IsIdentChar;
using query_internal::IsPythonKeyword;
using query_internal::SymbolAt;

// ---------------------------------------------------------------------------------------------
// Text and tree helpers

std::string_view Slice(std::string_view text, TextRange r) {
  if (r.begin > r.end || r.end > text.size()) return {};
  return text.substr(r.begin, r.size());
}

std::string Quote(std::string_view s) { return "`" + std::string(s) + "`"; }

// Every identifier of the subtree that names something: not the `f` of `x.f`, not the name of a
// keyword argument, nothing inside strings.
template <typename Use>
void ForEachName(TSNode root, Use&& use) {
  ForEachNode(root, [&](TSNode n) {
    if (Is(n, "attribute")) {
      ForEachName(Field(n, "object"), use);
      return false;
    }
    if (Is(n, "keyword_argument")) {
      ForEachName(Field(n, "value"), use);
      return false;
    }
    if (Is(n, "identifier")) {
      use(n);
      return false;
    }
    return !Is(n, "string");
  });
}

bool IsIdentifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// What an alias of the file stands for, or nullptr when `name` is none.
const char* AliasOf(const Aliases& a, const std::string& name) {
  const std::pair<const std::set<std::string>*, const char*> kinds[] = {
      {&a.relax, "tvm.script.relax"},
      {&a.tir, "tvm.script.tir"},
      {&a.ir, "tvm.script.ir"},
      {&a.tvm, "the tvm package"}};
  for (const auto& [set, what] : kinds) {
    if (set->count(name)) return what;
  }
  return nullptr;
}

const char* KindName(Symbol::Kind k) {
  switch (k) {
    case Symbol::Kind::kRelaxVar: return "a Relax variable";
    case Symbol::Kind::kRelaxParam: return "a parameter";
    case Symbol::Kind::kSymbolicVar: return "a symbolic variable";
    case Symbol::Kind::kBuffer: return "a buffer";
    case Symbol::Kind::kTirVar: return "a parameter";
    case Symbol::Kind::kFunction: return "a function";
  }
  return "a name";
}

// The leaf token the cursor is on: the one at `offset` when it is a word (name, keyword,
// number), else a word ending at `offset`, else whatever leaf is at `offset`. Null when none.
TSNode LeafAt(const Document& doc, uint32_t offset) {
  TSNode root = doc.Root();
  if (ts_node_is_null(root)) return TSNode{};
  const std::string& text = doc.Text();
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text.size()));
  auto leaf = [&](uint32_t at) -> TSNode {
    TSNode n = ts_node_descendant_for_byte_range(root, at, at);
    if (ts_node_is_null(n) || ts_node_child_count(n) != 0) return TSNode{};
    if (ts_node_start_byte(n) > at || ts_node_end_byte(n) <= at) return TSNode{};
    return n;
  };
  if (offset < text.size() && IsIdentChar(text[offset])) {
    TSNode n = leaf(offset);
    if (!ts_node_is_null(n)) return n;
  }
  if (offset > 0 && IsIdentChar(text[offset - 1])) {
    TSNode n = leaf(offset - 1);
    if (!ts_node_is_null(n)) return n;
  }
  return offset < text.size() ? leaf(offset) : TSNode{};
}

// The syntax node of a function of the model (its decorated definition); null when the tree no
// longer has a node of exactly that extent (the model is of another version of the text).
TSNode FunctionNode(const Document& doc, const FunctionRef& f) {
  TextRange r = Absolute(f, f.fn->range);
  if (r.end > doc.Text().size()) return TSNode{};
  TSNode n = ts_node_descendant_for_byte_range(doc.Root(), r.begin, r.end);
  return !ts_node_is_null(n) && RangeOf(n) == r ? n : TSNode{};
}

// ---------------------------------------------------------------------------------------------
// What is at an offset, in the model

// The `f` of a `cls.f` reference (an attribute ends with its attribute name).
TextRange CallName(TextRange ref, const std::string& name) {
  uint32_t n = static_cast<uint32_t>(name.size());
  return ref.size() < n ? ref : TextRange{ref.end - n, ref.end};
}

struct Target {
  enum class Kind { kNone, kSymbol, kFunction };
  Kind kind = Kind::kNone;
  const FunctionRef* f = nullptr;        // the function the offset is in
  const ModuleModel* module = nullptr;   // its module, null when standalone
  const Symbol* symbol = nullptr;        // kSymbol
  std::string function;                  // kFunction: the function's name
  const FunctionRef* callee = nullptr;   // kFunction: its definition (null if unknown)
  TextRange where;                       // absolute: the occurrence's name
};

Target TargetAt(const FileModel& model, uint32_t offset) {
  Target t;
  t.f = FunctionAt(model, offset, &t.module);
  if (t.f == nullptr) return t;
  const FunctionModel& fn = *t.f->fn;
  uint32_t rel = offset - t.f->base;
  TextRange where;
  if (const Symbol* s = SymbolAt(fn, rel, &where)) {
    t.kind = Target::Kind::kSymbol;
    t.symbol = s;
    t.where = Absolute(*t.f, where);
    return t;
  }
  if (const auto* call = CallAt(fn, rel)) {
    TextRange name = CallName(call->second, call->first);
    if (Hit(name, rel)) {  // on the `f` of `cls.f`, not on `cls`
      t.kind = Target::Kind::kFunction;
      t.function = call->first;
      t.callee = FindFunction(t.module, call->first);
      t.where = Absolute(*t.f, name);
    }
    return t;
  }
  if (Hit(fn.name_range, rel)) {
    t.kind = Target::Kind::kFunction;
    t.function = fn.name;
    t.callee = t.f;
    t.where = Absolute(*t.f, fn.name_range);
  }
  return t;
}

// Sorts by position and merges occurrences of the same range (a write wins).
std::vector<Highlight> Normalize(std::vector<Highlight> out) {
  std::sort(out.begin(), out.end(), [](const Highlight& a, const Highlight& b) {
    return a.range.begin != b.range.begin ? a.range.begin < b.range.begin : a.range.end < b.range.end;
  });
  std::vector<Highlight> merged;
  for (const Highlight& h : out) {
    if (!merged.empty() && merged.back().range == h.range) {
      merged.back().write = merged.back().write || h.write;
    } else {
      merged.push_back(h);
    }
  }
  return merged;
}

// Where a symbol's chain of `same_as` links ends (a name bound in both branches of an `if`).
const Symbol& Root(const FunctionModel& fn, const Symbol& s) {
  const Symbol* r = &s;
  for (size_t guard = 0; r->same_as >= 0 && static_cast<size_t>(r->same_as) < fn.symbols.size() &&
                         guard < fn.symbols.size();
       ++guard) {
    r = &fn.symbols[r->same_as];
  }
  return *r;
}

// `t` is the same variable as `s`: the same name, and defined at the same place (`n:
// R.Prim("int64")` is a Relax parameter and a symbolic variable) or joined after an `if`.
bool SameVariable(const FunctionModel& fn, const Symbol& s, const Symbol& t) {
  return t.name == s.name && Root(fn, t).definition == Root(fn, s).definition;
}

// Every occurrence of a symbol and of the symbols that are the same variable.
std::vector<Highlight> SymbolOccurrences(const FunctionRef& f, const Symbol& s) {
  std::vector<Highlight> out;
  for (const Symbol& t : f.fn->symbols) {
    if (!SameVariable(*f.fn, s, t)) continue;
    if (!t.definition.empty()) out.push_back({Absolute(f, t.definition), true});
    for (TextRange r : t.references) {
      if (!r.empty()) out.push_back({Absolute(f, r), false});
    }
  }
  return Normalize(std::move(out));
}

// A function's name at its definition and the `f` of every `cls.f` of its module.
std::vector<Highlight> FunctionOccurrences(const Target& t) {
  std::vector<Highlight> out;
  if (t.callee != nullptr) out.push_back({Absolute(*t.callee, t.callee->fn->name_range), true});
  if (t.module != nullptr) {
    for (const FunctionRef& g : t.module->functions) {
      for (const auto& c : g.fn->calls) {
        if (c.first == t.function) out.push_back({Absolute(g, CallName(c.second, c.first)), false});
      }
    }
  }
  return Normalize(std::move(out));
}

// Why the token at `offset` is not a name tvmls renames.
std::string RefusalAt(const Document& doc, const FileModel& model, uint32_t offset) {
  TSNode leaf = LeafAt(doc, offset);
  if (ts_node_is_null(leaf) || ts_node_is_missing(leaf)) return "nothing to rename here";
  std::string_view text = Slice(doc.Text(), RangeOf(leaf));
  if (Is(leaf, "comment")) return "nothing to rename in a comment";
  TSNode parent = ts_node_parent(leaf);
  if (Is(parent, "string") || Is(leaf, "string_content") || Is(leaf, "string_start") ||
      Is(leaf, "string_end")) {
    return "nothing to rename in this string (only symbolic variables of shape annotations are)";
  }
  if (IsPythonKeyword(text)) return Quote(text) + " is a Python keyword";
  if (!Is(leaf, "identifier")) return "nothing to rename here";
  std::string name(text);
  if (const char* what = AliasOf(model.aliases, name)) {
    return Quote(name) + " is this file's alias of " + what + " (set by its imports), not a name to rename";
  }
  if (Is(parent, "attribute") && ts_node_eq(Field(parent, "attribute"), leaf)) {
    TSNode top = parent;
    for (TSNode p = ts_node_parent(top); Is(p, "attribute"); p = ts_node_parent(p)) top = p;
    TSNode root = parent;
    while (Is(root, "attribute")) root = Field(root, "object");
    std::string whole(Slice(doc.Text(), RangeOf(top)));
    if (Is(root, "identifier") && AliasOf(model.aliases, std::string(Slice(doc.Text(), RangeOf(root))))) {
      return Quote(whole) + " is a TVMScript operator or builtin, not a name defined in this file";
    }
    return Quote(whole) + " is an attribute that tvmls does not track";
  }
  if (Is(parent, "keyword_argument") && ts_node_eq(Field(parent, "name"), leaf)) {
    return Quote(name) + " is the name of a keyword argument";
  }
  return Quote(name) + " is a Python name that tvmls does not track (only Relax variables, symbolic "
         "variables, TIR buffers and parameters, and module functions can be renamed)";
}

// The 1-based line of an offset, for messages.
std::string LineOf(const Document& doc, uint32_t offset) {
  return "line " + std::to_string(doc.Lines().LineOf(offset) + 1);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Highlights

std::vector<Highlight> HighlightsAt(const FileModel& model, uint32_t offset) {
  Target t = TargetAt(model, offset);
  switch (t.kind) {
    case Target::Kind::kSymbol: return SymbolOccurrences(*t.f, *t.symbol);
    case Target::Kind::kFunction: return FunctionOccurrences(t);
    case Target::Kind::kNone: break;
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// Rename

PrepareRenameResult PrepareRenameAt(const Document& doc, const FileModel& model, uint32_t offset) {
  PrepareRenameResult r;
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(doc.Text().size()));
  Target t = TargetAt(model, offset);
  if (t.kind == Target::Kind::kNone) {
    r.error = RefusalAt(doc, model, offset);
    return r;
  }
  std::string name = t.kind == Target::Kind::kSymbol ? t.symbol->name : t.function;
  if (t.kind == Target::Kind::kFunction && t.module == nullptr) {
    r.error = "function " + Quote(name) + " is not in an `@I.ir_module` class: tvmls does not know "
              "the Python code that uses it";
    return r;
  }
  if (t.kind == Target::Kind::kFunction && t.callee == nullptr) {
    r.error = "module has no function " + Quote(name);
    return r;
  }
  if (t.f->has_syntax_error || !t.f->fn->syntax_errors.empty()) {
    r.error = "function " + Quote(t.f->fn->name) + " has a syntax error; fix it before renaming";
    return r;
  }
  if (Slice(doc.Text(), t.where) != name) {
    r.error = "the text here does not spell " + Quote(name) + " (the analysis may be behind the text)";
    return r;
  }
  r.range = t.where;
  r.placeholder = name;
  return r;
}

RenameResult RenameAt(const Document& doc, const FileModel& model, uint32_t offset,
                      const std::string& new_name) {
  RenameResult result;
  PrepareRenameResult prepared = PrepareRenameAt(doc, model, offset);
  if (!prepared.ok()) {
    result.error = prepared.error;
    return result;
  }
  const std::string& old_name = prepared.placeholder;
  if (new_name == old_name) return result;
  if (!IsIdentifier(new_name)) {
    result.error = Quote(new_name) + " is not a Python identifier (ASCII letters, digits and `_`, "
                   "not starting with a digit)";
    return result;
  }
  if (IsPythonKeyword(new_name)) {
    result.error = Quote(new_name) + " is a Python keyword";
    return result;
  }
  if (const char* what = AliasOf(model.aliases, new_name)) {
    result.error = Quote(new_name) + " is this file's alias of " + what;
    return result;
  }
  Target t = TargetAt(model, std::min<uint32_t>(offset, static_cast<uint32_t>(doc.Text().size())));
  std::vector<Highlight> occurrences;
  // Functions whose text must not use the old name anywhere the model does not account for.
  std::vector<const FunctionRef*> scope;
  if (t.kind == Target::Kind::kSymbol) {
    const FunctionModel& fn = *t.f->fn;
    for (const Symbol& s : fn.symbols) {
      if (s.name == new_name) {
        result.error = Quote(new_name) + " is already " + KindName(s.kind) + " in function " +
                       Quote(fn.name);
        return result;
      }
    }
    occurrences = SymbolOccurrences(*t.f, *t.symbol);
    scope.push_back(t.f);
  } else {
    const ModuleModel& m = *t.module;
    if (FindFunction(&m, new_name) != nullptr) {
      result.error = "module " + Quote(m.name) + " already has a function " + Quote(new_name);
      return result;
    }
    if (m.extern_globals.count(new_name)) {
      result.error = "module " + Quote(m.name) + " already defines the global " + Quote(new_name);
      return result;
    }
    occurrences = FunctionOccurrences(t);
    for (const FunctionRef& g : m.functions) scope.push_back(&g);
  }
  auto is_occurrence = [&](TextRange r) {
    auto it = std::lower_bound(occurrences.begin(), occurrences.end(), r.begin,
                               [](const Highlight& h, uint32_t b) { return h.range.begin < b; });
    return it != occurrences.end() && it->range == r;
  };
  // Every use of the old name must be renamed or belong to another symbol of that name (a
  // rebinding); every use of the new name is a collision.
  for (const FunctionRef* g : scope) {
    TSNode node = FunctionNode(doc, *g);
    if (ts_node_is_null(node)) {
      result.error = "the analysis is behind the text; try again";
      return result;
    }
    std::vector<TextRange> accounted;
    if (t.kind == Target::Kind::kSymbol) {
      for (const Symbol& s : g->fn->symbols) {
        if (s.name != old_name) continue;
        accounted.push_back(Absolute(*g, s.definition));
        for (TextRange r : s.references) accounted.push_back(Absolute(*g, r));
      }
    }
    std::string problem;
    if (t.kind == Target::Kind::kSymbol) {
      TextRange own_name = Absolute(*g, g->fn->name_range);  // bound outside the function
      ForEachName(node, [&](TSNode n) {
        TextRange r = RangeOf(n);
        if (!problem.empty() || r == own_name) return;
        std::string_view text = Slice(doc.Text(), r);
        if (text == new_name) {
          problem = Quote(new_name) + " is already used in function " + Quote(g->fn->name) + " (" +
                    LineOf(doc, r.begin) + ")";
        } else if (text == old_name && !is_occurrence(r) &&
                   std::find(accounted.begin(), accounted.end(), r) == accounted.end()) {
          problem = Quote(old_name) + " is also used where tvmls does not follow it (" + LineOf(doc, r.begin) +
                    ", e.g. in a nested function); renaming only the other uses would break the code";
        }
      });
    } else {
      // `x.f` with x not an alias: a reference to the function the model did not record.
      ForEachNode(node, [&](TSNode n) {
        if (!problem.empty()) return false;
        if (!Is(n, "attribute")) return !Is(n, "string");
        TSNode attr = Field(n, "attribute"), object = Field(n, "object");
        if (Slice(doc.Text(), RangeOf(attr)) == old_name && Is(object, "identifier") &&
            AliasOf(model.aliases, std::string(Slice(doc.Text(), RangeOf(object)))) == nullptr &&
            !is_occurrence(RangeOf(attr))) {
          problem = Quote(std::string(Slice(doc.Text(), RangeOf(n)))) + " (" + LineOf(doc, ts_node_start_byte(n)) +
                    ") may refer to " + Quote(old_name) + " but tvmls does not follow it";
        }
        return true;
      });
    }
    if (!problem.empty()) {
      result.error = problem;
      return result;
    }
  }
  for (const Highlight& h : occurrences) {
    if (Slice(doc.Text(), h.range) != old_name ||
        (!result.edits.empty() && result.edits.back().range.end > h.range.begin)) {
      result.edits.clear();
      result.error = "the analysis is behind the text; try again";
      return result;
    }
    result.edits.push_back({h.range, new_name});
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Folding

namespace {

enum class FoldRole : uint8_t { kNone, kBody, kBracket, kComment, kImport };

struct FoldRule {
  const char* type;
  FoldRole role;
  const char* body_field;  // kBody: the field whose end ends the fold (its own clause only)
};

constexpr FoldRule kFoldRules[] = {
    {"class_definition", FoldRole::kBody, "body"},
    {"function_definition", FoldRole::kBody, "body"},
    {"with_statement", FoldRole::kBody, "body"},
    {"for_statement", FoldRole::kBody, "body"},
    {"while_statement", FoldRole::kBody, "body"},
    {"if_statement", FoldRole::kBody, "consequence"},
    {"elif_clause", FoldRole::kBody, "consequence"},
    {"else_clause", FoldRole::kBody, "body"},
    {"try_statement", FoldRole::kBody, "body"},
    {"except_clause", FoldRole::kBody, "body"},
    {"finally_clause", FoldRole::kBody, "body"},
    {"match_statement", FoldRole::kBody, "body"},
    {"case_clause", FoldRole::kBody, "consequence"},
    {"argument_list", FoldRole::kBracket, nullptr},
    {"parameters", FoldRole::kBracket, nullptr},
    {"list", FoldRole::kBracket, nullptr},
    {"tuple", FoldRole::kBracket, nullptr},
    {"set", FoldRole::kBracket, nullptr},
    {"dictionary", FoldRole::kBracket, nullptr},
    {"parenthesized_expression", FoldRole::kBracket, nullptr},
    {"subscript", FoldRole::kBracket, nullptr},
    {"list_comprehension", FoldRole::kBracket, nullptr},
    {"set_comprehension", FoldRole::kBracket, nullptr},
    {"dictionary_comprehension", FoldRole::kBracket, nullptr},
    {"generator_expression", FoldRole::kBracket, nullptr},
    {"string", FoldRole::kBracket, nullptr},
    {"concatenated_string", FoldRole::kBracket, nullptr},
    {"comment", FoldRole::kComment, nullptr},
    {"import_statement", FoldRole::kImport, nullptr},
    {"import_from_statement", FoldRole::kImport, nullptr},
    {"future_import_statement", FoldRole::kImport, nullptr},
};

// A run of comment lines or import statements being collected.
struct Run {
  bool active = false;
  uint32_t begin = 0, end = 0;
  uint32_t first_row = 0, last_row = 0;
  uint32_t depth = 0;  // imports: the depth of the statements
};

}  // namespace

std::vector<FoldingRange> FoldingRanges(const Document& doc) {
  std::vector<FoldingRange> out;
  const TSTree* tree = doc.Tree();
  if (tree == nullptr) return out;
  TSNode root = doc.Root();
  if (ts_node_is_null(root)) return out;
  // The rule of each grammar symbol (one table per call: a few hundred bytes).
  const TSLanguage* language = ts_tree_language(tree);
  uint32_t symbols = ts_language_symbol_count(language);
  std::vector<int8_t> rule_of(symbols, -1);
  for (uint32_t s = 0; s < symbols; ++s) {
    if (ts_language_symbol_type(language, static_cast<TSSymbol>(s)) != TSSymbolTypeRegular) continue;
    const char* name = ts_language_symbol_name(language, static_cast<TSSymbol>(s));
    for (size_t r = 0; r < std::size(kFoldRules); ++r) {
      if (std::strcmp(name, kFoldRules[r].type) == 0) rule_of[s] = static_cast<int8_t>(r);
    }
  }
  std::vector<TSFieldId> body_field(std::size(kFoldRules), 0);
  for (size_t r = 0; r < std::size(kFoldRules); ++r) {
    if (kFoldRules[r].body_field != nullptr) {
      body_field[r] = ts_language_field_id_for_name(language, kFoldRules[r].body_field,
                                                    static_cast<uint32_t>(std::strlen(kFoldRules[r].body_field)));
    }
  }

  Run comments, imports;
  uint32_t last_code_row = UINT32_MAX;  // the row of the last non-comment token seen
  uint32_t last_region_row = UINT32_MAX;
  auto flush = [&](Run* run, FoldingRange::Kind kind) {
    if (run->active && run->last_row > run->first_row) out.push_back({{run->begin, run->end}, kind});
    run->active = false;
  };

  TSTreeCursor cursor = ts_tree_cursor_new(root);
  uint32_t depth = 0;
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cursor);
    TSPoint start = ts_node_start_point(n), end = ts_node_end_point(n);
    uint32_t begin_byte = ts_node_start_byte(n), end_byte = ts_node_end_byte(n);
    TSSymbol symbol = ts_node_symbol(n);
    int rule = symbol < symbols ? rule_of[symbol] : -1;
    FoldRole role = rule >= 0 ? kFoldRules[rule].role : FoldRole::kNone;
    bool multi_line = end.row > start.row;
    bool leaf = ts_node_child_count(n) == 0;

    // Import runs: statements at one depth; anything else at that depth or above ends a run.
    if (role == FoldRole::kImport) {
      if (imports.active && imports.depth == depth) {
        imports.end = end_byte;
        imports.last_row = end.row;
      } else {
        flush(&imports, FoldingRange::Kind::kImports);
        imports = {true, begin_byte, end_byte, start.row, end.row, depth};
      }
    } else if (imports.active && depth <= imports.depth && role != FoldRole::kComment) {
      flush(&imports, FoldingRange::Kind::kImports);
    }

    // Comment runs: comments alone on consecutive lines.
    if (role == FoldRole::kComment) {
      bool alone = last_code_row != start.row;
      if (alone && comments.active && start.row == comments.last_row + 1) {
        comments.end = end_byte;
        comments.last_row = end.row;
      } else {
        flush(&comments, FoldingRange::Kind::kComment);
        if (alone) comments = {true, begin_byte, end_byte, start.row, end.row, depth};
      }
    } else if ((leaf || !multi_line) && end_byte > begin_byte) {
      last_code_row = end.row;  // a token (or a one-line node) of code
      if (comments.active && comments.last_row < end.row) flush(&comments, FoldingRange::Kind::kComment);
    }

    // Regions.
    if ((role == FoldRole::kBody || role == FoldRole::kBracket) && multi_line) {
      uint32_t fold_end = end_byte;
      uint32_t end_row = end.row;
      if (role == FoldRole::kBody && body_field[rule] != 0) {
        TSNode body = ts_node_child_by_field_id(n, body_field[rule]);
        if (!ts_node_is_null(body) && ts_node_end_byte(body) > begin_byte) {
          fold_end = ts_node_end_byte(body);
          end_row = ts_node_end_point(body).row;
        }
      }
      if (end_row > start.row && start.row != last_region_row) {
        out.push_back({{begin_byte, fold_end}, FoldingRange::Kind::kRegion});
        last_region_row = start.row;
      }
    }

    // One-line nodes hold nothing that folds: do not descend.
    if (multi_line && ts_tree_cursor_goto_first_child(&cursor)) {
      ++depth;
      continue;
    }
    bool moved = false;
    while (!(moved = ts_tree_cursor_goto_next_sibling(&cursor))) {
      if (!ts_tree_cursor_goto_parent(&cursor)) break;
      --depth;
    }
    if (!moved) break;
  }
  ts_tree_cursor_delete(&cursor);
  flush(&comments, FoldingRange::Kind::kComment);
  flush(&imports, FoldingRange::Kind::kImports);
  std::sort(out.begin(), out.end(), [](const FoldingRange& a, const FoldingRange& b) {
    return a.range.begin != b.range.begin ? a.range.begin < b.range.begin : a.range.end > b.range.end;
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Selection ranges

std::vector<TextRange> SelectionRangesAt(const Document& doc, uint32_t offset) {
  std::vector<TextRange> out;
  const std::string& text = doc.Text();
  uint32_t size = static_cast<uint32_t>(text.size());
  offset = std::min(offset, size);
  TSNode root = doc.Root();
  if (!ts_node_is_null(root)) {
    uint32_t at = offset;
    if ((at == size || !IsIdentChar(text[at])) && at > 0 && IsIdentChar(text[at - 1])) --at;
    TSNode n = ts_node_descendant_for_byte_range(root, at, at);
    bool first = true;
    while (!ts_node_is_null(n)) {
      TextRange r = RangeOf(n);
      if ((first || ts_node_is_named(n)) && !r.empty() && r.end <= size &&
          (out.empty() || (r.size() > out.back().size() && r.begin <= out.back().begin &&
                           out.back().end <= r.end))) {
        out.push_back(r);
      }
      first = false;
      n = ts_node_parent(n);
    }
  }
  TextRange all{0, size};
  if (!all.empty() && (out.empty() || all.size() > out.back().size())) out.push_back(all);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Annotate

std::optional<Fix> AnnotateAt(const FileModel& model, uint32_t offset) {
  const ModuleModel* module = nullptr;
  const FunctionRef* f = FunctionAt(model, offset, &module);
  if (f == nullptr) return std::nullopt;
  uint32_t rel = offset - f->base;
  for (const InlayHint& hint : f->fn->inlays) {
    if (!hint.insertable) continue;
    for (const Symbol& s : f->fn->symbols) {
      if (s.kind != Symbol::Kind::kRelaxVar || s.definition.end != hint.offset || !Hit(s.definition, rel)) continue;
      Fix fix;
      fix.title = "Annotate " + Quote(s.name) + " with its inferred struct info";
      uint32_t at = f->base + hint.offset;
      fix.edits.push_back({{at, at}, hint.label});
      return fix;
    }
  }
  return std::nullopt;
}

}  // namespace tvmls::analysis
