#include "model/pipeline.h"

#include <map>
#include <optional>
#include <utility>

#include "model/syntax_util.h"

namespace tvmls::analysis {
namespace {

// The pass a constructor call names: `relax.transform.FoldConstant()` -> "FoldConstant"; "" for
// anything else (TIR passes share the `transform.Name` shape and are left out).
std::string PassName(TSNode call, std::string_view text) {
  if (!Is(call, "call")) return "";
  auto path = DottedPath(Field(call, "function"), text);
  if (!path || path->empty()) return "";
  if (path->size() > 1 && (*path)[path->size() - 2] != "transform") return "";
  for (const std::string& part : *path) {
    if (part == "tir" || part == "tirx" || part == "relay" || part == "s_tir") return "";
  }
  return path->back();
}

PipelineStep StepOf(TSNode call, std::string_view text) {
  return PipelineStep{PassName(call, text), RangeOf(call), std::string(TextOf(call, text))};
}

// The elements of a list or tuple literal as steps; nullopt for anything else or a splat.
std::optional<Pipeline> ListPipeline(TSNode list, std::string_view text) {
  list = Unparen(list);
  if (!Is(list, "list") && !Is(list, "tuple")) return std::nullopt;
  Pipeline p;
  for (TSNode e : NamedChildren(list)) {
    if (Is(e, "comment")) continue;
    if (Is(e, "list_splat") || Is(e, "list_comprehension")) return std::nullopt;
    p.steps.push_back(StepOf(e, text));
  }
  return p;
}

// `target = Pass(...)(argument)`: the constructor call, the target and the argument's names.
struct Application {
  TSNode constructor;
  std::string target, argument;
};

std::optional<Application> ApplicationOf(TSNode stmt, std::string_view text) {
  if (Is(stmt, "expression_statement")) {
    std::vector<TSNode> kids = NamedChildren(stmt);
    if (kids.size() != 1) return std::nullopt;
    stmt = kids[0];
  }
  if (!Is(stmt, "assignment")) return std::nullopt;
  TSNode left = Field(stmt, "left"), right = Field(stmt, "right");
  if (!Is(left, "identifier") || !Is(right, "call")) return std::nullopt;
  TSNode constructor = Field(right, "function");
  if (!Is(constructor, "call")) return std::nullopt;
  CallArgs args = ArgsOf(right, text);
  if (args.positional.size() != 1 || !args.keywords.empty() || args.splat ||
      !Is(args.positional[0], "identifier")) {
    return std::nullopt;
  }
  return Application{constructor, std::string(TextOf(left, text)), std::string(TextOf(args.positional[0], text))};
}

class Finder {
 public:
  Finder(std::string_view text, const std::set<const void*>& skip, std::vector<Pipeline>* out)
      : text_(text), skip_(skip), out_(out) {}

  void Run(TSNode stmt) {
    ForEachNode(stmt, [&](TSNode n) {
      if (skip_.count(n.id) > 0) return false;
      if (Is(n, "block")) Chains(n);
      if (Is(n, "assignment")) NoteList(n);
      if (Is(n, "call")) Sequential(n);
      return true;
    });
    // A list given to Sequential by name: the last assignment of that name before the call.
    for (const auto& [name, at] : by_name_) {
      auto lists = lists_.find(name);
      if (lists == lists_.end()) continue;
      const Pipeline* found = nullptr;
      for (const auto& [offset, p] : lists->second) {
        if (offset < at) found = &p;
      }
      if (found != nullptr) Add(*found);
    }
  }

 private:
  void Add(const Pipeline& p) {
    if (p.steps.size() >= 2) out_->push_back(p);
  }

  void NoteList(TSNode assignment) {
    TSNode left = Field(assignment, "left");
    if (!Is(left, "identifier")) return;
    if (auto p = ListPipeline(Field(assignment, "right"), text_)) {
      lists_[std::string(TextOf(left, text_))].emplace_back(ts_node_start_byte(assignment), std::move(*p));
    }
  }

  void Sequential(TSNode call) {
    auto path = DottedPath(Field(call, "function"), text_);
    if (!path || path->empty() || path->back() != "Sequential") return;
    CallArgs args = ArgsOf(call, text_);
    TSNode passes = Keyword(args, "passes");
    if (ts_node_is_null(passes) && !args.positional.empty()) passes = args.positional[0];
    if (ts_node_is_null(passes)) return;
    if (Is(passes, "identifier")) {
      uint32_t& at = by_name_[std::string(TextOf(passes, text_))];
      at = std::max(at, ts_node_start_byte(call));
    } else if (auto p = ListPipeline(passes, text_)) {
      Add(*p);
    }
  }

  // Statements in a row that apply passes to the previous one's result.
  void Chains(TSNode block) {
    Pipeline chain;
    std::string last;
    for (TSNode stmt : NamedChildren(block)) {
      if (Is(stmt, "comment")) continue;
      auto app = ApplicationOf(stmt, text_);
      if (!app || (!chain.steps.empty() && app->argument != last)) {
        Add(chain);
        chain.steps.clear();
      }
      if (!app) continue;
      chain.steps.push_back(StepOf(app->constructor, text_));
      last = app->target;
    }
    Add(chain);
  }

  std::string_view text_;
  const std::set<const void*>& skip_;
  std::vector<Pipeline>* out_;
  std::map<std::string, std::vector<std::pair<uint32_t, Pipeline>>> lists_;
  std::map<std::string, uint32_t> by_name_;  // names given to Sequential, the last call's start
};

}  // namespace

void FindPipelines(TSNode stmt, std::string_view text, const std::set<const void*>& skip,
                   std::vector<Pipeline>* out) {
  std::string_view t = TextOf(stmt, text);
  if (t.find("Sequential") == std::string_view::npos && t.find("transform") == std::string_view::npos) return;
  Finder(text, skip, out).Run(stmt);
}

}  // namespace tvmls::analysis
