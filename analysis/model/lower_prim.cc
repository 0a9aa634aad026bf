// PrimFunc lowering: parameters, buffers (parameter annotations, match_buffer, alloc_buffer,
// decl_buffer, T.Buffer), buffer accesses; checks invalid-axis-separators, buffer-index-arity and
// buffer-index-out-of-bounds.
#include <algorithm>

#include "check/check.h"
#include "model/annotation.h"
#include "model/lower.h"
#include "model/lower_internal.h"
#include "model/syntax_util.h"
#include "vocab/dtype.h"

namespace tvmls::analysis {

namespace {


// Positional index of `dtype` per buffer-creating function (match_buffer takes the param first).
struct BufferCtor {
  const char* name;
  BufferDecl::Origin origin;
  int shape_pos;
  int dtype_pos;
  int scope_pos;
};
constexpr BufferCtor kBufferCtors[] = {
    {"match_buffer", BufferDecl::Origin::kMatchBuffer, 1, 2, 6},
    {"alloc_buffer", BufferDecl::Origin::kAllocBuffer, 0, 1, 5},
    {"sblock_alloc_buffer", BufferDecl::Origin::kAllocBuffer, 0, 1, 5},
    {"decl_buffer", BufferDecl::Origin::kDeclBuffer, 0, 1, 5},
    {"Buffer", BufferDecl::Origin::kBufferCtor, 0, 1, 5},
    {"buffer", BufferDecl::Origin::kBufferCtor, 0, 1, 5},
    {"buffer_decl", BufferDecl::Origin::kBufferCtor, 0, 1, 5},
};

const BufferCtor* FindCtor(const std::string& name) {
  for (const BufferCtor& c : kBufferCtors) {
    if (name == c.name) return &c;
  }
  return nullptr;
}

class PrimLowering {
 public:
  PrimLowering(TSNode def, std::string_view text, const Aliases& aliases, FunctionModel* fn)
      : text_(text), aliases_(aliases), fn_(fn), base_(ts_node_start_byte(def)) {
    ctx_.text = text;
    ctx_.aliases = &aliases;
    func_ = Is(def, "decorated_definition") ? Field(def, "definition") : def;
  }

  void Signature() {
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
    // Stores to buffers make a direct call impure; known before the body is lowered.
    fn_->prim.writes = false;
    ForEachNode(body, [&](TSNode n) {
      if ((Is(n, "assignment") || Is(n, "augmented_assignment")) && Is(Field(n, "left"), "subscript")) {
        fn_->prim.writes = true;
      }
      return !fn_->prim.writes;
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

  void Body() {
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
    Walk(Field(func_, "body"));
  }

 private:
  TextRange Rel(TSNode n) const {
    if (ts_node_is_null(n)) return {};
    return {ts_node_start_byte(n) - base_, ts_node_end_byte(n) - base_};
  }
  TextRange Rel(TextRange r) const { return {r.begin - base_, r.end - base_}; }

  void ClassifyParam(TSNode ann, PrimSignature::Param* param) {
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

  // `B = T.match_buffer(...)` / `B: T.Buffer(...) = ...`: the target identifier and the call.
  bool AssignedCall(TSNode stmt, TSNode* target, TSNode* call) {
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

  BufferDecl MakeBuffer(TSNode target, TSNode call, const CallArgs& args, const BufferCtor& ctor) {
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
    CheckAxisSeparators(decl, args);
    return decl;
  }

  // Reports `axis_separators=[...]` (all constant) to the checks.
  void CheckAxisSeparators(const BufferDecl& decl, const CallArgs& args) {
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

  // The range that deletes the keyword argument `k` with the comma joining it to its neighbour:
  // the comma before it, or (first argument) the comma and spaces after it.
  TextRange KeywordRemoval(TSNode k) const {
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

  void AddBufferSymbol(const BufferDecl& b) {
    if (b.name.empty()) return;
    Symbol s;
    s.kind = Symbol::Kind::kBuffer;
    s.name = b.name;
    s.definition = b.name_range;
    s.detail = b.name + ": T.Buffer(" + (b.shape ? types::PrintShape(*b.shape) : "?") + ", \"" +
               b.dtype + "\"" + (b.scope != "global" ? ", scope=\"" + b.scope + "\"" : "") + ")";
    buffers_[b.name] = static_cast<int>(fn_->symbols.size());
    buffer_decls_[b.name] = b;
    fn_->symbols.push_back(std::move(s));
  }

  // Walks the body: buffer declarations, accesses, stores.
  void Walk(TSNode node) {
    if (ts_node_is_null(node)) return;
    ForEachNode(node, [&](TSNode n) { return Visit(n); });
  }

  // Returns whether to descend into n.
  bool Visit(TSNode n) {
    if (Is(n, "assignment") || Is(n, "augmented_assignment")) {
      TSNode target, call;
      if (Is(n, "assignment") && AssignedCall(n, &target, &call)) DeclareFromCall(target, call);
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
      return false;
    }
    return true;
  }

  void DeclareFromCall(TSNode target, TSNode call) {
    auto path = DottedPath(Field(call, "function"), text_);
    if (!path || path->size() != 2 || !IsAlias(aliases_.tir, *path)) return;
    const BufferCtor* ctor = FindCtor((*path)[1]);
    if (ctor == nullptr) return;
    std::string name(TextOf(target, text_));
    declared_calls_.insert(ts_node_start_byte(call));
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
  }

  void CheckAccess(TSNode sub, bool region_only) {
    TSNode value = Field(sub, "value");
    if (!Is(value, "identifier")) return;
    std::string name(TextOf(value, text_));
    auto it = buffer_decls_.find(name);
    if (it == buffer_decls_.end() || !it->second.shape) return;
    const BufferDecl& b = it->second;
    std::vector<TSNode> indices;
    TSTreeCursor c = ts_tree_cursor_new(sub);
    if (ts_tree_cursor_goto_first_child(&c)) {
      do {
        const char* field = ts_tree_cursor_current_field_name(&c);
        if (field != nullptr && std::string_view(field) == "subscript") {
          indices.push_back(ts_tree_cursor_current_node(&c));
        }
      } while (ts_tree_cursor_goto_next_sibling(&c));
    }
    ts_tree_cursor_delete(&c);
    // A[()] is a 0-d access; a single tuple index `A[(i, j)]` spreads.
    if (indices.size() == 1 && Is(Unparen(indices[0]), "tuple")) {
      TSNode t = Unparen(indices[0]);
      indices.clear();
      for (TSNode k : NamedChildren(t)) {
        if (!Is(k, "comment")) indices.push_back(k);
      }
    }
    for (TSNode i : indices) {
      if (Is(i, "list_splat")) return;
    }
    // A[tuple(idx)] / A[idx_list]: Python spreads a tuple value into several indices.
    if (indices.size() == 1 && Is(Unparen(indices[0]), "call")) {
      std::string_view f = TextOf(Field(Unparen(indices[0]), "function"), text_);
      if (f == "tuple" || f == "list") return;
    }
    check::BufferAccess access;
    access.buffer = &b;
    access.name = name;
    access.index_range = Rel(TextRange{ts_node_start_byte(indices.empty() ? sub : indices.front()),
                                       ts_node_end_byte(indices.empty() ? sub : indices.back())});
    for (TSNode index : indices) access.indices.push_back({Rel(index), IntValue(index, text_)});
    access.region = region_only;
    // The current era (tirx) reads `A[0]` on a 3-D buffer as a region.
    access.partial_allowed = aliases_.current;
    checks().Report(&check::Check::OnBufferAccess, access);
  }

  std::string_view text_;
  const Aliases& aliases_;
  FunctionModel* fn_;
  uint32_t base_;
  TSNode func_;
  AnnotationContext ctx_;
  std::map<std::string, int> buffers_;  // buffer name -> symbol
  std::map<std::string, int> vars_;     // scalar and handle parameter name -> symbol
  std::map<std::string, BufferDecl> buffer_decls_;
  std::set<uint32_t> declared_calls_;
  int region_depth_ = 0;
  check::LazyChecks checks{fn_};  // the checks of this function (check/check.h)

 public:
  void Finish() { checks.End(); }
};

// `undefined-name` in a PrimFunc, flow-insensitively: a name used anywhere in the function that is
// bound nowhere in it (parameters, assignment / loop / `with ... as` targets, nested definitions)
// and is not a name of the surrounding Python, an alias or a builtin. Catches typos without
// judging the order of definitions (TVM's parser does, but ordering mistakes are rare and
// closures make them hard to judge).
class TirNames {
 public:
  TirNames(TSNode def, std::string_view text, const ModuleContext& ctx, FunctionModel* fn)
      : def_(def), text_(text), ctx_(ctx), fn_(fn), base_(ts_node_start_byte(def)) {}

  void Check() {
    if (ctx_.star_import) return;
    TSNode func = Is(def_, "decorated_definition") ? Field(def_, "definition") : def_;
    Bind(Field(func, "parameters"));
    ForEachNode(Field(func, "body"), [&](TSNode n) {
      if (Is(n, "assignment") || Is(n, "augmented_assignment") || Is(n, "for_statement") ||
          Is(n, "for_in_clause")) {
        Targets(Field(n, "left"));
      } else if (Is(n, "with_item")) {
        TSNode alias = Field(n, "alias");
        if (!ts_node_is_null(alias)) Targets(alias);
      } else if (Is(n, "as_pattern_target") || Is(n, "named_expression")) {
        Targets(Is(n, "named_expression") ? Field(n, "name") : n);
      } else if (Is(n, "function_definition") || Is(n, "class_definition")) {
        Targets(Field(n, "name"));
        Bind(Field(n, "parameters"));
      } else if (Is(n, "lambda")) {
        Bind(Field(n, "parameters"));
      } else if (Is(n, "global_statement") || Is(n, "nonlocal_statement") || Is(n, "import_statement") ||
                 Is(n, "import_from_statement")) {
        give_up_ = true;  // Python-level scoping: not ours to judge
      }
      return true;
    });
    if (give_up_) return;
    std::set<std::string> reported;
    ForEachNode(Field(func, "body"), [&](TSNode n) { return Visit(n, &reported); });
  }

 private:
  bool Visit(TSNode n, std::set<std::string>* reported) {
    if (Is(n, "attribute")) {
      Use(Field(n, "object"), reported);
      return false;
    }
    if (Is(n, "keyword_argument")) {
      ForEachNode(Field(n, "value"), [&](TSNode k) { return Visit(k, reported); });
      return false;
    }
    if (Is(n, "identifier")) {
      Use(n, reported);
      return false;
    }
    return !Is(n, "string");
  }

  void Use(TSNode n, std::set<std::string>* reported) {
    if (Is(n, "attribute")) {
      Use(Field(n, "object"), reported);
      return;
    }
    if (!Is(n, "identifier")) {
      ForEachNode(n, [&](TSNode k) { return Visit(k, reported); });
      return;
    }
    std::string name(TextOf(n, text_));
    if (bound_.count(name) || reported->count(name)) return;
    if (Known(name)) {
      bound_.insert(name);  // resolved once per function
      return;
    }
    reported->insert(name);
    check::ScopeProblem p;
    p.kind = check::ScopeProblem::Kind::kUndefinedInPrimFunc;
    p.range = {ts_node_start_byte(n) - base_, ts_node_end_byte(n) - base_};
    p.name = name;
    p.function = fn_->name;
    checks().Report(&check::Check::OnScopeProblem, p);
  }

  bool Known(const std::string& name) const {
    const Aliases& a = *ctx_.aliases;
    if (a.tir.count(name) || a.relax.count(name) || a.ir.count(name) || a.tvm.count(name)) return true;
    bool python = ctx_.python_names != nullptr && ctx_.python_names->count(name) > 0;
    fn_->outer_lookups[name] = python;
    if (python) return true;
    if (IsPythonBuiltin(name)) return true;
    return name == ctx_.module_name || ctx_.extern_globals.count(name) > 0;
  }

  void Targets(TSNode n) {
    if (ts_node_is_null(n)) return;
    if (Is(n, "identifier")) {
      bound_.insert(std::string(TextOf(n, text_)));
      return;
    }
    if (Is(n, "attribute") || Is(n, "subscript")) return;
    for (TSNode c : NamedChildren(n)) Targets(c);
  }

  void Bind(TSNode params) {
    if (ts_node_is_null(params)) return;
    for (TSNode p : NamedChildren(params)) {
      if (Is(p, "identifier")) {
        Targets(p);
        continue;
      }
      TSNode name = Field(p, "name");
      if (!ts_node_is_null(name)) Targets(name);
      for (TSNode c : NamedChildren(p)) {
        if (Is(c, "identifier") && ts_node_is_null(name)) Targets(c);  // *args, **kw
      }
    }
  }

  TSNode def_;
  std::string_view text_;
  const ModuleContext& ctx_;
  FunctionModel* fn_;
  uint32_t base_;
  std::set<std::string> bound_;
  bool give_up_ = false;
  check::LazyChecks checks{fn_};

 public:
  void Finish() { checks.End(); }
};

}  // namespace

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
  if (ctx != nullptr) {
    TirNames names(def, text, *ctx, fn);
    names.Check();
    names.Finish();
  }
}

}  // namespace tvmls::analysis
