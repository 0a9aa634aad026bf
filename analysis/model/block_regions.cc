// Block accesses against written-out T.reads / T.writes (see block_regions.h).
#include "model/block_regions.h"

#include "model/annotation.h"
#include "model/syntax_util.h"

namespace tvmls::analysis {

TextRange BlockRegionTracker::Rel(TSNode n) const {
  if (ts_node_is_null(n)) return {};
  return {ts_node_start_byte(n) - h_.base, ts_node_end_byte(n) - h_.base};
}

std::string BlockRegionTracker::TirName(TSNode call) const {
  call = Unparen(call);
  if (!Is(call, "call")) return "";
  auto path = DottedPath(Field(call, "function"), h_.text);
  if (!path || path->size() != 2 || !IsAlias(h_.aliases->tir, *path)) return "";
  return (*path)[1];
}

void BlockRegionTracker::Declare(const BufferDecl& b) {
  if (b.name.empty()) return;
  BufferInfo info;
  info.depth = blocks_.size();
  info.judged = !b.view && b.origin != BufferDecl::Origin::kBufferCtor;
  if (b.shape) {
    info.rank_known = true;
    info.rank = b.shape->size();
    info.shape = *b.shape;
  }
  buffers_[b.name] = std::move(info);
}

void BlockRegionTracker::EnterBlock(TSNode call, TSNode body, bool has_iters) {
  Block b;
  b.judged = has_iters;
  b.event.block_range = Rel(call);
  CallArgs args = ArgsOf(Unparen(call), h_.text);
  if (!args.positional.empty()) {
    if (auto s = StringValue(args.positional[0], h_.text)) b.event.block = *s;
  }
  for (TSNode stmt : NamedChildren(body)) {
    if (Is(stmt, "with_statement")) {
      for (TSNode item : NamedChildren(Field(stmt, "items"))) {
        if (Is(item, "with_item") && TirName(Field(item, "value")) == "init") b.has_init = true;
      }
      continue;
    }
    if (!Is(stmt, "expression_statement")) continue;
    std::vector<TSNode> kids = NamedChildren(stmt);
    if (kids.size() != 1) continue;
    std::string f = TirName(kids[0]);
    if (f == "reads") ParseList(Unparen(kids[0]), &b.reads, &b.index_buffers);
    if (f == "writes") ParseList(Unparen(kids[0]), &b.writes, &b.index_buffers);
  }
  blocks_.push_back(std::move(b));
  // The written-out entries are accesses of the blocks around this one.
  const Block& self = blocks_.back();
  for (bool write : {false, true}) {
    const ListState& list = write ? self.writes : self.reads;
    for (const Entry& e : list.entries) {
      if (!buffers_.count(e.buffer) || !buffers_.at(e.buffer).judged) continue;
      Attribute(e, write, blocks_.size() - 1, e.range, e.text, self.event.block.empty() ? std::string("(unnamed)") : self.event.block,
                std::nullopt);
    }
  }
}

void BlockRegionTracker::ExitBlock() {
  if (blocks_.empty()) return;
  Block b = std::move(blocks_.back());
  blocks_.pop_back();
  if (!b.judged || (!b.reads.list.given && !b.writes.list.given)) return;
  // Reads of a buffer the block writes are not judged: TVM leaves them out of a reduction
  // block's inferred reads (T.init), and the write already orders the block against every other
  // writer and reader of that buffer.
  std::set<std::string> written;
  if (b.writes.list.given) {
    for (const auto& w : b.writes.list.entries) written.insert(w.buffer);
  } else {
    written = b.written;
  }
  std::vector<check::BlockRegions::Access> kept;
  for (check::BlockRegions::Access& a : b.event.accesses) {
    if (a.write || !written.count(a.buffer)) kept.push_back(std::move(a));
  }
  b.event.accesses = std::move(kept);
  if (b.event.accesses.empty()) return;
  b.event.reads = std::move(b.reads.list);
  b.event.writes = std::move(b.writes.list);
  h_.report(b.event);
}

void BlockRegionTracker::ParseList(TSNode call, ListState* out, std::set<std::string>* index_buffers) {
  out->list.given = true;
  out->list.range = Rel(call);
  CallArgs args = ArgsOf(call, h_.text);
  if (args.splat || !args.keywords.empty()) return;
  std::vector<TSNode> items;
  TSNode container = args.list;
  if (args.positional.size() == 1 && (Is(Unparen(args.positional[0]), "list") || Is(Unparen(args.positional[0]), "tuple"))) {
    container = Unparen(args.positional[0]);
    for (TSNode c : NamedChildren(container)) {
      if (!Is(c, "comment")) items.push_back(c);
    }
  } else {
    items = args.positional;
  }
  for (TSNode item : items) {
    if (Is(item, "list_splat") || Is(item, "list_comprehension") || Is(item, "generator_expression")) return;
  }
  if (!items.empty()) {
    out->list.append_at = ts_node_end_byte(items.back()) - h_.base;
    out->list.separator = ", ";
  } else if (!ts_node_is_null(container)) {
    out->list.append_at = ts_node_start_byte(container) + 1 - h_.base;
  }
  bool complete = true;
  for (TSNode item : items) {
    std::optional<Entry> e = ParseEntry(item, index_buffers);
    if (!e) {
      complete = false;
      continue;
    }
    out->list.entries.push_back({e->buffer, e->range, e->text});
    out->entries.push_back(std::move(*e));
  }
  out->list.complete = complete;
}

std::optional<BlockRegionTracker::Entry> BlockRegionTracker::ParseEntry(TSNode item, std::set<std::string>* index_buffers) {
  item = Unparen(item);
  TSNode name_node = Is(item, "subscript") ? Field(item, "value") : item;
  if (!Is(name_node, "identifier")) return std::nullopt;
  Entry e;
  e.buffer = std::string(TextOf(name_node, h_.text));
  e.range = Rel(item);
  e.text = std::string(TextOf(item, h_.text));
  auto info = buffers_.find(e.buffer);
  if (info == buffers_.end() || !info->second.judged) return std::nullopt;
  if (Is(item, "identifier")) return e;  // the whole buffer: no bound to compare
  std::vector<TSNode> indices = SubscriptIndices(item);
  for (size_t k = 0; k < indices.size(); ++k) {
    TSNode idx = indices[k];
    ForEachNode(idx, [&](TSNode n) {
      if (Is(n, "subscript") && Is(Field(n, "value"), "identifier")) {
        index_buffers->insert(std::string(TextOf(Field(n, "value"), h_.text)));
      }
      return true;
    });
    Interval d;
    d.range = Rel(idx);
    d.text = std::string(TextOf(idx, h_.text));
    if (Is(idx, "list_splat")) return e;  // the rest is not known: compare no dimension
    if (Is(idx, "slice")) {
      TSNode start = Field(idx, "start"), stop = Field(idx, "stop"), step = Field(idx, "step");
      if (ts_node_is_null(step)) {
        d.lo = ts_node_is_null(start) ? std::optional<arith::Expr>(arith::Expr(0)) : h_.resolve(start);
        if (!ts_node_is_null(stop)) {
          if (std::optional<arith::Expr> s = h_.resolve(stop)) d.hi = *s - 1;
        }
      }
    } else {
      d.lo = d.hi = h_.resolve(idx);
    }
    e.dims.push_back(std::move(d));
  }
  return e;
}

bool BlockRegionTracker::PointerArgument(TSNode n) const {
  TSNode p = ts_node_parent(n);
  while (!ts_node_is_null(p) && Is(p, "parenthesized_expression")) p = ts_node_parent(p);
  if (ts_node_is_null(p) || !Is(p, "argument_list")) return false;
  std::string f = TirName(ts_node_parent(p));
  return f == "address_of" || f == "tvm_access_ptr";
}

std::optional<std::string> BlockRegionTracker::RegionText(TSNode subscript, const std::vector<TSNode>& indices) const {
  bool ok = true;  // no index (`c[()]`): the point is the whole 0-d buffer
  for (TSNode idx : indices) {
    ForEachNode(idx, [&](TSNode n) {
      if (!ok) return false;
      if (Is(n, "subscript") || Is(n, "slice") || Is(n, "lambda") ||
          (Is(n, "call") && !Is(Field(n, "function"), "attribute"))) {
        ok = false;
      } else if (Is(n, "attribute")) {
        auto path = DottedPath(n, h_.text);
        if (!path || !IsAlias(h_.aliases->tir, *path)) ok = false;  // T.int32, T.min: fine
        return false;
      } else if (Is(n, "identifier") && !h_.region_name_ok(std::string(TextOf(n, h_.text)))) {
        ok = false;
      }
      return ok;
    });
    if (!ok) return std::nullopt;
  }
  return std::string(TextOf(subscript, h_.text));
}

void BlockRegionTracker::Access(TSNode sub) {
  if (blocks_.empty()) return;
  TSNode value = Field(sub, "value");
  if (!Is(value, "identifier")) return;
  std::string name(TextOf(value, h_.text));
  auto info = buffers_.find(name);
  if (info == buffers_.end() || !info->second.judged || PointerArgument(sub)) return;
  std::vector<TSNode> indices = SubscriptIndices(sub);
  for (TSNode i : indices) {
    if (Is(i, "slice") || Is(i, "list_splat")) return;  // a region, not an access
  }
  if (indices.size() == 1 && Is(Unparen(indices[0]), "call")) {
    std::string_view f = TextOf(Field(Unparen(indices[0]), "function"), h_.text);
    if (f == "tuple" || f == "list") return;
  }
  if (!info->second.rank_known || indices.size() != info->second.rank) return;
  bool read = true, write = false;
  TSNode target = sub, parent = ts_node_parent(sub);
  if (Is(parent, "pattern_list") || Is(parent, "tuple_pattern") || Is(parent, "expression_list")) {
    target = parent;  // `A[i], B[i] = ...`
    parent = ts_node_parent(parent);
  }
  if ((Is(parent, "assignment") || Is(parent, "augmented_assignment")) && ts_node_eq(Field(parent, "left"), target)) {
    write = true;
    read = Is(parent, "augmented_assignment");
  }
  Entry what;
  what.buffer = name;
  for (TSNode idx : indices) {
    Interval d;
    d.range = Rel(idx);
    d.text = std::string(TextOf(idx, h_.text));
    d.lo = d.hi = h_.resolve(idx);
    what.dims.push_back(std::move(d));
  }
  std::optional<std::string> region_text = RegionText(sub, indices);
  std::string text(TextOf(sub, h_.text));
  if (write) {
    for (Block& b : blocks_) b.written.insert(name);
    Attribute(what, true, blocks_.size(), Rel(sub), text, "", region_text);
  }
  if (read) Attribute(what, false, blocks_.size(), Rel(sub), text, "", region_text);
}

void BlockRegionTracker::Attribute(const Entry& what, bool write, size_t from, TextRange range, const std::string& text,
                                   const std::string& inner_block, const std::optional<std::string>& region_text) {
  const BufferInfo& info = buffers_.at(what.buffer);
  for (size_t j = from; j-- > 0;) {
    Block& b = blocks_[j];
    if (info.depth > j) return;  // the block's own buffer: in no list
    ListState& list = write ? b.writes : b.reads;
    if (!list.list.given) {
      if (!write && b.has_init) return;  // inferred reads leave the written buffers out
      continue;                          // inferred: the block around sees the access
    }
    if (!b.judged) return;
    check::BlockRegions::Access a;
    a.buffer = what.buffer;
    a.write = write;
    a.range = range;
    a.text = text;
    a.inner_block = inner_block;
    if (j + 1 == blocks_.size() && inner_block.empty()) a.region_text = region_text;
    int count = 0;
    for (size_t i = 0; i < list.entries.size(); ++i) {
      if (list.entries[i].buffer != what.buffer) continue;
      a.entry = count++ == 0 ? static_cast<int>(i) : -1;
    }
    a.named = count > 0 || (!write && b.index_buffers.count(what.buffer));
    if (count == 1) {
      const Entry& e = list.entries[a.entry];
      for (size_t k = 0; k < e.dims.size() && k < what.dims.size(); ++k) {
        const Interval& in = what.dims[k];
        const Interval& decl = e.dims[k];
        check::BlockRegions::Dim d;
        d.dim = k;
        d.index_range = in.range.empty() ? range : in.range;
        d.index_text = in.text;
        if (in.hi && decl.hi) d.above = h_.reach(*in.hi - *decl.hi);
        if (in.lo && decl.lo) d.below = h_.reach(*decl.lo - *in.lo);
        if (d.above || d.below) a.dims.push_back(std::move(d));
      }
    }
    b.event.accesses.push_back(std::move(a));
    return;
  }
}

}  // namespace tvmls::analysis
