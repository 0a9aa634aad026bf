// PrimFunc lowering: parameters, buffers (parameter annotations, match_buffer, alloc_buffer,
// decl_buffer, T.Buffer), buffer accesses; checks invalid-axis-separators, buffer-index-arity and
// buffer-index-out-of-bounds. The class is declared in model/lower_prim_impl.h.
#include "model/lower_prim_impl.h"

#include "vocab/dtype.h"

namespace tvmls::analysis::prim_lowering {

namespace {

// Positional index of `dtype` per buffer-creating function (match_buffer takes the param first).
constexpr BufferCtor kBufferCtors[] = {
    {"match_buffer", BufferDecl::Origin::kMatchBuffer, 1, 2, 6},
    {"alloc_buffer", BufferDecl::Origin::kAllocBuffer, 0, 1, 5},
    {"sblock_alloc_buffer", BufferDecl::Origin::kAllocBuffer, 0, 1, 5},
    {"decl_buffer", BufferDecl::Origin::kDeclBuffer, 0, 1, 5},
    {"Buffer", BufferDecl::Origin::kBufferCtor, 0, 1, 5},
    {"buffer", BufferDecl::Origin::kBufferCtor, 0, 1, 5},
    {"buffer_decl", BufferDecl::Origin::kBufferCtor, 0, 1, 5},
};

// Whether broken text holds what reads as a store: `]`, blanks, an assignment operator (`=`,
// `+=`, `//=`, ...; not `==`, `<=`, `>=`).
bool HasStoreText(std::string_view t) {
  static const char* const kAugmented[] = {"", "+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>", "@"};
  for (size_t i = t.find(']'); i != std::string_view::npos; i = t.find(']', i + 1)) {
    size_t j = t.find_first_not_of(" \t", i + 1);
    if (j == std::string_view::npos) return false;
    size_t k = t.find_first_not_of("+-*/%&|^<>@", j);
    if (k == std::string_view::npos || t[k] != '=' || (k + 1 < t.size() && t[k + 1] == '=')) continue;
    for (const char* op : kAugmented) {
      if (t.substr(j, k - j) == op) return true;
    }
  }
  return false;
}

const BufferCtor* FindCtor(const std::string& name) {
  for (const BufferCtor& c : kBufferCtors) {
    if (name == c.name) return &c;
  }
  return nullptr;
}

}  // namespace

PrimLowering::PrimLowering(TSNode def, std::string_view text, const Aliases& aliases, FunctionModel* fn)
    : text_(text), aliases_(aliases), fn_(fn), base_(ts_node_start_byte(def)) {
  ctx_.text = text;
  ctx_.aliases = &aliases;
  def_ = def;
  func_ = Is(def, "decorated_definition") ? Field(def, "definition") : def;
}

void PrimLowering::Signature() {
  PrimSignature& sig = fn_->prim;
  TSNode params = Field(func_, "parameters");
  for (TSNode p : NamedChildren(params)) {
    if (Is(p, "comment")) continue;
    PrimSignature::Param param;
    TSNode name = Is(p, "identifier") ? p : Field(p, "name");
    if (ts_node_is_null(name)) {
      sig.complete = false;  // `*args`, `**kw`, or recovery debris
      continue;
    }
    param.name = std::string(TextOf(name, text_));
    param.name_range = Rel(name);
    TSNode ann = Field(p, "annotation");
    if (Is(p, "typed_parameter") && !ts_node_is_null(ann)) {
      ClassifyParam(ann, &param);
    } else {
      sig.complete = false;
    }
    sig.params.push_back(param);
  }
  // The prologue: match_buffer calls binding handle parameters.
  TSNode body = Field(func_, "body");
  for (TSNode stmt : NamedChildren(body)) {
    TSNode call, target;
    if (!AssignedCall(stmt, &target, &call)) continue;
    auto path = DottedPath(Field(call, "function"), text_);
    if (!path || path->size() != 2 || !IsAlias(aliases_.tir, *path) ||
        (*path)[1] != "match_buffer") {
      continue;
    }
    CallArgs args = ArgsOf(call, text_);
    TSNode param = args.positional.empty() ? Keyword(args, "param") : args.positional[0];
    if (!Is(param, "identifier")) continue;
    std::string pname(TextOf(param, text_));
    for (PrimSignature::Param& p : sig.params) {
      if (p.name == pname && p.kind == PrimSignature::Param::Kind::kHandle) {
        BufferDecl decl = MakeBuffer(target, call, args, *FindCtor("match_buffer"));
        p.buffer = static_cast<int>(sig.buffers.size());
        sig.buffers.push_back(std::move(decl));
      }
    }
  }
  fn_->prim.returns_value = !ts_node_is_null(Field(func_, "return_type")) &&
                            TextOf(Field(func_, "return_type"), text_) != "None";
  // Stores to buffers make a direct call impure; known before the body is lowered. In text
  // that does not parse, a store may sit inside an ERROR node: `] =` there counts too, so that
  // a half-typed line does not change what callers see (and re-lower them) on every keystroke.
  fn_->prim.writes = false;
  ForEachNode(body, [&](TSNode n) {
    if ((Is(n, "assignment") || Is(n, "augmented_assignment")) && Is(Field(n, "left"), "subscript")) {
      fn_->prim.writes = true;
    } else if (Is(n, "ERROR") && HasStoreText(TextOf(n, text_))) {
      fn_->prim.writes = true;
    }
    // Stores are statements (`a = B[i] = c` nests one in another); an ERROR can be anywhere
    // (ts_node_has_error: below n).
    return !fn_->prim.writes && (MayHoldStatements(n) || Is(n, "assignment") || Is(n, "augmented_assignment") ||
                                 ts_node_has_error(n));
  });
  // Hash of what callers see.
  std::string canon;
  // Callers' diagnostics point into this signature (related locations, fixes of the buffer
  // shape), so where its parts are counts as much as what they say.
  auto at = [](TextRange r) { return std::to_string(r.begin) + "-" + std::to_string(r.end) + ","; };
  for (const PrimSignature::Param& p : sig.params) {
    canon += p.name + ":" + std::to_string(static_cast<int>(p.kind)) + p.dtype + "@" + at(p.name_range);
    if (p.buffer >= 0) {
      const BufferDecl& b = sig.buffers[p.buffer];
      canon += "[" + (b.shape ? types::PrintShape(*b.shape) : "?") + b.dtype + "]@" + at(b.name_range) +
               at(b.decl_range) + at(b.shape_range);
      for (TextRange r : b.dim_ranges) canon += at(r);
      for (const std::string& spelling : b.dim_spellings) canon += spelling + ",";
    }
    canon += ";";
  }
  canon += fn_->prim.writes ? "w" : "r";
  canon += fn_->prim.complete ? "" : "?";
  canon += fn_->prim.returns_value ? "v" : "";
  fn_->signature_hash = HashString(canon);
}

void PrimLowering::ParserRules() {
  TSNode body = Field(func_, "body");
  std::map<std::string, TextRange> keys;
  for (TSNode stmt : NamedChildren(body)) {
    if (!Is(stmt, "expression_statement")) continue;
    std::vector<TSNode> kids = NamedChildren(stmt);
    if (kids.size() != 1 || TirCall(kids[0]) != "func_attr") continue;
    CallArgs args = ArgsOf(kids[0], text_);
    if (args.positional.empty()) continue;
    TSNode dict = Unparen(args.positional[0]);
    if (!Is(dict, "dictionary")) continue;
    for (TSNode pair : NamedChildren(dict)) {
      if (!Is(pair, "pair")) continue;
      TSNode key_node = Field(pair, "key");
      auto key = StringValue(key_node, text_);
      if (!key) continue;
      check::ParserRule r;
      r.range = Rel(key_node);
      auto [earlier, fresh] = keys.emplace(*key, r.range);
      if (!fresh) {
        r.kind = check::ParserRule::Kind::kDuplicateFuncAttr;
        r.related = earlier->second;
        r.detail = *key;
      } else if (*key == "global_symbol") {
        TSNode private_true = PrivateKeyword();
        if (ts_node_is_null(private_true)) continue;
        r.kind = check::ParserRule::Kind::kPrivateGlobalSymbol;
        r.related = Rel(private_true);
      } else {
        continue;
      }
      checks().Report(&check::Check::OnParserRule, r);
    }
  }
  ForEachNode(body, [&](TSNode n) {
    if (Is(n, "assignment") && Is(Field(n, "right"), "assignment")) {
      checks().Report(&check::Check::OnParserRule, ChainedAssignmentRule(n, text_, base_));
      return false;
    }
    return !Is(n, "function_definition") && !Is(n, "decorated_definition");
  });
}

TSNode PrimLowering::PrivateKeyword() const {
  if (!Is(def_, "decorated_definition")) return TSNode{};
  for (TSNode d : NamedChildren(def_)) {
    if (!Is(d, "decorator")) continue;
    TSNode v = Field(d, "value");
    if (!Is(v, "call")) continue;
    auto path = DottedPath(Field(v, "function"), text_);
    if (!path || path->size() != 2 || !IsAlias(aliases_.tir, *path) || (*path)[1] != "prim_func") continue;
    CallArgs args = ArgsOf(v, text_);
    for (size_t i = 0; i < args.keywords.size() && i < args.keyword_nodes.size(); ++i) {
      if (args.keywords[i].first == "private" && Is(Unparen(args.keywords[i].second), "true")) {
        return args.keyword_nodes[i];
      }
    }
  }
  return TSNode{};
}

void PrimLowering::Body() {
  ParserRules();
  // Parameter buffers are symbols, and so are the other parameters (a handle bound by
  // match_buffer is both: the handle and the buffer named by the assignment).
  for (const PrimSignature::Param& p : fn_->prim.params) {
    if (p.buffer >= 0) AddBufferSymbol(fn_->prim.buffers[p.buffer]);
    if (p.buffer < 0 || fn_->prim.buffers[p.buffer].name != p.name) {
      Symbol s;
      s.kind = Symbol::Kind::kTirVar;
      s.name = p.name;
      s.definition = p.name_range;
      s.detail = p.name + (p.dtype.empty() ? "" : ": T." + p.dtype);
      if (p.kind == PrimSignature::Param::Kind::kHandle) s.detail = p.name + ": T.handle";
      vars_[p.name] = static_cast<int>(fn_->symbols.size());
      fn_->symbols.push_back(std::move(s));
    }
  }
  CollectNonLoopNames();
  frames_.emplace_back();
  Walk(Field(func_, "body"));
  frames_.clear();
}

TextRange PrimLowering::Rel(TSNode n) const {
  if (ts_node_is_null(n)) return {};
  return {ts_node_start_byte(n) - base_, ts_node_end_byte(n) - base_};
}

void PrimLowering::ClassifyParam(TSNode ann, PrimSignature::Param* param) {
  using Kind = PrimSignature::Param::Kind;
  TSNode head = Unparen(ann);
  TSNode call{};
  if (Is(head, "call") || Is(head, "subscript")) {
    call = head;
    head = Is(head, "call") ? Field(head, "function") : Field(head, "value");
  }
  auto path = DottedPath(head, text_);
  if (!path || path->size() != 2 || !IsAlias(aliases_.tir, *path)) {
    param->kind = Kind::kUnknown;
    fn_->prim.complete = false;
    return;
  }
  const std::string& f = (*path)[1];
  if (f == "handle" || f == "Ptr" || f == "ptr") {
    param->kind = Kind::kHandle;
  } else if (f == "Buffer" && !ts_node_is_null(call)) {
    param->kind = Kind::kBuffer;
    BufferDecl decl;
    if (Is(call, "call")) {
      CallArgs args = ArgsOf(call, text_);
      decl = MakeBuffer(TSNode{}, call, args, *FindCtor("Buffer"));
    } else {  // deprecated T.Buffer[(4,), "int32"]
      CallArgs args;
      for (TSNode c : NamedChildren(call)) {
        if (!ts_node_eq(c, Field(call, "value")) && !Is(c, "comment")) args.positional.push_back(c);
      }
      decl = MakeBuffer(TSNode{}, call, args, *FindCtor("Buffer"));
    }
    decl.name = param->name;
    decl.name_range = param->name_range;
    decl.origin = BufferDecl::Origin::kParam;
    param->buffer = static_cast<int>(fn_->prim.buffers.size());
    fn_->prim.buffers.push_back(std::move(decl));
  } else if (vocab::IsKnownDType(f)) {
    param->kind = Kind::kScalar;
    param->dtype = f;
  } else {
    param->kind = Kind::kUnknown;
    fn_->prim.complete = false;
  }
}

bool PrimLowering::AssignedCall(TSNode stmt, TSNode* target, TSNode* call) {
  if (Is(stmt, "expression_statement")) {
    std::vector<TSNode> kids = NamedChildren(stmt);
    if (kids.size() != 1 || !Is(kids[0], "assignment")) return false;
    stmt = kids[0];
  }
  if (!Is(stmt, "assignment")) return false;
  TSNode left = Field(stmt, "left"), right = Unparen(Field(stmt, "right"));
  if (!Is(left, "identifier") || !Is(right, "call")) return false;
  *target = left;
  *call = right;
  return true;
}

BufferDecl PrimLowering::MakeBuffer(TSNode target, TSNode call, const CallArgs& args, const BufferCtor& ctor) {
  BufferDecl decl;
  decl.origin = ctor.origin;
  if (!ts_node_is_null(target)) {
    decl.name = std::string(TextOf(target, text_));
    decl.name_range = Rel(target);
  }
  decl.decl_range = Rel(call);
  auto arg = [&](int pos, const char* kw) -> TSNode {
    TSNode k = Keyword(args, kw);
    if (!ts_node_is_null(k)) return k;
    if (pos >= 0 && pos < static_cast<int>(args.positional.size())) return args.positional[pos];
    return TSNode{};
  };
  TSNode shape = arg(ctor.shape_pos, "shape");
  if (!ts_node_is_null(shape)) {
    decl.shape_range = Rel(shape);
    std::vector<TextRange> dims;
    AnnotationContext ctx = ctx_;
    decl.shape = LowerDims(shape, ctx, &dims, /*allow_scalar=*/true);
    for (size_t i = 0; i < dims.size(); ++i) {
      TextRange r = dims[i];
      decl.dim_ranges.push_back(Rel(r));
      decl.dim_spellings.push_back(NumberSpelling(text_.substr(r.begin, r.end - r.begin)));
      // Hover on a dim: which axis it is and its value.
      if (decl.shape && i < decl.shape->size()) {
        const arith::Expr& e = (*decl.shape)[i];
        std::string what = e.AsConst() ? "the extent of axis " + std::to_string(i) + " of " +
                                             std::to_string(decl.shape->size()) + ", a constant"
                                       : "the extent of axis " + std::to_string(i) + " of " +
                                             std::to_string(decl.shape->size()) +
                                             ", symbolic (bound where the function is called)";
        fn_->hovers.push_back({Rel(r), "dim " + std::to_string(i) + ": " + e.ToString(), what});
      }
    }
  }
  TSNode dtype = arg(ctor.dtype_pos, "dtype");
  if (!ts_node_is_null(dtype)) {
    auto d = DTypeOf(dtype, text_, aliases_);
    decl.dtype = d ? *d : "";
    // Hover on the dtype: what it is and its element size.
    if (d && Is(dtype, "string")) {
      std::string about = vocab::DescribeDType(*d);
      if (!about.empty()) fn_->hovers.push_back({Rel(dtype), "dtype \"" + *d + "\"", about});
    }
  }
  TSNode scope = arg(ctor.scope_pos, "scope");
  if (auto s = ts_node_is_null(scope) ? std::nullopt : StringValue(scope, text_)) decl.scope = *s;
  if (args.splat) decl.shape.reset();
  decl.view = args.splat || !ts_node_is_null(Keyword(args, "data")) ||
              !ts_node_is_null(Keyword(args, "strides")) || !ts_node_is_null(Keyword(args, "elem_offset")) ||
              static_cast<int>(args.positional.size()) > ctor.dtype_pos + 1;
  CheckAxisSeparators(decl, args);
  return decl;
}

void PrimLowering::CheckAxisSeparators(const BufferDecl& decl, const CallArgs& args) {
  TSNode value = Keyword(args, "axis_separators");
  if (ts_node_is_null(value) || !decl.shape) return;
  value = Unparen(value);
  if (!Is(value, "list") && !Is(value, "tuple")) return;
  check::AxisSeparators event;
  event.buffer = &decl;
  for (TSNode c : NamedChildren(value)) {
    if (Is(c, "comment")) continue;
    auto v = IntValue(c, text_);
    if (!v) return;  // symbolic separators: unknown, silent
    event.item_ranges.push_back(Rel(c));
    event.values.push_back(*v);
  }
  if (event.values.empty()) return;
  event.list_range = Rel(value);
  for (TSNode k : args.keyword_nodes) {
    if (TextOf(Field(k, "name"), text_) == "axis_separators") event.keyword_removal = KeywordRemoval(k);
  }
  checks().Report(&check::Check::OnAxisSeparators, event);
}

TextRange PrimLowering::KeywordRemoval(TSNode k) const {
  uint32_t begin = ts_node_start_byte(k), end = ts_node_end_byte(k);
  uint32_t b = begin;
  while (b > 0 && (text_[b - 1] == ' ' || text_[b - 1] == '\n' || text_[b - 1] == '\t')) --b;
  if (b > 0 && text_[b - 1] == ',') {
    begin = b - 1;
  } else {
    uint32_t e = end;
    while (e < text_.size() && (text_[e] == ' ' || text_[e] == '\n' || text_[e] == '\t')) ++e;
    if (e < text_.size() && text_[e] == ',') {
      end = e + 1;
      while (end < text_.size() && text_[end] == ' ') ++end;
    }
  }
  return Rel(TextRange{begin, end});
}

void PrimLowering::AddBufferSymbol(const BufferDecl& b) {
  if (b.name.empty()) return;
  Symbol s;
  s.kind = Symbol::Kind::kBuffer;
  s.name = b.name;
  s.definition = b.name_range;
  s.detail = b.name + ": T.Buffer(" + (b.shape ? types::PrintShape(*b.shape) : "?") + ", \"" +
             b.dtype + "\"" + (b.scope != "global" ? ", scope=\"" + b.scope + "\"" : "") + ")";
  buffers_[b.name] = static_cast<int>(fn_->symbols.size());
  buffer_decls_[b.name] = b;
  block_regions_.Declare(b);
  compacted_.erase(b.name);
  fn_->symbols.push_back(std::move(s));
}

void PrimLowering::Walk(TSNode node) {
  if (ts_node_is_null(node)) return;
  ForEachNode(node, [&](TSNode n) { return Visit(n); });
}

bool PrimLowering::Visit(TSNode n) {
  if (Is(n, "for_statement")) return VisitFor(n);
  if (Is(n, "if_statement")) return VisitIf(n);
  if (Is(n, "while_statement")) return VisitGuarded(n, Field(n, "condition"), Field(n, "body"));
  if (Is(n, "assert_statement")) return VisitAssert(n);  // what follows runs where c holds
  if (Is(n, "with_statement") && VisitWith(n)) return false;
  if (Is(n, "function_definition") || Is(n, "lambda")) return false;  // Python closures: not TIR
  if (Is(n, "assignment") || Is(n, "augmented_assignment")) {
    TSNode target, call;
    if (Is(n, "assignment") && AssignedCall(n, &target, &call)) DeclareFromCall(target, call);
    if (Is(n, "assignment") && VisitAxis(n)) return false;
    if (Is(n, "assignment")) {
      Walk(Field(n, "right"));
      Walk(Field(n, "type"));
      BindLets(Field(n, "left"));
      Walk(Field(n, "left"));
      return false;
    }
    if (Is(Field(n, "left"), "subscript")) {  // `A[i] += x` loads and stores
      Walk(Field(n, "right"));
      Walk(Field(n, "left"));
      return false;
    }
  } else if (Is(n, "call") && VisitGuardCall(n)) {
    return false;
  } else if (Is(n, "call") && TirCall(n) == "match_buffer") {
    ++match_depth_;
    Walk(Field(n, "arguments"));
    --match_depth_;
    return false;
  } else if (Is(n, "call")) {
    auto path = DottedPath(Field(n, "function"), text_);
    if (path && path->size() == 2 && IsAlias(aliases_.tir, *path) &&
        ((*path)[1] == "reads" || (*path)[1] == "writes")) {
      // Region annotations are not accesses: only their arity is checked.
      ++region_depth_;
      ForEachNode(Field(n, "arguments"), [&](TSNode k) { return Visit(k); });
      --region_depth_;
      return false;
    }
    if (path && path->size() == 2 && IsAlias(aliases_.tir, *path)) {
      const BufferCtor* ctor = FindCtor((*path)[1]);
      if (ctor != nullptr && !declared_calls_.count(ts_node_start_byte(n)) &&
          ctor->origin != BufferDecl::Origin::kMatchBuffer) {
        CallArgs args = ArgsOf(n, text_);
        MakeBuffer(TSNode{}, n, args, *ctor);
      }
    }
  } else if (Is(n, "subscript")) {
    CheckAccess(n, region_depth_ > 0);
    if (region_depth_ == 0 && binding_depth_ == 0 && match_depth_ == 0) block_regions_.Access(n);
    for (TSNode c : NamedChildren(n)) Walk(c);
    return false;
  } else if (Is(n, "attribute")) {
    Walk(Field(n, "object"));  // `A.data`: the name after the dot is not a reference
    return false;
  } else if (Is(n, "keyword_argument")) {
    Walk(Field(n, "value"));  // nor is a keyword's name
    return false;
  } else if (Is(n, "identifier")) {
    std::string name(TextOf(n, text_));
    int symbol = -1;
    if (auto it = buffers_.find(name); it != buffers_.end()) {
      symbol = it->second;
    } else if (auto v = vars_.find(name); v != vars_.end()) {
      symbol = v->second;
    }
    if (symbol >= 0) {
      TextRange r = Rel(n);
      Symbol& s = fn_->symbols[symbol];
      if (r != s.definition) s.references.push_back(r);
    }
    CheckLoopVarUse(n, name);
    return false;
  }
  return true;
}

void PrimLowering::DeclareFromCall(TSNode target, TSNode call) {
  auto path = DottedPath(Field(call, "function"), text_);
  if (!path || path->size() != 2 || !IsAlias(aliases_.tir, *path)) return;
  const BufferCtor* ctor = FindCtor((*path)[1]);
  if (ctor == nullptr) return;
  std::string name(TextOf(target, text_));
  declared_calls_.insert(ts_node_start_byte(call));
  if (!regions_.empty()) regions_.back().locals.insert(name);
  // Parameter buffers bound by match_buffer were made by Signature().
  for (const BufferDecl& b : fn_->prim.buffers) {
    if (b.name == name && b.decl_range == Rel(call)) {
      if (!buffers_.count(name)) AddBufferSymbol(b);
      return;
    }
  }
  CallArgs args = ArgsOf(call, text_);
  BufferDecl decl = MakeBuffer(target, call, args, *ctor);
  AddBufferSymbol(decl);
  // Any T.alloc_buffer / T.sblock_alloc_buffer, the root block's and the function's too: TVM's
  // lowering moves and resizes them all (check::CompactedAccess).
  if (ctor->origin == BufferDecl::Origin::kAllocBuffer) {
    compacted_[name] = Allocation{static_cast<uint32_t>(ts_node_start_byte(call)), scopes_.size(), StorageRank(decl.scope)};
  }
}

void PrimLowering::CheckAccess(TSNode sub, bool region_only) {
  TSNode value = Field(sub, "value");
  if (!Is(value, "identifier")) return;
  std::string name(TextOf(value, text_));
  auto it = buffer_decls_.find(name);
  if (it == buffer_decls_.end()) return;
  const BufferDecl& b = it->second;
  // A[()] is a 0-d access; a single tuple index `A[(i, j)]` spreads.
  std::vector<TSNode> indices = SubscriptIndices(sub);
  for (TSNode i : indices) {
    if (Is(i, "list_splat")) return;
  }
  // A[tuple(idx)] / A[idx_list]: Python spreads a tuple value into several indices.
  if (indices.size() == 1 && Is(Unparen(indices[0]), "call")) {
    std::string_view f = TextOf(Field(Unparen(indices[0]), "function"), text_);
    if (f == "tuple" || f == "list") return;
  }
  if (!b.shape) return;
  check::BufferAccess access;
  access.buffer = &b;
  access.name = name;
  access.index_range = Rel(TextRange{ts_node_start_byte(indices.empty() ? sub : indices.front()),
                                     ts_node_end_byte(indices.empty() ? sub : indices.back())});
  auto alloc = compacted_.find(name);
  std::shared_ptr<const WithinState> state;  // made for the first index that needs it
  for (TSNode index : indices) {
    check::BufferAccess::Index idx{Rel(index), IntValue(index, text_), std::string(TextOf(index, text_)), {}, {}};
    if (!idx.value && !region_only && !Is(index, "slice")) {
      if (std::optional<arith::Expr> e = Resolve(index)) {
        idx.reach = ReachOf(*e);
        if (idx.reach && alloc != compacted_.end()) {
          if (!state) state = SnapshotForWithin(alloc->second);
          idx.within = WithinOf(*e, state);
        }
      }
    }
    access.indices.push_back(std::move(idx));
  }
  if (alloc != compacted_.end() && !region_only) {
    access.compacted = check::CompactedAccess{alloc->second.id, {}};
    for (size_t i = alloc->second.depth; i < scopes_.size(); ++i) access.compacted->path.push_back(scopes_[i].id);
  }
  access.region = region_only;
  // The current era (tirx) reads `A[0]` on a 3-D buffer as a region.
  access.partial_allowed = aliases_.current;
  checks().Report(&check::Check::OnBufferAccess, access);
}

}  // namespace tvmls::analysis::prim_lowering

namespace tvmls::analysis {

using prim_lowering::PrimLowering;

void LowerPrimSignature(TSNode def, std::string_view text, const Aliases& aliases,
                        FunctionModel* fn) {
  PrimLowering(def, text, aliases, fn).Signature();
}

void LowerPrimBody(TSNode def, std::string_view text, const Aliases& aliases, FunctionModel* fn,
                   const ModuleContext* ctx) {
  fn->symbols.clear();
  fn->diagnostics.clear();
  fn->hovers.clear();
  // The signature pass reports the parameters' axis separators, so it runs again with the body
  // (same text, same signature and hash).
  fn->prim = PrimSignature{};
  PrimLowering lowering(def, text, aliases, fn);
  lowering.Signature();
  lowering.Body();
  lowering.Finish();
  fn->outer_lookups.clear();
  if (ctx != nullptr) CheckPrimUndefinedNames(def, text, *ctx, fn);
}

}  // namespace tvmls::analysis
