#include "model/annotation.h"

#include "model/syntax_util.h"
#include "vocab/dtype.h"

namespace tvmls::analysis {

namespace {

using types::StructInfo;

bool IsDTypeName(const std::string& s) { return vocab::IsKnownDType(s); }

// The callee path of a call or the path of a bare attribute.
std::optional<std::vector<std::string>> HeadPath(TSNode n, std::string_view text, TSNode* call) {
  n = Unparen(n);
  *call = TSNode{};
  if (Is(n, "call")) {
    *call = n;
    return DottedPath(Field(n, "function"), text);
  }
  if (Is(n, "subscript")) {  // deprecated R.Tensor[(2, 3), "float32"]
    *call = n;
    return DottedPath(Field(n, "value"), text);
  }
  return DottedPath(n, text);
}

// Positional and keyword arguments of a call or of an old-style subscript annotation.
CallArgs AnnotationArgs(TSNode call, std::string_view text) {
  if (Is(call, "call")) return ArgsOf(call, text);
  CallArgs args;
  for (TSNode c : NamedChildren(call)) {
    if (ts_node_eq(c, Field(call, "value")) || Is(c, "comment")) continue;
    args.positional.push_back(c);
  }
  if (args.positional.size() == 1 && Is(args.positional[0], "tuple")) {
    std::vector<TSNode> inner;
    for (TSNode c : NamedChildren(args.positional[0])) {
      if (!Is(c, "comment")) inner.push_back(c);
    }
    args.positional = inner;
  }
  return args;
}

}  // namespace

bool IsAlias(const std::set<std::string>& aliases, const std::vector<std::string>& path) {
  return !path.empty() && aliases.count(path[0]) > 0;
}

std::optional<std::string> DTypeOf(TSNode node, std::string_view text, const Aliases& aliases) {
  node = Unparen(node);
  if (auto s = StringValue(node, text)) return *s;
  if (auto path = DottedPath(node, text)) {
    if (path->size() == 2 && IsAlias(aliases.tir, *path) && IsDTypeName((*path)[1])) {
      return (*path)[1];
    }
  }
  if (Is(node, "call")) {  // R.dtype("float32")
    auto path = DottedPath(Field(node, "function"), text);
    if (path && path->size() == 2 && IsAlias(aliases.relax, *path) && (*path)[1] == "dtype") {
      CallArgs args = ArgsOf(node, text);
      if (args.positional.size() == 1) return StringValue(args.positional[0], text);
    }
  }
  return std::nullopt;
}

namespace {

// A name, attribute, subscript or call: a value the surrounding Python computes, unknown here.
bool IsPythonValue(TSNode node) {
  return Is(node, "identifier") || Is(node, "attribute") || Is(node, "subscript") || Is(node, "call");
}

}  // namespace

arith::Expr LowerDim(TSNode node, AnnotationContext& ctx) {
  node = Unparen(node);
  std::string_view text = ctx.text;
  auto opaque = [&]() { return arith::Expr::Opaque(std::string(TextOf(node, text))); };
  if (auto v = IntValue(node, text)) return arith::Expr(*v);
  if (Is(node, "identifier")) {
    std::string name(TextOf(node, text));
    if (ctx.on_var) ctx.on_var(name, RangeOf(node), ctx.depth == 0);
    return arith::Expr::Var(name);
  }
  if (Is(node, "string")) {
    auto s = StringValue(node, text);
    if (!s) return opaque();
    auto e = arith::ParseExpr(*s);
    if (!e) return opaque();
    if (ctx.on_var) {
      std::set<std::string> vars;
      e->CollectVars(&vars);
      for (const std::string& v : vars) ctx.on_var(v, RangeOf(node), ctx.depth == 0 && e->AsVar() == v);
    }
    return *e;
  }
  struct Nest {
    AnnotationContext& c;
    explicit Nest(AnnotationContext& cc) : c(cc) { ++c.depth; }
    ~Nest() { --c.depth; }
  };
  if (Is(node, "unary_operator")) {
    Nest nest(ctx);
    std::string_view op = TextOf(Field(node, "operator"), text);
    arith::Expr a = LowerDim(Field(node, "argument"), ctx);
    if (op == "-") return -a;
    if (op == "+") return a;
    return opaque();
  }
  if (Is(node, "binary_operator")) {
    Nest nest(ctx);
    std::string_view op = TextOf(Field(node, "operator"), text);
    arith::Expr a = LowerDim(Field(node, "left"), ctx);
    arith::Expr b = LowerDim(Field(node, "right"), ctx);
    if (op == "+") return a + b;
    if (op == "-") return a - b;
    if (op == "*") return a * b;
    if (op == "//") return arith::Expr::FloorDiv(a, b);
    if (op == "%") return arith::Expr::FloorMod(a, b);
    return opaque();
  }
  if (Is(node, "call")) {
    auto path = DottedPath(Field(node, "function"), text);
    CallArgs args = ArgsOf(node, text);
    if (path && path->size() == 2 && IsAlias(ctx.aliases->tir, *path)) {
      const std::string& f = (*path)[1];
      if (IsDTypeName(f) && args.positional.size() == 1 && args.keywords.empty()) {
        return LowerDim(args.positional[0], ctx);
      }
      Nest nest(ctx);
      if (args.positional.size() == 2) {
        arith::Expr a = LowerDim(args.positional[0], ctx);
        arith::Expr b = LowerDim(args.positional[1], ctx);
        if (f == "min") return arith::Expr::Min(a, b);
        if (f == "max") return arith::Expr::Max(a, b);
        if (f == "floordiv") return arith::Expr::FloorDiv(a, b);
        if (f == "floormod") return arith::Expr::FloorMod(a, b);
      }
    }
  }
  return opaque();
}

std::optional<std::vector<arith::Expr>> LowerDims(TSNode node, AnnotationContext& ctx,
                                                  std::vector<TextRange>* dim_ranges,
                                                  bool allow_scalar) {
  node = Unparen(node);
  if (Is(node, "tuple") || Is(node, "list")) {
    std::vector<arith::Expr> dims;
    for (TSNode c : NamedChildren(node)) {
      if (Is(c, "comment")) continue;
      if (Is(c, "list_splat")) return std::nullopt;
      dims.push_back(LowerDim(c, ctx));
      if (dim_ranges) dim_ranges->push_back(RangeOf(c));
    }
    return dims;
  }
  // A bare integer is a 1-D shape; a bare name may hold a whole tuple, so it stays unknown.
  if (allow_scalar && Is(node, "integer")) {
    if (dim_ranges) dim_ranges->push_back(RangeOf(node));
    return std::vector<arith::Expr>{LowerDim(node, ctx)};
  }
  return std::nullopt;
}

// What TVM's R.Tensor(shape, dtype, vdevice, ndim) rejects (v0.23 parser/relax/entry.py and
// relax.TensorStructInfo's constructor; current: relax/script/parser/entry.py and TensorType's).
static void TensorProblems(const CallArgs& args, TSNode shape, TSNode ndim, AnnotationContext& ctx) {
  for (size_t i = 0; i < args.keywords.size() && i < args.keyword_nodes.size(); ++i) {
    const std::string& k = args.keywords[i].first;
    if (k == "shape" || k == "dtype" || k == "ndim" || k == "vdevice") continue;
    TSNode name = Field(args.keyword_nodes[i], "name");
    ctx.on_problem(RangeOf(ts_node_is_null(name) ? args.keyword_nodes[i] : name),
                   "R.Tensor() got an unexpected keyword argument '" + k + "'");
  }
  TSNode s = Unparen(shape);
  if (!ts_node_is_null(s) && (Is(s, "integer") || Is(s, "float"))) {
    ctx.on_problem(RangeOf(s), "the shape of R.Tensor must be a list or tuple of dims (or a shape variable), "
                               "but got the number " + std::string(TextOf(s, ctx.text)));
  }
  TSNode n = Unparen(ndim);
  if (ts_node_is_null(n)) return;
  if (Is(n, "string") || Is(n, "float")) {
    ctx.on_problem(RangeOf(n), "ndim of R.Tensor must be an integer, but got " + std::string(TextOf(n, ctx.text)));
    return;
  }
  auto v = IntValue(n, ctx.text);
  if (!v) return;
  if (*v < -1) {
    ctx.on_problem(RangeOf(n), "ndim of R.Tensor must be >= -1, but got " + std::to_string(*v));
  } else if (*v != -1 && !ts_node_is_null(s) && !Is(s, "none") && (Is(s, "tuple") || Is(s, "list"))) {
    ctx.on_problem(RangeOf(n), "R.Tensor cannot both specify shape and ndim (TVM: \"Cannot both specify shape and "
                               "ndim\"); the shape already gives the rank");
  }
}

types::StructInfo LowerAnnotation(TSNode node, AnnotationContext& ctx) {
  std::string_view text = ctx.text;
  node = Unparen(node);
  if (Is(node, "list") || Is(node, "tuple")) {  // out_sinfo=[A, B]
    std::vector<StructInfo> fields;
    for (TSNode c : NamedChildren(node)) {
      if (Is(c, "comment")) continue;
      fields.push_back(LowerAnnotation(c, ctx));
    }
    return StructInfo::Tuple(std::move(fields));
  }
  TSNode call;
  auto path = HeadPath(node, text, &call);
  if (!path || path->size() != 2) return StructInfo::Unknown();
  if (IsAlias(ctx.aliases->tir, *path) && IsDTypeName((*path)[1]) && ts_node_is_null(call)) {
    return StructInfo::Prim((*path)[1]);  // tirx printer: T.float32 inside tuples
  }
  if (!IsAlias(ctx.aliases->relax, *path)) return StructInfo::Unknown();
  const std::string& head = (*path)[1];
  CallArgs args;
  if (!ts_node_is_null(call)) args = AnnotationArgs(call, text);
  if (args.splat) return StructInfo::Unknown();

  if (head == "Object" || head == "Any") return StructInfo::Object();
  if (head == "DTensor") {
    // Distributed tensors are not modelled; their dims still mention (and define) variables.
    if (!args.positional.empty()) LowerDims(args.positional[0], ctx);
    return StructInfo::Unknown();
  }
  if (head == "Tensor") {
    StructInfo info = StructInfo::TensorNdim(-1, "");
    TSNode shape = TSNode{}, dtype = TSNode{}, ndim = TSNode{};
    size_t next = 0;
    if (!args.positional.empty()) {
      TSNode first = Unparen(args.positional[0]);
      if (Is(first, "string") && args.positional.size() == 1) {
        dtype = first;  // R.Tensor("float32")
        next = 1;
      } else {
        shape = first;
        next = 1;
      }
    }
    // TVM's order: R.Tensor(shape, dtype, vdevice, ndim).
    TSNode vdevice = TSNode{};
    if (next < args.positional.size()) dtype = args.positional[next++];
    if (next < args.positional.size()) vdevice = args.positional[next++];
    if (next < args.positional.size()) ndim = args.positional[next++];
    if (!ts_node_is_null(vdevice)) {
      if (auto v = StringValue(vdevice, text)) info.vdevice = *v;
    }
    if (TSNode k = Keyword(args, "shape"); !ts_node_is_null(k)) shape = k;
    if (TSNode k = Keyword(args, "dtype"); !ts_node_is_null(k)) dtype = k;
    if (TSNode k = Keyword(args, "ndim"); !ts_node_is_null(k)) ndim = k;
    if (TSNode k = Keyword(args, "vdevice"); !ts_node_is_null(k)) {
      if (auto v = StringValue(k, text)) info.vdevice = *v;
    }
    if (ctx.on_problem) TensorProblems(args, shape, ndim, ctx);
    if (!ts_node_is_null(dtype) && !Is(Unparen(dtype), "none")) {
      if (auto d = DTypeOf(dtype, text, *ctx.aliases)) {
        info.dtype = *d;
      } else if (!IsPythonValue(Unparen(dtype))) {
        return StructInfo::Unknown();
      }  // else a dtype from the surrounding Python (`dtype`, `cfg.dtype`): only it is unknown
    }
    if (!ts_node_is_null(ndim)) {
      auto v = IntValue(ndim, text);
      if (!v) return StructInfo::Unknown();
      info.ndim = static_cast<int>(*v);
    }
    if (!ts_node_is_null(shape) && !Is(Unparen(shape), "none")) {
      TSNode s = Unparen(shape);
      if (auto dims = LowerDims(s, ctx)) {
        info.ndim = static_cast<int>(dims->size());
        info.values = std::move(*dims);
      } else if (Is(s, "identifier")) {
        info.shape_var = std::string(TextOf(s, text));
      } else {
        return StructInfo::Unknown();
      }
    }
    return info;
  }
  if (head == "Shape") {
    if (ts_node_is_null(call)) return StructInfo::ShapeNdim(-1);
    TSNode values = args.positional.empty() ? Keyword(args, "values") : args.positional[0];
    if (!ts_node_is_null(values) && !Is(Unparen(values), "none")) {
      auto dims = LowerDims(values, ctx);
      if (!dims) return StructInfo::Unknown();
      return StructInfo::Shape(std::move(*dims));
    }
    TSNode ndim = args.positional.size() > 1 ? args.positional[1] : Keyword(args, "ndim");
    if (!ts_node_is_null(ndim)) {
      auto v = IntValue(ndim, text);
      if (!v) return StructInfo::Unknown();
      return StructInfo::ShapeNdim(static_cast<int>(*v));
    }
    return StructInfo::ShapeNdim(-1);
  }
  if (head == "Tuple") {
    std::vector<StructInfo> fields;
    std::vector<TSNode> items = args.positional;
    if (items.size() == 1 && (Is(Unparen(items[0]), "list") || Is(Unparen(items[0]), "tuple"))) {
      items = NamedChildren(Unparen(items[0]));
    }
    for (TSNode c : items) {
      if (Is(c, "comment")) continue;
      fields.push_back(LowerAnnotation(c, ctx));
    }
    return StructInfo::Tuple(std::move(fields));
  }
  if (head == "Prim") {
    StructInfo info = StructInfo::Prim("");
    TSNode dtype = args.positional.empty() ? Keyword(args, "dtype") : args.positional[0];
    if (!ts_node_is_null(dtype)) {
      auto d = DTypeOf(dtype, text, *ctx.aliases);
      if (!d) return StructInfo::Unknown();
      info.dtype = *d;
    }
    if (TSNode v = Keyword(args, "value"); !ts_node_is_null(v)) {
      info.prim_value = LowerDim(v, ctx);
      if (info.dtype.empty()) info.dtype = "int64";
    }
    return info;
  }
  if (head == "Callable") {
    std::optional<std::vector<StructInfo>> params;
    StructInfo ret = StructInfo::Unknown();
    bool pure = true;
    if (!args.positional.empty()) {
      TSNode p = Unparen(args.positional[0]);
      if (Is(p, "tuple") || Is(p, "list")) {
        params.emplace();
        for (TSNode c : NamedChildren(p)) {
          if (!Is(c, "comment")) params->push_back(LowerAnnotation(c, ctx));
        }
      }
    }
    if (args.positional.size() > 1) ret = LowerAnnotation(args.positional[1], ctx);
    TSNode purity = args.positional.size() > 2 ? args.positional[2] : Keyword(args, "purity");
    if (!ts_node_is_null(purity) && Is(purity, "false")) pure = false;
    if (!params) pure = !ts_node_is_null(purity) && Is(purity, "true");
    return StructInfo::Callable(std::move(params), std::move(ret), pure);
  }
  return StructInfo::Unknown();
}

std::optional<std::vector<TextEdit>> SpelledAnnotationEdits(TSNode ann, std::string_view text,
                                                          const types::StructInfo& declared,
                                                          const types::StructInfo& inferred) {
  if (declared.kind != types::Kind::kTensor || inferred.kind != types::Kind::kTensor) return std::nullopt;
  if (!declared.values || !inferred.values || declared.values->size() != inferred.values->size()) {
    return std::nullopt;
  }
  TSNode call = Unparen(ann);
  if (!Is(call, "call")) return std::nullopt;
  CallArgs args = ArgsOf(call, text);
  TSNode shape = Keyword(args, "shape");
  if (ts_node_is_null(shape) && !args.positional.empty()) shape = args.positional[0];
  shape = Unparen(shape);
  if (!Is(shape, "tuple") && !Is(shape, "list")) return std::nullopt;
  std::vector<TSNode> dims;
  for (TSNode c : NamedChildren(shape)) {
    if (!Is(c, "comment")) dims.push_back(c);
  }
  if (dims.size() != inferred.values->size()) return std::nullopt;
  std::vector<TextEdit> edits;
  for (size_t i = 0; i < dims.size(); ++i) {
    if ((*declared.values)[i] == (*inferred.values)[i]) continue;
    std::string spelling = NumberSpelling(TextOf(dims[i], text));
    if (spelling.empty() || !(*inferred.values)[i].AsConst()) return std::nullopt;
    size_t hole = spelling.find("{}");
    edits.push_back({RangeOf(dims[i]), spelling.substr(0, hole) + (*inferred.values)[i].ToString() +
                                       spelling.substr(hole + 2)});
  }
  if (declared.dtype != inferred.dtype) {
    TSNode dtype = Keyword(args, "dtype");
    if (ts_node_is_null(dtype) && args.positional.size() > 1) dtype = args.positional[1];
    if (ts_node_is_null(dtype) || !Is(dtype, "string") || inferred.dtype.empty()) return std::nullopt;
    std::string_view quoted = TextOf(dtype, text);
    char quote = quoted.empty() ? '"' : quoted.back();
    if (quote != '"' && quote != '\'') return std::nullopt;
    edits.push_back({RangeOf(dtype), std::string(1, quote) + inferred.dtype + std::string(1, quote)});
  }
  if (edits.empty()) return std::nullopt;
  return edits;
}

}  // namespace tvmls::analysis
