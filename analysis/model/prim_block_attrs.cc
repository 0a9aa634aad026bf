// The annotations of each block of a PrimFunc: TVM's IR builder merges the dictionaries of the
// block's `T.block_attr({...})` (`T.sblock_attr` in the current era) calls, recursively where both
// values of a key are dictionaries, and fails when a key gets two different values (v0.23:
// src/script/ir_builder/tir/ir.cc MergeAnnotations, "Try to merge two annotations with different
// values for key"). Only literal values are compared: two strings or two integers that differ.
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "check/check.h"
#include "model/annotation.h"
#include "model/lower_internal.h"
#include "model/syntax_util.h"

namespace tvmls::analysis {

namespace {

class BlockAttrScan {
 public:
  BlockAttrScan(TSNode def, std::string_view text, const Aliases& aliases, FunctionModel* fn)
      : text_(text), aliases_(aliases), fn_(fn), base_(ts_node_start_byte(def)), def_(def) {}

  void Run() {
    ForEachNode(Field(Is(def_, "decorated_definition") ? Field(def_, "definition") : def_, "body"), [&](TSNode n) {
      if (Is(n, "with_statement") && IsBlock(n)) Block(Field(n, "body"));
      return MayHoldStatements(n);  // a block is a statement
    });
    checks.End();
  }

 private:
  // A value as far as the merge can be decided: a literal string or integer, a dictionary of
  // them, or unknown (monostate).
  struct Value;
  struct Entry {
    TSNode key;
    std::shared_ptr<const Value> value;
  };
  using Dict = std::map<std::string, Entry>;
  struct Value {
    std::variant<std::monostate, std::string, int64_t, Dict> v;
  };

  bool IsCallOf(TSNode call, std::initializer_list<const char*> names) const {
    if (!Is(call, "call")) return false;
    auto path = DottedPath(Field(call, "function"), text_);
    if (!path || path->size() != 2 || !IsAlias(aliases_.tir, *path)) return false;
    for (const char* name : names) {
      if ((*path)[1] == name) return true;
    }
    return false;
  }

  bool IsBlock(TSNode with) const {
    for (TSNode c : NamedChildren(with)) {
      if (!Is(c, "with_clause")) continue;
      for (TSNode item : NamedChildren(c)) {
        if (IsCallOf(Field(item, "value"), {"block", "sblock"})) return true;
      }
    }
    return false;
  }

  // The calls `T.block_attr(...)` that attach to this block: in its body, not in a nested block.
  void Block(TSNode body) {
    Dict merged;
    ForEachNode(body, [&](TSNode n) {
      if (Is(n, "with_statement") && IsBlock(n)) return false;
      if (IsCallOf(n, {"block_attr", "sblock_attr"})) {
        CallArgs args = ArgsOf(n, text_);
        if (!args.positional.empty()) {
          Value v = Read(Unparen(args.positional[0]));
          if (Dict* d = std::get_if<Dict>(&v.v)) Merge(*d, &merged);
        }
        return false;
      }
      return MayHoldStatements(n) || Is(n, "expression_statement");  // the calls are statements
    });
  }

  Value Read(TSNode n) const {
    Value out;
    if (auto s = StringValue(n, text_)) {
      out.v = *s;
    } else if (auto i = IntValue(n, text_); i && (Is(n, "integer") || Is(n, "unary_operator"))) {
      out.v = *i;
    } else if (Is(n, "dictionary")) {
      Dict d;
      for (TSNode pair : NamedChildren(n)) {
        if (!Is(pair, "pair")) {
          if (!Is(pair, "comment")) return Value{};  // `**other`: keys not known
          continue;
        }
        TSNode key = Field(pair, "key");
        auto k = StringValue(key, text_);
        if (!k) return Value{};
        d[*k] = {key, std::make_shared<const Value>(Read(Unparen(Field(pair, "value"))))};
      }
      out.v = std::move(d);
    }
    return out;
  }

  // MergeAnnotations(new, old): a key both have, with two dictionaries, merges them; with two
  // different literals, fails.
  void Merge(const Dict& add, Dict* into) {
    for (const auto& [key, entry] : add) {
      auto it = into->find(key);
      if (it == into->end()) {
        into->emplace(key, entry);
        continue;
      }
      const Value& old_value = *it->second.value;
      const Value& new_value = *entry.value;
      const Dict* old_dict = std::get_if<Dict>(&old_value.v);
      const Dict* new_dict = std::get_if<Dict>(&new_value.v);
      if (old_dict && new_dict) {
        Dict merged = *old_dict;
        Merge(*new_dict, &merged);
        it->second.value = std::make_shared<const Value>(Value{std::move(merged)});
        continue;
      }
      const std::string* old_s = std::get_if<std::string>(&old_value.v);
      const std::string* new_s = std::get_if<std::string>(&new_value.v);
      const int64_t* old_i = std::get_if<int64_t>(&old_value.v);
      const int64_t* new_i = std::get_if<int64_t>(&new_value.v);
      bool differ = (old_s && new_s && *old_s != *new_s) || (old_i && new_i && *old_i != *new_i);
      if (differ) {
        check::ParserRule r;
        r.kind = check::ParserRule::Kind::kBlockAttrConflict;
        r.range = Rel(entry.key);
        r.related = Rel(it->second.key);
        r.detail = key;
        checks().Report(&check::Check::OnParserRule, r);
      }
      // What TVM keeps (the old value) is what later calls are compared with.
    }
  }

  TextRange Rel(TSNode n) const { return {ts_node_start_byte(n) - base_, ts_node_end_byte(n) - base_}; }

  std::string_view text_;
  const Aliases& aliases_;
  FunctionModel* fn_;
  uint32_t base_;
  TSNode def_;
  check::LazyChecks checks{fn_};
};

}  // namespace

void CheckBlockAttrs(TSNode def, std::string_view text, const Aliases& aliases, FunctionModel* fn) {
  BlockAttrScan(def, text, aliases, fn).Run();
}

}  // namespace tvmls::analysis
