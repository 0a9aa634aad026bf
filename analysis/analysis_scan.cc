// The analyzer, part 3: the top-level statements after an edit (mapping edits, rescanning,
// finding each statement again, the file's aliases) and which results went stale.
#include "analysis_impl.h"

namespace tvmls::analysis {

using namespace analyzer_internal;  // NOLINT: the analyzer's own helpers

namespace analyzer_internal {

// Top-level children that are statements of their own (comments and stray anonymous tokens are
// not; zero-width closers and MISSING nodes are, for their syntax errors).
bool IsStatementNode(TSNode n) {
  if (ts_node_is_missing(n) || ts_node_start_byte(n) == ts_node_end_byte(n)) return true;
  return ts_node_is_named(n) && std::strcmp(ts_node_type(n), "comment") != 0;
}

// The top-level statement (IsStatementNode) that spans [start, end), or failing that the first
// one that starts at `start`; a null node when none does. Not the child that
// ts_tree_cursor_goto_first_child_for_byte(start) lands on: with tree-sitter 0.20.7 that was the
// loose `(` token ending exactly at `start` before a statement of a file whose root is an ERROR,
// and that statement's errors went missing from an incremental run
// (tests/fuzz/regressions/incremental/statement_after_loose_token).
TSNode StatementAt(TSNode root, uint32_t start, uint32_t end) {
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  TSNode out{};
  if (ts_tree_cursor_goto_first_child_for_byte(&cursor, start) >= 0) {
    do {
      TSNode n = ts_tree_cursor_current_node(&cursor);
      if (ts_node_start_byte(n) > start) break;
      if (ts_node_start_byte(n) != start || !IsStatementNode(n)) continue;
      if (ts_node_is_null(out)) out = n;
      if (ts_node_end_byte(n) == end) {
        out = n;
        break;
      }
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

}  // namespace analyzer_internal

bool Analyzer::Impl::SameStatement(const Top& top, TSNode node, std::string_view node_text) {
  return top.symbol == ts_node_symbol(node) && top.text == node_text;
}

bool Analyzer::Impl::KeyHolds(const Top& top, TSNode node, std::string_view node_text, uint64_t gen) {
  // A key set in the last run is a node of the tree `held` keeps alive: the same node is the same
  // subtree, so the same text. An older key may be an address a new node reuses: then the same
  // text parses the same only without errors (recovery depends on the context; a made-up
  // closer's place depends on the next line).
  return top.generation + 1 == gen || (SameStatement(top, node, node_text) && !ts_node_has_error(node));
}

bool Analyzer::Impl::Kept(const Slot& slot, TSNode node, std::string_view node_text, uint64_t gen) {
  const Top& top = *slot.top;
  return top.key == node.id && slot.start == ts_node_start_byte(node) && slot.end == ts_node_end_byte(node) &&
         !slot.damaged && top.generation != gen && KeyHolds(top, node, node_text, gen);
}

void Analyzer::Impl::MapEdits(const Document& doc, RunState* run) {
  std::vector<EditSpan>& edits = run->edits;
  uint32_t& lo = run->lo;
  uint32_t& hi = run->hi;
  lo = 0;
  hi = static_cast<uint32_t>(doc.Text().size());
  run->incremental = doc_id == doc.Id() && doc.EditsSince(doc_revision, &edits) && edits.size() <= kMaxEditsPerRun;
  if (run->incremental) {
    bool any = false;
    for (const EditSpan& e : edits) {
      int64_t delta = static_cast<int64_t>(e.new_end) - e.old_end;
      for (Slot& slot : order) {
        if (slot.end < e.begin) continue;
        if (slot.start > e.old_end) {
          slot.start = static_cast<uint32_t>(slot.start + delta);
          slot.end = static_cast<uint32_t>(slot.end + delta);
        } else {
          slot.damaged = true;
          slot.start = std::min(slot.start, e.begin);
          slot.end = std::max<uint32_t>(e.new_end, static_cast<uint32_t>(std::max<int64_t>(slot.end + delta, e.begin)));
        }
      }
      // The window of changed text, carried through later edits.
      if (any) {
        if (lo > e.old_end) {
          lo = static_cast<uint32_t>(lo + delta);
          hi = static_cast<uint32_t>(hi + delta);
        } else if (hi >= e.begin) {
          hi = static_cast<uint32_t>(std::max<int64_t>(static_cast<int64_t>(hi) + delta, e.new_end));
        }
        lo = std::min(lo, e.begin);
        hi = std::max(hi, e.new_end);
      } else {
        lo = e.begin;
        hi = e.new_end;
        any = true;
      }
    }
    if (!any) lo = hi = 0;
    for (const Slot& slot : order) {
      if (slot.damaged) {
        lo = std::min(lo, slot.start);
        hi = std::max(hi, slot.end);
      }
    }
  }

}

std::vector<Analyzer::Impl::Window> Analyzer::Impl::Windows(const RunState& run, bool whole) const {
  std::vector<Window> out;
  if (whole) {
    out.push_back({0, UINT32_MAX});
    return out;
  }
  bool edited = !run.edits.empty();
  // The statements with errors (their nodes are new in every reparse: tree-sitter reuses no ERROR
  // and no node built during recovery) and the changed text, in order.
  for (const Slot& slot : order) {
    if (edited && slot.start > run.lo) {
      out.push_back({run.lo, run.hi});
      edited = false;
    }
    if ((!slot.clean || slot.joined) && !slot.damaged) out.push_back({slot.start, slot.end});
  }
  if (edited) out.push_back({run.lo, run.hi});
  return out;
}

void Analyzer::Impl::Rescan(RunState* run, TSNode root, std::string_view text, bool whole,
                             RunStats* stats) {
  std::vector<Window> windows = Windows(*run, whole);
  auto at = [&](uint32_t pos) {  // the first statement that ends at or after `pos`
    return static_cast<size_t>(
        std::partition_point(order.begin(), order.end(), [&](const Slot& x) { return x.end < pos; }) -
        order.begin());
  };
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  size_t floor = 0;  // statements before this index were placed in this run (or are unchanged)
  for (size_t w = 0; w < windows.size();) {
    uint32_t hi = windows[w].hi;
    size_t first = 0;
    bool have = false;
    ts_tree_cursor_reset(&cursor, root);
    if (whole) {
      have = ts_tree_cursor_goto_first_child(&cursor);
    } else {
      // Start one statement before the window (the statement an edit touches may now begin
      // earlier), or at the node that holds that place, wherever it begins.
      uint32_t lo = windows[w].lo;
      size_t i = at(lo);
      if (i > 0) --i;
      i = std::max(i, floor);
      uint32_t from = i < order.size() ? std::min(lo, order[i].start) : lo;
      have = ts_tree_cursor_goto_first_child_for_byte(&cursor, from) >= 0;
      if (have) from = std::min(from, ts_node_start_byte(ts_tree_cursor_current_node(&cursor)));
      first = std::max(at(from), floor);
    }
    ++w;
    floor = RescanStretch(run, &cursor, have, text, first, whole, hi, windows, &w, stats);
  }
  ts_tree_cursor_delete(&cursor);
}

size_t Analyzer::Impl::RescanStretch(RunState* run, TSTreeCursor* cursor, bool have, std::string_view text,
                                     size_t first, bool whole, uint32_t hi, const std::vector<Window>& windows,
                                     size_t* next_window, RunStats* stats) {
  // Old statements of the stretch may be claimed by the nodes scanned (marked as the scan passes
  // them, and all of them once the stretch is known).
  size_t marked = first;
  auto mark_until = [&](size_t end_index, uint32_t pos) {
    for (; marked < end_index && (pos == UINT32_MAX || order[marked].start <= pos); ++marked) {
      Top* top = order[marked].top;
      top->candidate = run->gen;
      auto mark = [&](const FoundFunction& f) {
        if (Impl::Cached* c = cache.Find(f.def.id)) {
          c->reclaimable = run->gen;
          reclaimable_generation = run->gen;
        }
      };
      for (const FoundModule& m : top->found.modules) {
        for (const FoundFunction& f : m.functions) mark(f);
      }
      for (const FoundFunction& f : top->found.standalone) mark(f);
    }
  };
  std::vector<Slot> fresh;
  size_t stop = order.size();
  size_t next_old = first;
  for (; have; have = ts_tree_cursor_goto_next_sibling(cursor)) {
    TSNode child = ts_tree_cursor_current_node(cursor);
    if (!IsStatementNode(child)) continue;
    uint32_t start = ts_node_start_byte(child), end = ts_node_end_byte(child);
    std::string_view child_text = TextOf(child, text);
    if (whole && run->incremental) {
      // One whose node tree-sitter kept, at its old place and untouched by an edit, is that
      // statement (`held` keeps the last tree alive: no new node has an old node's address): it
      // is taken as it is, without the bookkeeping that lets other nodes claim it.
      while (next_old < order.size() && order[next_old].start < start) ++next_old;
      // The Tops are scattered over the heap: ask for the ones a few statements on.
      if (next_old + 8 < order.size()) __builtin_prefetch(order[next_old + 8].top);
      if (next_old < order.size() && Kept(order[next_old], child, child_text, run->gen)) {
        mark_until(next_old, UINT32_MAX);
        marked = std::max(marked, next_old + 1);
        // The same node: the same extent, errors and indentation (an edit in the indentation
        // would have changed the node's padding, and tree-sitter would have built a new one).
        Slot slot = order[next_old];
        slot.top->node = child;
        slot.top->generation = run->gen;
        fresh.push_back(slot);
        continue;
      }
    }
    ++stats->statements_scanned;
    if (!whole) {
      // A later window this statement reaches belongs to this stretch.
      while (*next_window < windows.size() && windows[*next_window].lo <= end) {
        hi = std::max(hi, windows[*next_window].hi);
        ++*next_window;
      }
      if (start > hi) {
        // The unchanged rest begins at an old statement that starts here and is this node.
        while (next_old < order.size() && order[next_old].start < start) ++next_old;
        if (next_old < order.size() && order[next_old].start == start && !order[next_old].damaged &&
            tops.Find(child.id) == order[next_old].top && SameStatement(*order[next_old].top, child, child_text) &&
            KeyHolds(*order[next_old].top, child, child_text, run->gen)) {
          stop = next_old;
          break;
        }
      }
    }
    mark_until(order.size(), end);
    Top* top = tops.Find(child.id);
    if (top != nullptr && (top->candidate != run->gen || top->generation == run->gen || !SameStatement(*top, child, child_text) ||
                           !KeyHolds(*top, child, child_text, run->gen))) {
      tops.MoveAside(child.id);  // a key left by a node that is gone, whose address was reused
      top = nullptr;
    }
    bool clean = !ts_node_has_error(child);
    uint32_t column = ts_node_start_point(child).column;
    if (top == nullptr && clean && marked > first) {
      // The same text as a statement of the last run: its results hold, at a new offset.
      top = tops.Rekey(child.id, child_text, [&](const Top& old) {
        return old.candidate == run->gen && old.generation != run->gen && old.clean && old.column == column &&
               old.symbol == ts_node_symbol(child);
      });
      if (top != nullptr) {
        Discovery found;
        Discover(child, text, aliases, &found);
        RekeyFunctions(top->found, found);
        top->found = std::move(found);
        top->discovered = run->gen;
      }
    }
    if (top == nullptr) {
      top = &tops.Insert(child.id, child_text);
      top->symbol = ts_node_symbol(child);
      top->clean = clean;
      top->column = column;
      Discover(child, text, aliases, &top->found);
      top->discovered = run->gen;
      Count(top->found, +1, &run->flipped);
      if (!Impl::IsUnitStatement(child, top->found) && !IsLargeError(child)) CollectNameUses(child, text, &top->uses);
      CountUses(top->uses, +1, &run->flipped_uses);
    }
    top->node = child;
    top->generation = run->gen;
    Slot slot;
    slot.top = top;
    slot.start = start;
    slot.end = end;
    slot.clean = clean;
    if (ts_node_is_named(child) && !ts_node_is_missing(child)) {
      slot.indent = static_cast<int32_t>(IndentationAt(text, start));
    }
    fresh.push_back(slot);
  }
  for (size_t j = 0; j < fresh.size(); ++j) {
    uint32_t next = j + 1 < fresh.size() ? fresh[j + 1].start
                    : stop < order.size() ? order[stop].start
                                          : static_cast<uint32_t>(text.size());
    fresh[j].joined = next >= fresh[j].end &&
                      text.substr(fresh[j].end, next - fresh[j].end).find('\n') == std::string_view::npos;
  }
  if (first > stop) first = stop;
  mark_until(stop, UINT32_MAX);
  // Statements of the replaced stretch that nothing claimed are gone.
  for (size_t k = first; k < stop; ++k) {
    Top* top = order[k].top;
    if (top->generation == run->gen) continue;
    Count(top->found, -1, &run->flipped);
    CountUses(top->uses, -1, &run->flipped_uses);
    Forget(top);
    UnindexLookups(top);
    tops.Erase(top->key);
  }
  order.erase(order.begin() + static_cast<long>(first), order.begin() + static_cast<long>(stop));
  order.insert(order.begin() + static_cast<long>(first), fresh.begin(), fresh.end());
  return first + fresh.size();
}

Aliases Analyzer::Impl::FileAliases(TSNode root, std::string_view text, Era era) const {
  // The printer's header comments (`# from tvm.script import tir as T`) before the first
  // statements.
  Aliases out;
  bool saw_tir = false, saw_tirx = false;
  int non_comments = 0;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (bool have = ts_tree_cursor_goto_first_child(&cursor); have && non_comments <= kHeaderStatements;
       have = ts_tree_cursor_goto_next_sibling(&cursor)) {
    TSNode c = ts_tree_cursor_current_node(&cursor);
    if (std::strcmp(ts_node_type(c), "comment") != 0) {
      ++non_comments;
    } else if (auto a = HeaderComment(TextOf(c, text))) {
      AddAlias(&out, &saw_tir, &saw_tirx, a->first, a->second);
    }
  }
  ts_tree_cursor_delete(&cursor);
  for (const auto& [a, count] : alias_count) AddAlias(&out, &saw_tir, &saw_tirx, a.first, a.second);
  if (saw_tir != saw_tirx) {
    out.classic = saw_tir;
    out.current = saw_tirx;
  }
  if (era == Era::kClassic) {
    out.classic = true;
    out.current = false;
  } else if (era == Era::kCurrent) {
    out.classic = false;
    out.current = true;
  }
  return out;
}

void Analyzer::Impl::ScanStatements(const Document& doc, Era era, RunState* run, RunStats* stats) {
  std::string_view text = doc.Text();
  TSNode root = doc.Root();
  // Discovery needs the aliases, which come from every statement: when they turn out different
  // from the ones discovery used, everything is discovered again with the new ones.
  if (!run->incremental) Retire();
  // Only the windows (Windows) are scanned, each until the first statement after it whose node
  // tree-sitter kept. The parse after such a statement is the last one's: it starts in the same
  // state on the same text (a recovery still under way past it would have made it part of an
  // ERROR, not a statement). A new error can change how the text before it parses, when the root
  // becomes an ERROR that swallows it: the window then starts where that node starts.
  bool root_error = std::strcmp(ts_node_type(root), "ERROR") == 0;
  bool whole = !run->incremental || root_error || root_was_error;
  size_t with_errors = 0;
  for (const Slot& slot : order) with_errors += !slot.clean || slot.joined;
  // An error no statement shows: its place is unknown.
  if (with_errors == 0 && root_had_error) whole = true;
  if (with_errors > kMaxErrorWindows) whole = true;  // one walk over the root costs less
  root_had_error = ts_node_has_error(root);
  root_was_error = root_error;
  for (int attempt = 1;; ++attempt) {
    Rescan(run, root, text, whole, stats);
    Aliases found = FileAliases(root, text, era);
    // Discovery reads only the alias sets; lowering also the era and star imports.
    uint64_t discovery_hash_now = AliasSetHash(found);
    uint64_t lowering_hash = HashString(star_imports > 0 ? "*" : "", AliasHash(found));
    aliases = found;
    if (lowering_hash != alias_hash) {
      // Every statement is analysed again; the functions lowered under the old aliases go to
      // limbo as they are met (SignatureOf), and come back if those aliases do.
      alias_hash = lowering_hash;
      tops.ForEach([](Top& top) { top.analysed = false; });
    }
    // Pipelines read the names of TVM's pass modules: every statement is assembled again (its
    // functions' lowering is kept).
    if (uint64_t pass_hash = PassAliasHash(found); pass_hash != pass_alias_hash) {
      pass_alias_hash = pass_hash;
      tops.ForEach([](Top& top) { top.analysed = false; });
    }
    if (discovery_hash_now == discovery_hash || attempt >= kMaxDiscoveryAttempts) break;
    // What discovery found may be wrong: start over with the new aliases.
    discovery_hash = discovery_hash_now;
    Retire();
    run->flipped.clear();
    run->flipped_uses.clear();
    expecting_changed.clear();
    whole = true;
  }
  doc_id = doc.Id();
  doc_revision = doc.Revision();
}

void Analyzer::Impl::IndexLookups(Top* top) {
  UnindexLookups(top);
  std::vector<std::string>& names = top->looked_up;
  auto add = [&](const std::vector<FunctionRef>& refs) {
    for (const FunctionRef& r : refs) {
      for (const auto& [name, was] : r.fn->outer_lookups) names.push_back(name);
    }
  };
  add(top->standalone);
  for (const ModuleModel& m : top->modules) add(m.functions);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  for (const std::string& name : names) lookup_index[name].insert(top);
}

void Analyzer::Impl::UnindexLookups(Top* top) {
  for (const std::string& name : top->looked_up) {
    auto it = lookup_index.find(name);
    if (it == lookup_index.end()) continue;
    it->second.erase(top);
    if (it->second.empty()) lookup_index.erase(it);
  }
  top->looked_up.clear();
}

void Analyzer::Impl::MarkStale(const RunState& run, bool check_uses) {
  // The statements that look up a name that came or went.
  for (const std::string& name : run.flipped) {
    auto it = lookup_index.find(name);
    if (it == lookup_index.end()) continue;
    for (Top* top : it->second) top->analysed = false;
  }
  // A unit some test expects to fail by using it, whose uses changed.
  const std::set<std::string>& flipped_uses = run.flipped_uses;
  if (!check_uses) return;
  auto matters = [&](const std::string& name) {
    return flipped_uses.count(name) > 0 && (expecting_uses.count(name) > 0 || expecting_changed.count(name) > 0);
  };
  if (std::none_of(flipped_uses.begin(), flipped_uses.end(), matters)) return;
  auto unit_named = [&](const Top& top) {
    for (const FoundModule& m : top.found.modules) {
      if (matters(m.name)) return true;
    }
    for (const FunctionRef& f : top.standalone) {
      if (matters(f.fn->name)) return true;
    }
    return false;
  };
  for (const Slot& slot : order) {
    Top* top = slot.top;
    if (top->analysed && unit_named(*top)) top->analysed = false;
  }
}

}  // namespace tvmls::analysis
