// The name table (rows below, grouped by dialect and purpose) and its lookups.
#include "vocab/script_names.h"

#include <array>
#include <unordered_map>

#include "vocab/text_scan.h"

namespace tvmls::vocab {

// The `T.` rows generated from TVM's source (script_names_tir.cc, by gen_tir_names.py).
void TirGeneratedRows(std::vector<ScriptName>* t);

namespace {

constexpr Dialect kT = Dialect::kTir;
constexpr Dialect kR = Dialect::kRelax;
constexpr Dialect kI = Dialect::kIr;
constexpr NameKind F = NameKind::kFunction;
constexpr NameKind Ty = NameKind::kType;
constexpr NameKind Ns = NameKind::kNamespace;
constexpr NameKind Kw = NameKind::kKeyword;
constexpr NameKind Dt = NameKind::kDtype;
constexpr EraTag B = EraTag::kBoth;
constexpr EraTag Cl = EraTag::kClassic;
constexpr EraTag Cu = EraTag::kCurrent;

// Buffer declaration parameters. `buffer_type` and `axis_separators` are gone in the current era.
#define TVMLS_BUFFER_TAIL_CLASSIC \
  "data=None, strides=None, elem_offset=None, scope=\"global\", align=0, offset_factor=0, " \
  "buffer_type=\"\", axis_separators=None"
#define TVMLS_BUFFER_TAIL_CURRENT \
  "data=None, strides=None, elem_offset=None, byte_offset=None, scope=\"global\", align=0, offset_factor=0, " \
  "layout=\"default\""
#define TVMLS_ALLOC_TAIL_CLASSIC \
  "data=None, strides=None, elem_offset=None, scope=\"global\", align=-1, offset_factor=0, " \
  "buffer_type=\"default\", axis_separators=None"
#define TVMLS_ALLOC_TAIL_CURRENT \
  "data=None, strides=None, elem_offset=None, scope=\"global\", align=-1, offset_factor=0, layout=\"default\""
#define TVMLS_DTENSOR_PARAMS \
  "shape=None, dtype=None, device_mesh=DeviceMesh([], Range(0, 1)), placement=\"\", *, ndim=-1"

// clang-format off
// One section of the table (the order of sections is the table's order).
void TirRows1(std::vector<ScriptName>* t) {
  std::vector<ScriptName> rows = {
    // ---- T: decorators and frames
    {kT, "prim_func", Kw, Cl, "func=None, private=False, check_well_formed=True", "Decorator: a TIR PrimFunc."},
    {kT, "prim_func", Kw, Cu, nullptr, "Decorator: a TIR PrimFunc (s_tir=True for schedulable blocks)."},
    {kT, "macro", Kw, B, "*args, hygienic=True", "Decorator: a TIR macro, expanded where it is called."},
    {kT, "block", Kw, Cl, "name=\"\", no_realize=False", "`with T.block(name):` a block with its own iteration domain."},
    {kT, "sblock", Kw, Cu, "name=\"\", no_realize=False, exec_scope=\"\"", "`with T.sblock(name):` a schedulable block with its own iteration domain."},
    {kT, "init", Kw, B, "", "`with T.init():` the reduction initialisation of the enclosing block."},
    {kT, "launch_thread", Kw, B, "thread, extent", "Binds a thread axis (`\"threadIdx.x\"` or an env_thread) with an extent."},
    {kT, "attr", Kw, Cl, "node, attr_key, value", "`with T.attr(node, key, value):` an attribute statement around its body."},
    {kT, "attr", Kw, Cu, "node_or_dict, attr_key=None, value=None", "`with T.attr(node, key, value):` an attribute statement around its body."},
    {kT, "realize", Kw, Cl, "buffer_slice, storage_scope, condition=True", "`with T.realize(region, scope):` realizes a buffer region (classic only)."},
    {kT, "allocate", F, Cl, "extents, dtype, scope=\"global\", condition=None, annotations=None", "Allocates a data pointer of the given extents (classic only).", false, 1},
    {kT, "allocate_const", F, Cl, "data, dtype, extents, annotations=None", "Allocates constant data (classic only).", false, 1},
    {kT, "Assert", Kw, Cl, "condition, message", "An assertion statement around its body."},
    {kT, "LetStmt", F, Cl, "value, type_annotation=None, *, var=None", "A let statement binding a new variable (classic only)."},

    // ---- T: function prologue
    {kT, "func_attr", F, B, "attrs", "Attributes of the enclosing PrimFunc (a dict)."},
    {kT, "func_name", F, B, "name", "Sets the name of the enclosing PrimFunc."},
    {kT, "func_ret", F, B, "ret_type", "Sets the return type of the enclosing PrimFunc."},
    {kT, "arg", F, B, "name, obj", "Adds a parameter to the enclosing PrimFunc."},
    {kT, "match_buffer", F, Cl, "param, shape=None, dtype=\"float32\", " TVMLS_ALLOC_TAIL_CLASSIC, "Binds a handle parameter (or a buffer region) to a buffer of the given shape.", false, 2},
    {kT, "match_buffer", F, Cu, "param, shape=None, dtype=\"float32\", " TVMLS_ALLOC_TAIL_CURRENT, "Binds a handle parameter (or a buffer region) to a buffer of the given shape.", false, 2},

    // ---- T: block contents
    {kT, "axis", Ns, B, nullptr, "Block iteration variables: spatial, reduce, scan, opaque, remap."},
    {kT, "axis.spatial", F, B, "dom, binding, dtype=\"int32\"", "A spatial block iteration variable over `dom`, bound to `binding`.", false, 2},
    {kT, "axis.reduce", F, B, "dom, binding, dtype=\"int32\"", "A reduction block iteration variable over `dom`, bound to `binding`.", false, 2},
    {kT, "axis.scan", F, B, "dom, binding, dtype=\"int32\"", "A scan block iteration variable over `dom`, bound to `binding`.", false, 2},
    {kT, "axis.opaque", F, B, "dom, binding, dtype=\"int32\"", "An opaque block iteration variable over `dom`, bound to `binding`.", false, 2},
    {kT, "axis.remap", F, B, "kinds, bindings, dtype=\"int32\"", "Block iteration variables from loop variables; `kinds` is a string of S/R letters.", false, 2},
    {kT, "axis.S", F, B, "dom, binding, dtype=\"int32\"", "Short for T.axis.spatial.", false, 2},
    {kT, "axis.R", F, B, "dom, binding, dtype=\"int32\"", "Short for T.axis.reduce.", false, 2},
    {kT, "reads", F, B, "*buffer_slices", "The buffer regions the enclosing block reads."},
    {kT, "writes", F, B, "*buffer_slices", "The buffer regions the enclosing block writes."},
    {kT, "where", F, B, "predicate", "The predicate of the enclosing block."},
    {kT, "block_attr", F, Cl, "attrs", "Annotations of the enclosing block (a dict)."},
    {kT, "sblock_attr", F, Cu, "attrs", "Annotations of the enclosing sblock (a dict)."},
    {kT, "alloc_buffer", F, Cl, "shape, dtype=\"float32\", " TVMLS_ALLOC_TAIL_CLASSIC, "Allocates a buffer in the enclosing block (the root block at function level).", false, 1},
    {kT, "alloc_buffer", F, Cu, "shape, dtype=\"float32\", data=None, strides=None, elem_offset=None, byte_offset=None, scope=\"global\", align=-1, offset_factor=0, layout=\"default\", allocated_addr=None, annotations=None", "Allocates a buffer from here to the end of the enclosing scope.", false, 1},
    {kT, "sblock_alloc_buffer", F, Cu, "shape, dtype=\"float32\", " TVMLS_ALLOC_TAIL_CURRENT ", allocated_addr=None", "Allocates a buffer owned by the enclosing sblock.", false, 1},
    {kT, "decl_buffer", F, Cl, "shape, dtype=\"float32\", " TVMLS_BUFFER_TAIL_CLASSIC, "Declares a buffer over existing data (usually `data=` a pointer).", false, 1},
    {kT, "decl_buffer", F, Cu, "shape, dtype=\"float32\", " TVMLS_BUFFER_TAIL_CURRENT ", allocated_addr=None", "Declares a buffer over existing data (usually `data=` a pointer).", false, 1},

    // ---- T: loops
    {kT, "serial", F, Cl, "start, stop=None, *, annotations=None, step=None", "A sequential loop over [start, stop) (or [0, start))."},
    {kT, "serial", F, Cu, "start, stop=None, *, annotations=None, step=None, unroll=None, dtype=None", "A sequential loop over [start, stop) (or [0, start))."},
    {kT, "parallel", F, Cl, "start, stop=None, *, annotations=None, step=None", "A parallel loop over [start, stop) (or [0, start))."},
    {kT, "parallel", F, Cu, "start, stop=None, *, annotations=None, step=None, dtype=None", "A parallel loop over [start, stop) (or [0, start))."},
    {kT, "vectorized", F, Cl, "start, stop=None, *, annotations=None, step=None", "A vectorized loop over [start, stop) (or [0, start))."},
    {kT, "vectorized", F, Cu, "start, stop=None, *, annotations=None, step=None, dtype=None", "A vectorized loop over [start, stop) (or [0, start))."},
    {kT, "unroll", F, Cl, "start, stop=None, *, annotations=None, step=None", "An unrolled loop over [start, stop) (or [0, start))."},
    {kT, "unroll", F, Cu, "start, stop=None, *, annotations=None, step=None, dtype=None", "An unrolled loop over [start, stop) (or [0, start))."},
    {kT, "thread_binding", F, B, "start, stop=None, thread=None, *, annotations=None", "A loop bound to a thread axis such as \"threadIdx.x\"."},
    {kT, "grid", F, Cl, "*extents", "Nested serial loops, one per extent: `for i, j in T.grid(m, n)`."},
    {kT, "grid", F, Cu, "*extents, dtype=None", "Nested serial loops, one per extent: `for i, j in T.grid(m, n)`."},

    // ---- T: statements
    {kT, "env_thread", F, B, "thread_tag, dtype=\"int32\"", "A thread axis variable, launched later with T.launch_thread.", false, 1},
    {kT, "evaluate", F, B, "value", "Evaluates an expression for its side effects."},
    {kT, "buffer_store", F, B, "buffer, value, indices, predicate=None", "Stores `value` into `buffer` at `indices`."},
    {kT, "bind", F, Cu, nullptr, "Binds a value to a new immutable variable (the current era's let statement)."},
    {kT, "let", F, Cl, "v, value, body=None", "Let binding of `v` to `value` (deprecated: use T.Let or an assignment).", true},
    {kT, "let", Ty, Cu, nullptr, "Annotation of an immutable binding: `x: T.let[T.int32] = value`."},
    {kT, "Let", F, B, "expr, where", "Let expression: `expr` with the single binding in the dict `where`."},

    // ---- T: types
    {kT, "Buffer", Ty, Cl, "shape, dtype=\"float32\", " TVMLS_BUFFER_TAIL_CLASSIC, "A TIR buffer: parameter annotation or buffer declaration.", false, 1},
    {kT, "Buffer", Ty, Cu, "shape, dtype=\"float32\", " TVMLS_BUFFER_TAIL_CURRENT, "A TIR buffer: parameter annotation or buffer declaration.", false, 1},
    {kT, "buffer", F, Cl, "shape, dtype=\"float32\", " TVMLS_BUFFER_TAIL_CLASSIC, "Declares a buffer object (as T.Buffer).", false, 1},
    {kT, "buffer", F, Cu, "shape, dtype=\"float32\", " TVMLS_BUFFER_TAIL_CURRENT ", allocated_addr=None, buffer_name=\"\"", "Declares a buffer object (as T.Buffer).", false, 1},
    {kT, "buffer_decl", F, Cl, "shape, dtype=\"float32\", " TVMLS_BUFFER_TAIL_CLASSIC, "Declares a buffer object (deprecated: use T.Buffer).", true, 1},
    {kT, "handle", Ty, Cl, "dtype=None, storage_scope=\"global\", *, is_size_var=False", "An opaque pointer: a PrimFunc parameter bound by T.match_buffer, or a data pointer.", false, 0},
    {kT, "handle", Ty, Cu, "dtype=None, storage_scope=\"global\"", "An opaque pointer: a PrimFunc parameter bound by T.match_buffer, or a data pointer.", false, 0},
    {kT, "void", Ty, Cl, "expr=None, *, is_size_var=False", "The void type, or a cast to it."},
    {kT, "void", Ty, Cu, "expr=None", "The void type, or a cast to it."},
    {kT, "Ptr", Ty, Cl, "dtype, storage_scope=\"global\"", "A typed pointer (deprecated: use T.handle(dtype, scope)).", true, 0},
    {kT, "ptr", F, Cl, "dtype, storage_scope=\"global\", is_size_var=False", "A pointer variable of the given element dtype.", false, 0},
    {kT, "var", F, Cl, "dtype, name=\"\"", "A scalar variable (deprecated: use T.int32() and friends).", true, 0},
    {kT, "buffer_var", F, Cl, "dtype, storage_scope=\"global\"", "A pointer variable (deprecated: use T.handle).", true, 0},
    {kT, "Range", F, B, "begin, end", "The half-open range [begin, end)."},
    {kT, "target", F, B, "target_config, host=None", "A compilation target from a string or a config dict."},
    {kT, "meta_var", F, B, "value", "A value used by the parser only (metaprogramming); it is not part of the TIR."},
    {kT, "comm_reducer", F, B, "combiner, identity", "A commutative reducer from a two-argument lambda and its identity values."},
    {kT, "index_map", F, B, "mapping, *, inverse_index_map=None, index_dtype=\"int64\"", "An index map from a lambda."},
    {kT, "iter_var", F, B, "v, dom, iter_type, thread_tag", "An iteration variable over `dom`."},
  };
  t->insert(t->end(), rows.begin(), rows.end());
}

// One section of the table (the order of sections is the table's order).
void TirRows2(std::vector<ScriptName>* t) {
  std::vector<ScriptName> rows = {
    // ---- T: dtypes (scalar constructors: `T.int32()` declares a variable, `T.int32(5)` a constant)
    {kT, "bool", Dt, Cl, "expr=None, is_size_var=False", "The bool dtype: a variable (no argument) or a constant/cast."},
    {kT, "bool", Dt, Cu, "expr=None", "The bool dtype: a variable (no argument) or a constant/cast."},
    {kT, "int8", Dt, Cl, "expr=None, *, is_size_var=False", "8-bit signed integer: a variable (no argument) or a constant/cast."},
    {kT, "int8", Dt, Cu, "expr=None", "8-bit signed integer: a variable (no argument) or a constant/cast."},
    {kT, "int16", Dt, Cl, "expr=None, *, is_size_var=False", "16-bit signed integer: a variable (no argument) or a constant/cast."},
    {kT, "int16", Dt, Cu, "expr=None", "16-bit signed integer: a variable (no argument) or a constant/cast."},
    {kT, "int32", Dt, Cl, "expr=None, *, is_size_var=False", "32-bit signed integer: a variable (no argument) or a constant/cast."},
    {kT, "int32", Dt, Cu, "expr=None", "32-bit signed integer: a variable (no argument) or a constant/cast."},
    {kT, "int64", Dt, Cl, "expr=None, *, is_size_var=False", "64-bit signed integer: a variable (no argument) or a constant/cast."},
    {kT, "int64", Dt, Cu, "expr=None", "64-bit signed integer: a variable (no argument) or a constant/cast."},
    {kT, "uint8", Dt, Cl, "expr=None, *, is_size_var=False", "8-bit unsigned integer: a variable (no argument) or a constant/cast."},
    {kT, "uint8", Dt, Cu, "expr=None", "8-bit unsigned integer: a variable (no argument) or a constant/cast."},
    {kT, "uint16", Dt, Cl, "expr=None, *, is_size_var=False", "16-bit unsigned integer: a variable (no argument) or a constant/cast."},
    {kT, "uint16", Dt, Cu, "expr=None", "16-bit unsigned integer: a variable (no argument) or a constant/cast."},
    {kT, "uint32", Dt, Cl, "expr=None, *, is_size_var=False", "32-bit unsigned integer: a variable (no argument) or a constant/cast."},
    {kT, "uint32", Dt, Cu, "expr=None", "32-bit unsigned integer: a variable (no argument) or a constant/cast."},
    {kT, "uint64", Dt, Cl, "expr=None, *, is_size_var=False", "64-bit unsigned integer: a variable (no argument) or a constant/cast."},
    {kT, "uint64", Dt, Cu, "expr=None", "64-bit unsigned integer: a variable (no argument) or a constant/cast."},
    {kT, "float16", Dt, Cl, "expr=None, *, is_size_var=False", "16-bit float: a variable (no argument) or a constant/cast (\"inf\" and \"nan\" accepted)."},
    {kT, "float16", Dt, Cu, "expr=None", "16-bit float: a variable (no argument) or a constant/cast (\"inf\" and \"nan\" accepted)."},
    {kT, "float32", Dt, Cl, "expr=None, *, is_size_var=False", "32-bit float: a variable (no argument) or a constant/cast (\"inf\" and \"nan\" accepted)."},
    {kT, "float32", Dt, Cu, "expr=None", "32-bit float: a variable (no argument) or a constant/cast (\"inf\" and \"nan\" accepted)."},
    {kT, "float64", Dt, Cl, "expr=None, *, is_size_var=False", "64-bit float: a variable (no argument) or a constant/cast (\"inf\" and \"nan\" accepted)."},
    {kT, "float64", Dt, Cu, "expr=None", "64-bit float: a variable (no argument) or a constant/cast (\"inf\" and \"nan\" accepted)."},
    {kT, "bfloat16", Dt, Cl, "expr=None, *, is_size_var=False", "Brain float 16: a variable (no argument) or a constant/cast."},
    {kT, "bfloat16", Dt, Cu, "expr=None", "Brain float 16: a variable (no argument) or a constant/cast."},
    {kT, "float8_e4m3fn", Dt, Cl, "expr=None, *, is_size_var=False", "8-bit float (4 exponent, 3 mantissa bits, finite): a variable or a constant/cast."},
    {kT, "float8_e4m3fn", Dt, Cu, "expr=None", "8-bit float (4 exponent, 3 mantissa bits, finite): a variable or a constant/cast."},
    {kT, "float8_e5m2", Dt, Cl, "expr=None, *, is_size_var=False", "8-bit float (5 exponent, 2 mantissa bits): a variable or a constant/cast."},
    {kT, "float8_e5m2", Dt, Cu, "expr=None", "8-bit float (5 exponent, 2 mantissa bits): a variable or a constant/cast."},
    {kT, "float4_e2m1fn", Dt, Cl, "expr=None, *, is_size_var=False", "4-bit float (2 exponent, 1 mantissa bit): a variable or a constant/cast."},
    {kT, "float4_e2m1fn", Dt, Cu, "expr=None", "4-bit float (2 exponent, 1 mantissa bit): a variable or a constant/cast."},
  };
  t->insert(t->end(), rows.begin(), rows.end());
}

// One section of the table (the order of sections is the table's order).
void TirRows3(std::vector<ScriptName>* t) {
  std::vector<ScriptName> rows = {
    // ---- T: expressions
    {kT, "Cast", F, B, "dtype, value, span=None", "Converts `value` to `dtype`.", false, 0},
    {kT, "cast", F, Cl, "src, dtype, span=None", "Converts `src` to `dtype`.", false, 1},
    {kT, "cast", F, Cu, "value, dtype, span=None", "Converts `value` to `dtype`.", false, 1},
    {kT, "reinterpret", F, B, "dtype, value, span=None", "Reinterprets the bits of `value` as `dtype`.", false, 0},
    {kT, "if_then_else", F, B, "cond, t, f, span=None", "`t` where `cond` holds, else `f` (only the chosen branch is evaluated)."},
    {kT, "Select", F, B, "condition, true_value, false_value, span=None", "`true_value` where `condition` holds, else `false_value` (both evaluated)."},
    {kT, "likely", F, B, "cond, span=None", "Marks a condition as likely true."},
    {kT, "assume", F, B, "cond=None", "States a fact the compiler may assume."},
    {kT, "undef", F, B, "", "An undefined value (the store is dead)."},
    {kT, "min", F, B, "a, b", "The smaller of two expressions."},
    {kT, "max", F, B, "a, b", "The larger of two expressions."},
    {kT, "max_value", F, B, "dtype, span=None", "The largest value of `dtype`.", false, 0},
    {kT, "min_value", F, B, "dtype, span=None", "The smallest value of `dtype`.", false, 0},
    {kT, "infinity", F, B, "dtype, span=None", "Positive infinity of a float `dtype`.", false, 0},
    {kT, "floordiv", F, B, "a, b, span=None", "Integer division rounding toward negative infinity."},
    {kT, "floormod", F, B, "a, b, span=None", "The remainder of floordiv (same sign as b)."},
    {kT, "truncdiv", F, B, "a, b, span=None", "Integer division rounding toward zero."},
    {kT, "truncmod", F, B, "a, b, span=None", "The remainder of truncdiv (same sign as a)."},
    {kT, "ceildiv", F, B, "lhs, rhs, span=None", "Integer division rounding up."},
    {kT, "abs", F, B, "x, span=None", "Absolute value."},
    {kT, "fabs", F, B, "x, span=None", "Absolute value (as T.abs)."},
    {kT, "exp", F, B, "x", "e to the power x."},
    {kT, "exp2", F, B, "x", "2 to the power x."},
    {kT, "exp10", F, B, "x", "10 to the power x."},
    {kT, "log", F, B, "x", "Natural logarithm."},
    {kT, "log2", F, B, "x", "Base-2 logarithm."},
    {kT, "log10", F, B, "x", "Base-10 logarithm."},
    {kT, "log1p", F, B, "x", "log(1 + x)."},
    {kT, "sqrt", F, B, "x", "Square root."},
    {kT, "rsqrt", F, B, "x", "1 / sqrt(x)."},
    {kT, "pow", F, B, "x, y, span=None", "x to the power y."},
    {kT, "sigmoid", F, B, "x", "1 / (1 + exp(-x))."},
    {kT, "erf", F, B, "x", "The Gauss error function."},
    {kT, "tanh", F, B, "x", "Hyperbolic tangent."},
    {kT, "sin", F, B, "x", "Sine."},
    {kT, "cos", F, B, "x", "Cosine."},
    {kT, "tan", F, B, "x", "Tangent."},
    {kT, "sinh", F, B, "x", "Hyperbolic sine."},
    {kT, "cosh", F, B, "x", "Hyperbolic cosine."},
    {kT, "asin", F, B, "x", "Arc sine."},
    {kT, "acos", F, B, "x", "Arc cosine."},
    {kT, "atan", F, B, "x", "Arc tangent."},
    {kT, "asinh", F, B, "x", "Inverse hyperbolic sine."},
    {kT, "acosh", F, B, "x", "Inverse hyperbolic cosine."},
    {kT, "atanh", F, B, "x", "Inverse hyperbolic tangent."},
    {kT, "atan2", F, B, "x1, x2", "Arc tangent of x1 / x2 in the right quadrant."},
    {kT, "floor", F, B, "x, span=None", "Rounds down."},
    {kT, "ceil", F, B, "x, span=None", "Rounds up."},
    {kT, "round", F, B, "x, span=None", "Rounds to the nearest integer."},
    {kT, "nearbyint", F, B, "x, span=None", "Rounds to the nearest integer in the current rounding mode."},
    {kT, "trunc", F, B, "x, span=None", "Rounds toward zero."},
    {kT, "fmod", F, B, "x, y", "Floating-point remainder of x / y."},
    {kT, "hypot", F, B, "x1, x2", "sqrt(x1 * x1 + x2 * x2)."},
    {kT, "copysign", F, B, "x1, x2", "x1 with the sign of x2."},
    {kT, "ldexp", F, B, "x1, x2", "x1 * 2 ** x2."},
    {kT, "nextafter", F, B, "x1, x2", "The next float after x1 toward x2."},
    {kT, "isnan", F, B, "x, span=None", "Whether x is NaN."},
    {kT, "isinf", F, B, "x, span=None", "Whether x is infinite."},
    {kT, "isfinite", F, B, "x, span=None", "Whether x is finite."},
    {kT, "isnullptr", F, B, "x, span=None", "Whether a handle is null."},
    {kT, "clz", F, B, "x", "Count of leading zero bits."},
    {kT, "popcount", F, B, "x", "Count of set bits."},
    {kT, "bitwise_and", F, B, "x, y, span=None", "Bitwise and."},
    {kT, "bitwise_or", F, B, "x, y, span=None", "Bitwise or."},
    {kT, "bitwise_xor", F, B, "x, y, span=None", "Bitwise exclusive or."},
    {kT, "bitwise_not", F, B, "x, span=None", "Bitwise complement."},
    {kT, "shift_left", F, B, "x, y, span=None", "x shifted left by y bits."},
    {kT, "shift_right", F, B, "x, y, span=None", "x shifted right by y bits."},
    {kT, "q_multiply_shift", F, B, "x, y, q, s", "Fixed-point multiplication of x by y (q fractional bits) then a shift by s."},
    {kT, "ret", F, Cl, "val, span=None", "Returns a value from the PrimFunc."},
    {kT, "vscale", F, B, "", "The scalable vector length multiplier (SVE)."},
    {kT, "Broadcast", F, B, "value, lanes, span=None", "A vector of `lanes` copies of `value`."},
    {kT, "broadcast", F, B, "value, lanes, span=None", "A vector of `lanes` copies of `value`."},
    {kT, "Ramp", F, B, "base, stride, lanes, span=None", "The vector base, base + stride, ... of `lanes` elements."},
    {kT, "ramp", F, B, "base, stride, lanes, span=None", "The vector base, base + stride, ... of `lanes` elements."},
    {kT, "Shuffle", F, B, "vectors, indices, span=None", "Picks lanes out of concatenated vectors."},
    {kT, "Var", F, Cl, "name, dtype, span=None", "A TIR variable.", false, 1},
    {kT, "Var", F, Cu, "name=None, ty=None, span=None, *, name_hint=None", "A TIR variable.", false, 1},
    {kT, "IntImm", F, B, "dtype, value, span=None", "An integer constant of `dtype`.", false, 0},
    {kT, "FloatImm", F, B, "dtype, value, span=None", "A float constant of `dtype`.", false, 0},
    {kT, "StringImm", F, B, "value, span=None", "A string constant."},
    {kT, "BufferLoad", F, B, "buffer, indices, predicate=None, span=None", "A load from `buffer` at `indices`."},
    {kT, "Call", F, Cl, "dtype, op, args, span=None", "A call of an intrinsic op returning `dtype`.", false, 0},
    {kT, "Call", F, Cu, "op, args, attrs=None, ty_args=None, span=None, ret_ty=None", "A call of an op (an ir.Op or its name) returning `ret_ty`."},
    {kT, "address_of", F, B, "obj, span=None", "The address of a buffer element."},
    {kT, "lookup_param", F, B, "param_name, span=None", "A parameter of the module by name."},
  };
  t->insert(t->end(), rows.begin(), rows.end());
}

// One section of the table (the order of sections is the table's order).
void TirRows4(std::vector<ScriptName>* t) {
  std::vector<ScriptName> rows = {
    // ---- T: calls and intrinsics
    {kT, "call_extern", F, B, "dtype, func_name, *args, span=None", "Calls an external C function returning `dtype`.", false, 0},
    {kT, "call_pure_extern", F, B, "dtype, func_name, *args, span=None", "Calls a side-effect-free external function returning `dtype`.", false, 0},
    {kT, "call_intrin", F, Cl, "dtype, func_name, *args, span=None", "Calls a TIR intrinsic returning `dtype`.", false, 0},
    {kT, "call_intrin", F, Cu, "dtype, func_name, *args, attrs=None, span=None", "Calls a TIR intrinsic returning `dtype`.", false, 0},
    {kT, "call_llvm_intrin", F, B, "dtype, name, *args, span=None", "Calls an LLVM intrinsic returning `dtype`.", false, 0},
    {kT, "call_llvm_pure_intrin", F, B, "dtype, name, *args, span=None", "Calls a side-effect-free LLVM intrinsic returning `dtype`.", false, 0},
    {kT, "call_packed", F, B, "*args, span=None", "Calls a packed function by name (the first argument)."},
    {kT, "call_cpacked", F, B, "*args, span=None", "Calls a packed function through its C symbol."},
    {kT, "call_packed_lowered", F, B, "*args, span=None", "A packed call after argument packing is lowered."},
    {kT, "call_cpacked_lowered", F, B, "*args, span=None", "A C packed call after argument packing is lowered."},
    {kT, "tvm_call_packed", F, B, "*args, span=None", "Same as T.call_packed."},
    {kT, "tvm_call_cpacked", F, B, "*args, span=None", "Same as T.call_cpacked."},
    {kT, "tvm_access_ptr", F, B, "ptype, data, offset, extent, rw_mask", "A pointer into a buffer's data with an access mask (1 read, 2 write)."},
    {kT, "tvm_throw_last_error", F, B, "", "Returns the last error to the caller."},
    {kT, "tvm_stack_alloca", F, B, "dtype_str, num", "Stack space for `num` values of a runtime type."},
    {kT, "tvm_stack_make_shape", F, B, "*args", "A shape array on the stack."},
    {kT, "tvm_stack_make_array", F, B, "data, shape, strides, ndim, arr_dtype, elem_offset", "A DLTensor on the stack."},
    {kT, "tvm_tuple", F, B, "*value", "A tuple of values for intrinsics that take one."},
    {kT, "tvm_struct_get", F, B, "arr, index, field, dtype", "Reads a field of a runtime struct.", false, 3},
    {kT, "tvm_struct_set", F, B, "arr, index, field, value", "Writes a field of a runtime struct."},
    {kT, "tvm_thread_allreduce", F, B, "*freduce_args", "A reduction across the threads of a block."},
    {kT, "tvm_storage_sync", F, Cl, "storage_scope", "A barrier over the memory of a storage scope (\"shared\", \"global\")."},
    {kT, "tvm_storage_sync", F, Cu, "storage_scope, is_load=False, num_blocks=-1", "A barrier over the memory of a storage scope (\"shared\", \"global\")."},
    {kT, "tvm_warp_shuffle", F, B, "mask, value, warp_id, width, warp_size", "Reads `value` from another lane of the warp."},
    {kT, "tvm_warp_shuffle_up", F, B, "mask, value, offset, width, warp_size", "Reads `value` from a lower lane of the warp."},
    {kT, "tvm_warp_shuffle_down", F, B, "mask, value, offset, width, warp_size", "Reads `value` from a higher lane of the warp."},
    {kT, "tvm_warp_activemask", F, B, "", "The mask of active lanes of the warp."},
    {kT, "start_profile_intrinsic", F, B, "id", "Starts a profiling region."},
    {kT, "end_profile_intrinsic", F, B, "id", "Ends a profiling region."},
  };
  t->insert(t->end(), rows.begin(), rows.end());
}

// One section of the table (the order of sections is the table's order).
void RelaxRows1(std::vector<ScriptName>* t) {
  std::vector<ScriptName> rows = {
    // ---- R: decorators and frames
    {kR, "function", Kw, B, "pure=True, private=False, check_well_formed=True", "Decorator: a Relax function."},
    {kR, "macro", Kw, B, "hygienic=True", "Decorator: a Relax macro, expanded where it is called."},
    {kR, "dataflow", Kw, B, "", "`with R.dataflow():` a block of pure bindings, closed by R.output."},
    {kR, "rewriter", Kw, B, "rewriter_mod", "Decorator: a pattern rewrite from a module (or class) with `pattern` and `replacement` functions."},
    {kR, "If", Kw, B, "condition", "Builder frame of an `if` (the parser writes `if cond:`)."},
    {kR, "Then", Kw, B, "", "Builder frame of the then branch of R.If."},
    {kR, "Else", Kw, B, "", "Builder frame of the else branch of R.If."},
    {kR, "SeqExpr", Kw, B, "", "Builder frame of a sequence of binding blocks and its result."},

    // ---- R: function prologue and bindings
    {kR, "output", F, B, "*vars", "The variables of the dataflow block that stay visible after it."},
    {kR, "func_attr", F, B, "attrs", "Attributes of the enclosing function (a dict)."},
    {kR, "func_name", F, B, "name", "Sets the name of the enclosing function."},
    {kR, "func_ret_value", F, B, "value", "Sets the return value of the enclosing function."},
    {kR, "func_ret_struct_info", F, Cl, "ret_sinfo", "Sets the return struct info of the enclosing function."},
    {kR, "func_ret_type", F, Cu, "ret_ty", "Sets the return type of the enclosing function."},
    {kR, "func_ret_ty", F, Cu, "ret_ty", "Sets the return type of the enclosing function (as R.func_ret_type)."},
    {kR, "arg", F, Cl, "name, struct_info", "Adds a parameter to the enclosing function (builder API)."},
    {kR, "arg", F, Cu, "name, ty", "Adds a parameter to the enclosing function (builder API)."},
    {kR, "match_cast", F, Cl, "value, struct_info", "Casts `value` to a struct info, checked at run time; may bind new shape variables."},
    {kR, "match_cast", F, Cu, nullptr, "Casts `value` to a type, checked at run time; may bind new shape variables."},
    {kR, "emit", F, Cl, "value, annotate_struct_info=None", "Emits a binding of `value` (builder API)."},
    {kR, "emit", F, Cu, nullptr, "Emits a binding of `value` (builder API)."},
    {kR, "emit_match_cast", F, Cl, "value, struct_info", "Emits a match_cast binding (builder API)."},
    {kR, "emit_match_cast", F, Cu, nullptr, "Emits a match_cast binding (builder API)."},
    {kR, "emit_var_binding", F, B, "value", "Emits a variable binding (builder API)."},
    {kR, "emit_with_sinfo", F, Cl, "op, args, sinfo_args=None", "A call of the named op with explicit struct info arguments (builder API)."},
    {kR, "emit_with_type", F, Cu, "op, args, ty_args=None", "A call of the named op with explicit type arguments (builder API)."},
    {kR, "emit_with_ty", F, Cu, "op, args, ty_args=None", "A call of the named op with explicit type arguments (as R.emit_with_type)."},
    {kR, "ExternFunc", F, B, "global_symbol", "A function defined outside the module, by symbol name."},
    {kR, "ShapeExpr", F, B, "values", "A shape value from a list of dims."},
    {kR, "TupleGetItem", F, B, "tuple_value, index", "Field `index` of a tuple value."},
    {kR, "stop_lift_params", F, B, "x", "Marks where parameter lifting stops (the op relax.builtin.stop_lift_params)."},

    // ---- R: runtime devices (tvm.runtime's constructors)
    {kR, "device", F, B, "device_type, index=None", "A runtime device from a device type (name or code) and an index."},
    {kR, "cpu", F, B, "dev_id=0", "A CPU device."},
    {kR, "cuda", F, B, "dev_id=0", "A CUDA GPU device."},
    {kR, "rocm", F, B, "dev_id=0", "A ROCm GPU device."},
    {kR, "opencl", F, B, "dev_id=0", "An OpenCL device."},
    {kR, "metal", F, B, "dev_id=0", "A Metal device."},
    {kR, "vulkan", F, B, "dev_id=0", "A Vulkan device."},
    {kR, "webgpu", F, B, "dev_id=0", "A WebGPU device."},
    {kR, "hexagon", F, B, "dev_id=0", "A Hexagon device."},
    {kR, "vpi", F, B, "dev_id=0", "A VPI simulated device."},
    {kR, "ext_dev", F, B, "dev_id=0", "An extension device."},

    // ---- R: types (struct info annotations)
    {kR, "Tensor", Ty, B, "shape=None, dtype=None, vdevice=None, ndim=-1", "A tensor annotation: shape (with symbolic dims as strings or names) and dtype.", false, 1},
    {kR, "Shape", Ty, B, "values=None, ndim=-1", "A shape value annotation."},
    {kR, "Tuple", Ty, B, "*fields", "A tuple annotation; R.Tuple() is the empty (void) tuple."},
    {kR, "Object", Ty, Cl, "", "An opaque object annotation (R.Any in the current era)."},
    {kR, "Object", Ty, Cu, "", "An opaque object annotation (kept as an alias of R.Any).", true},
    {kR, "Any", Ty, Cu, "", "An opaque value annotation."},
    {kR, "Prim", Ty, B, "dtype=None, value=None", "A TIR scalar annotation: a dtype, or a known value.", false, 0},
    {kR, "Callable", Ty, B, "params=None, ret=None, purity=None, derive_func=None", "A function annotation: parameter and return annotations and purity."},
    {kR, "DTensor", Ty, B, TVMLS_DTENSOR_PARAMS, "A distributed tensor annotation: shape and dtype, a device mesh and a placement.", false, 1},
    {kR, "device_mesh", F, B, "shape, device_ids", "A device mesh: its shape and its device ids (a list or a Range)."},

    // ---- R: sub-namespaces (their operators come from the op registry)
    {kR, "nn", Ns, B, nullptr, "Neural network operators: convolution, pooling, normalisation, activations."},
    {kR, "memory", Ns, B, nullptr, "Explicit storage and tensor allocation."},
    {kR, "vm", Ns, B, nullptr, "Virtual machine level allocation and calls."},
    {kR, "builtin", Ns, B, nullptr, "Runtime builtins: tensor allocation, parameter lifting."},
    {kR, "ccl", Ns, B, nullptr, "Collective communication across workers."},
    {kR, "image", Ns, B, nullptr, "Image operators: resize, grid sampling."},
    {kR, "grad", Ns, B, nullptr, "Gradient operators and checkpoint markers."},
    {kR, "dist", Ns, B, nullptr, "Distributed tensors: sharding annotations and redistribution."},
    {kR, "dist.DTensor", Ty, B, TVMLS_DTENSOR_PARAMS, "A distributed tensor annotation (as R.DTensor).", false, 1},
    {kR, "dist.device_mesh", F, B, "shape, device_ids", "A device mesh (as R.device_mesh)."},
    {kR, "dist.call_tir", F, Cl, "func, args, out_sinfo, tir_vars=None", "call_tir with distributed tensor outputs."},
    {kR, "dist.call_tir", F, Cu, "func, args, out_ty", "call_tir with distributed tensor outputs."},
    {kR, "dist.const", F, Cl, "value, struct_info", "A distributed constant."},
    {kR, "dist.const", F, Cu, "value, ty", "A distributed constant."},
    {kR, "vision", Ns, B, nullptr, "Vision operators: non-maximum suppression, ROI pooling."},

  };
  t->insert(t->end(), rows.begin(), rows.end());
}

// One section of the table (the order of sections is the table's order).
void IrRows1(std::vector<ScriptName>* t) {
  std::vector<ScriptName> rows = {
    // ---- I
    {kI, "ir_module", Kw, Cl, "check_well_formed=True", "Decorator: a class whose methods are the functions of an IRModule."},
    {kI, "ir_module", Kw, Cu, nullptr, "Decorator: a class whose methods are the functions of an IRModule."},
    {kI, "module_attrs", F, B, "attrs", "Attributes of the enclosing module (a dict)."},
    {kI, "module_global_infos", F, B, "global_infos", "Global infos of the enclosing module, e.g. {\"vdevice\": [...]}."},
    {kI, "vdevice", F, B, "target=None, vdevice_id=0, memory_scope=\"global\"", "A virtual device: a target, a device id and a memory scope."},
    {kI, "dummy_global_info", F, B, "", "A placeholder global info."},
    {kI, "lookup_vdevice", F, B, "target_kind=None, device_index=-1", "The virtual device of a kind and index among the module's global infos."},
    {kI, "GlobalVar", F, B, "name", "A reference to a module function by name."},
    {kI, "pyfunc", Kw, B, nullptr, "Decorator: a plain Python method of the module (not parsed as TVMScript)."},
  };
  t->insert(t->end(), rows.begin(), rows.end());
}

std::vector<ScriptName> BuildTable() {
  std::vector<ScriptName> t;
  TirRows1(&t);
  TirRows2(&t);
  TirRows3(&t);
  TirRows4(&t);
  TirGeneratedRows(&t);
  RelaxRows1(&t);
  IrRows1(&t);
  return t;
}
// clang-format on

#undef TVMLS_BUFFER_TAIL_CLASSIC
#undef TVMLS_BUFFER_TAIL_CURRENT
#undef TVMLS_ALLOC_TAIL_CLASSIC
#undef TVMLS_ALLOC_TAIL_CURRENT
#undef TVMLS_DTENSOR_PARAMS

}  // namespace

const std::vector<ScriptName>& AllScriptNames() {
  static const std::vector<ScriptName> table = BuildTable();
  return table;
}

namespace {

// Rows by dialect and path (one or two rows per path), for FindScriptName.
using PathIndex = std::unordered_map<std::string_view, std::vector<const ScriptName*>>;

const PathIndex& IndexOf(Dialect dialect) {
  static const std::array<PathIndex, 3> index = [] {
    std::array<PathIndex, 3> out;
    for (const ScriptName& n : AllScriptNames()) out[static_cast<size_t>(n.dialect)][n.path].push_back(&n);
    return out;
  }();
  return index[static_cast<size_t>(dialect)];
}

}  // namespace

const ScriptName* FindScriptName(Dialect dialect, std::string_view path, bool classic, bool current) {
  const PathIndex& index = IndexOf(dialect);
  auto it = index.find(path);
  if (it == index.end()) return nullptr;
  const bool prefer_current = current && !classic;
  const ScriptName* found = nullptr;
  for (const ScriptName* row : it->second) {
    const ScriptName& n = *row;
    if (!InEra(n.era, classic, current)) continue;
    if (found == nullptr) {
      found = &n;
    } else if ((n.era == EraTag::kCurrent) == prefer_current) {
      found = &n;
    }
  }
  return found;
}

std::vector<ParamText> ParseParams(const char* params) {
  std::vector<ParamText> out;
  if (params == nullptr) return out;
  std::vector<std::string_view> pieces = SplitTopLevel(params).pieces;
  bool keyword_only = false;
  auto trim = [](std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
  };
  for (std::string_view piece : pieces) {
    piece = trim(piece);
    if (piece.empty()) continue;
    if (piece == "*") {
      keyword_only = true;
      continue;
    }
    ParamText p;
    if (piece.substr(0, 2) == "**") {
      p.var_keyword = true;
      piece.remove_prefix(2);
    } else if (piece.front() == '*') {
      p.var_positional = true;
      piece.remove_prefix(1);
    }
    size_t eq = piece.find('=');
    if (eq != std::string_view::npos) {
      p.has_default = true;
      p.default_text = std::string(trim(piece.substr(eq + 1)));
      piece = trim(piece.substr(0, eq));
    }
    p.name = std::string(piece);
    p.keyword_only = keyword_only && !p.var_keyword;
    if (p.var_positional) keyword_only = true;
    out.push_back(std::move(p));
  }
  return out;
}

const std::vector<ParamText>& ParamsOf(const ScriptName& n) {
  static const std::vector<std::vector<ParamText>> parsed = [] {
    std::vector<std::vector<ParamText>> out;
    for (const ScriptName& row : AllScriptNames()) out.push_back(ParseParams(row.params));
    return out;
  }();
  const std::vector<ScriptName>& rows = AllScriptNames();
  return parsed[static_cast<size_t>(&n - rows.data())];
}

bool IsRelaxNonOperator(std::string_view path) {
  const PathIndex& index = IndexOf(Dialect::kRelax);
  // The shortest prefix of `path` ("dist", then "dist.call_tir") that names a row decides.
  for (size_t end = path.find('.');; end = path.find('.', end + 1)) {
    auto it = index.find(path.substr(0, end));
    if (it == index.end()) return false;
    bool ns = false;
    for (const ScriptName* row : it->second) {
      if (row->kind != NameKind::kNamespace) return true;
      ns = true;
    }
    if (!ns || end == std::string_view::npos) return false;
  }
}

}  // namespace tvmls::vocab
