#include "model/lower.h"

#include "model/lower_internal.h"
#include "model/syntax_util.h"

namespace tvmls::analysis {

std::shared_ptr<FunctionModel> LowerSignature(TSNode def, std::string_view text,
                                              const Aliases& aliases, bool is_prim) {
  auto fn = std::make_shared<FunctionModel>();
  fn->kind = is_prim ? FunctionModel::Kind::kPrim : FunctionModel::Kind::kRelax;
  uint32_t base = ts_node_start_byte(def);
  TSNode func = Is(def, "decorated_definition") ? Field(def, "definition") : def;
  TSNode name = Field(func, "name");
  fn->name = std::string(TextOf(name, text));
  fn->range = {0, ts_node_end_byte(def) - base};
  if (!ts_node_is_null(name)) fn->name_range = {ts_node_start_byte(name) - base, ts_node_end_byte(name) - base};
  for (TSNode d : Is(def, "decorated_definition") ? NamedChildren(def) : std::vector<TSNode>{}) {
    TSNode call = Is(d, "decorator") ? Field(d, "value") : TSNode{};
    if (!Is(call, "call")) continue;
    CallArgs args = ArgsOf(call, text);
    for (const auto& [key, value] : args.keywords) {
      if (key == "private" && Is(Unparen(value), "true")) fn->is_private = true;
    }
  }
  if (is_prim) {
    LowerPrimSignature(def, text, aliases, fn.get());
  } else {
    LowerRelaxSignature(def, text, aliases, fn.get());
  }
  // Callers' related locations point at the name.
  fn->signature_hash = HashString(std::to_string(fn->name_range.begin), fn->signature_hash);
  return fn;
}

bool IsPythonBuiltin(std::string_view name) {
  // Python's builtins (3.12), and names tvmls takes as defined in any test file: the printer's
  // `metadata`, the usual imports, a method's `self`.
  static const std::set<std::string_view> kBuiltins = {
      "ArithmeticError", "AssertionError", "AttributeError", "BaseException", "BaseExceptionGroup",
      "BlockingIOError", "BrokenPipeError", "BufferError", "BytesWarning", "ChildProcessError",
      "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
      "DeprecationWarning", "EOFError", "Ellipsis", "EncodingWarning", "EnvironmentError",
      "Exception", "ExceptionGroup", "False", "FileExistsError", "FileNotFoundError",
      "FloatingPointError", "FutureWarning", "GeneratorExit", "IOError", "ImportError",
      "ImportWarning", "IndentationError", "IndexError", "InterruptedError", "IsADirectoryError",
      "KeyError", "KeyboardInterrupt", "LookupError", "MemoryError", "ModuleNotFoundError",
      "NameError", "None", "NotADirectoryError", "NotImplemented", "NotImplementedError", "OSError",
      "OverflowError", "PendingDeprecationWarning", "PermissionError", "ProcessLookupError",
      "RecursionError", "ReferenceError", "ResourceWarning", "RuntimeError", "RuntimeWarning",
      "StopAsyncIteration", "StopIteration", "SyntaxError", "SyntaxWarning", "SystemError",
      "SystemExit", "TabError", "TimeoutError", "True", "TypeError", "UnboundLocalError",
      "UnicodeDecodeError", "UnicodeEncodeError", "UnicodeError", "UnicodeTranslateError",
      "UnicodeWarning", "UserWarning", "ValueError", "Warning", "ZeroDivisionError", "abs", "aiter",
      "all", "anext", "any", "ascii", "bin", "bool", "breakpoint", "bytearray", "bytes", "callable",
      "chr", "classmethod", "compile", "complex", "copyright", "credits", "delattr", "dict", "dir",
      "divmod", "enumerate", "eval", "exec", "exit", "filter", "float", "format", "frozenset",
      "getattr", "globals", "hasattr", "hash", "help", "hex", "id", "input", "int", "isinstance",
      "issubclass", "iter", "len", "license", "list", "locals", "map", "max", "memoryview", "min",
      "next", "object", "oct", "open", "ord", "pow", "print", "property", "quit", "range", "repr",
      "reversed", "round", "set", "setattr", "slice", "sorted", "staticmethod", "str", "sum", "super",
      "tuple", "type", "vars", "zip", "__name__", "__file__", "__doc__", "__spec__", "__package__",
      "__loader__", "__builtins__", "__debug__", "__import__",
      "metadata", "tvm", "np", "numpy", "pytest", "self"};
  return kBuiltins.count(name) > 0;
}

void CompactModel(FunctionModel* fn) {
  fn->diagnostics.shrink_to_fit();
  fn->symbols.shrink_to_fit();
  for (Symbol& s : fn->symbols) s.references.shrink_to_fit();
  fn->hovers.shrink_to_fit();
  fn->inlays.shrink_to_fit();
  fn->returns.shrink_to_fit();
  fn->dataflow_blocks.shrink_to_fit();
  fn->calls.shrink_to_fit();
  fn->cross_refs.shrink_to_fit();
}

check::ParserRule ChainedAssignmentRule(TSNode assign, std::string_view text, uint32_t base) {
  auto rel = [&](uint32_t b, uint32_t e) { return TextRange{b - base, e - base}; };
  TSNode left = Field(assign, "left");
  TSNode inner = Field(assign, "right");
  TSNode second = Field(inner, "left");
  check::ParserRule r;
  r.kind = check::ParserRule::Kind::kChainedAssignment;
  r.range = rel(ts_node_start_byte(second), ts_node_end_byte(second));
  r.related = rel(ts_node_start_byte(left), ts_node_end_byte(left));
  TSNode value = Field(inner, "right");
  if (Is(left, "identifier") && Is(second, "identifier") && !ts_node_is_null(value) && !Is(value, "assignment") &&
      ts_node_is_null(Field(assign, "annotation")) && ts_node_is_null(Field(inner, "annotation"))) {
    uint32_t start = ts_node_start_byte(assign);
    uint32_t line_start = start;
    while (line_start > 0 && text[line_start - 1] != '\n') --line_start;
    std::string indent(text.substr(line_start, start - line_start));
    bool blank = indent.find_first_not_of(" \t") == std::string::npos;
    if (blank) {
      std::string a(TextOf(left, text)), b(TextOf(second, text));
      r.detail = a + " = " + b;
      r.edits.push_back({rel(start, ts_node_start_byte(second)), ""});
      uint32_t end = ts_node_end_byte(assign);
      r.edits.push_back({rel(end, end), "\n" + indent + r.detail});
    }
  }
  return r;
}

void LowerBody(TSNode def, std::string_view text, const ModuleContext& ctx, FunctionModel* fn) {
  fn->cross_refs.clear();
  fn->returns.clear();
  if (fn->kind == FunctionModel::Kind::kPrim) {
    LowerPrimBody(def, text, *ctx.aliases, fn, &ctx);
    CheckBlockAttrs(def, text, *ctx.aliases, fn);
  } else {
    LowerRelaxBody(def, text, ctx, fn);
  }
  LowerTirNames(def, text, *ctx.aliases, fn);
  CompactModel(fn);
}

}  // namespace tvmls::analysis
