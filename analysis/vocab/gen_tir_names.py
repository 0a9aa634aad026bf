#!/usr/bin/env python3
"""Enumerates the `T.` names of both TVMScript eras from apache/tvm's source and writes the
generated rows of the vocabulary table (analysis/vocab/script_names_tir.cc).

TVM is the specification but cannot be installed, so nothing is imported: the script reads the
Python source of a bare git mirror with `git show REV:path` and follows it with `ast`.

- classic era (v0.23.0): `from tvm.script import tir as T` is tvm/script/parser/tir/__init__.py:
  the `__all__` of tvm/script/ir_builder/tir/ir.py plus the parser's own names.
- current era (HEAD): `from tvm.script import tirx as T` is tvm/tirx/script/__init__.py: the
  `__all__` of tvm/tirx/script/builder/ir.py (three parts, the first built by a loop over float
  bases and lanes), the parser's and the package's own names, and the namespaces the backends
  register at import (`register_script_namespace`: cuda, ptx, metal, ...).

For each name the signature comes from its definition: a `def` in the builder, a wrapper
(`_op_wrapper` / `_dtype_forward`) around a function of tir[x]/op.py, a class constructor
(`__init__` without `self`), an instance's `__call__`, a dtype constructor, or an alias of another
name. What cannot be followed gets no parameters (no arity check, no signature help).

Rows that analysis/vocab/script_names.cc already has (hand-written, with their docs) are not
generated again; the script reports where their parameters disagree with TVM's. The docs of the
generated rows are ours (see DOCS and Doc()); no TVM text is copied beyond names and parameters.

Usage: gen_tir_names.py [--mirror DIR] [--check] [--report]
  --check   exit 1 when the committed file differs from what would be generated
  --report  print the names per era and the disagreements with the hand-written rows
"""
import argparse
import ast
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "script_names_tir.cc")
HAND = os.path.join(HERE, "script_names.cc")
CLASSIC = "refs/tags/v0.23.0"
CURRENT = "HEAD"


class Tree:
    """Python modules of one TVM revision, parsed on demand."""

    def __init__(self, mirror, rev):
        self.mirror, self.rev, self.cache = mirror, rev, {}

    def source(self, path):
        r = subprocess.run(["git", "-C", self.mirror, "show", f"{self.rev}:{path}"],
                           capture_output=True, text=True)
        return r.stdout if r.returncode == 0 else None

    def module(self, dotted):
        """(path, ast.Module) of a dotted module name, or None."""
        if dotted in self.cache:
            return self.cache[dotted]
        base = "python/" + dotted.replace(".", "/")
        found = None
        for path in (base + ".py", base + "/__init__.py"):
            text = self.source(path)
            if text is not None:
                found = (dotted, path.endswith("__init__.py"), ast.parse(text))
                break
        self.cache[dotted] = found
        return found


def resolve_relative(module, is_pkg, level, name):
    parts = module.split(".")
    if not is_pkg:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)]
    return ".".join(parts + ([name] if name else []))


def params_of(fn, drop_self):
    """The Python parameter text of a def (annotations dropped, defaults as written)."""
    a = fn.args
    out = []
    positional = list(a.posonlyargs) + list(a.args)
    if drop_self and positional:
        positional = positional[1:]
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    if drop_self and len(defaults) > len(positional):
        defaults = defaults[len(defaults) - len(positional):]
    for p, d in zip(positional, defaults):
        out.append(p.arg + ("" if d is None else "=" + default_text(d)))
    if a.vararg:
        out.append("*" + a.vararg.arg)
    elif a.kwonlyargs:
        out.append("*")
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        out.append(p.arg + ("" if d is None else "=" + default_text(d)))
    if a.kwarg:
        out.append("**" + a.kwarg.arg)
    return ", ".join(out)


def default_text(node):
    text = ast.unparse(node)
    text = text.replace("'", '"')
    return text if len(text) <= 40 else "..."


class Resolver:
    """Follows a name in a module to its definition: a signature, or a kind."""

    def __init__(self, tree):
        self.tree = tree

    def lookup(self, module, name, depth=0):
        """('def', params) | ('dtype',) | ('namespace',) | ('class', params|None) | None."""
        if depth > 8:
            return None
        m = self.tree.module(module)
        if m is None:
            return None
        dotted, is_pkg, mod = m
        result = None
        for node in mod.body:
            found = self.define(dotted, is_pkg, mod, node, name, depth)
            if found is not None:
                result = found  # the last definition wins, as in Python
        return result

    def define(self, dotted, is_pkg, mod, node, name, depth):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            if any(self.decorator_changes_signature(d) for d in node.decorator_list):
                return ("def", None)
            return ("def", params_of(node, False))
        if isinstance(node, ast.ClassDef) and node.name == name:
            return ("class",) + self.class_params(node)
        if isinstance(node, ast.If):  # `if TYPE_CHECKING:` ... `else:` (the else runs)
            found = None
            for sub in node.orelse or node.body:
                f = self.define(dotted, is_pkg, mod, sub, name, depth)
                if f is not None:
                    found = f
            return found
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) == name and alias.name != "*":
                    src = (resolve_relative(dotted, is_pkg, node.level, node.module)
                           if node.level else node.module)
                    sub = self.tree.module(src + "." + alias.name)
                    if sub is not None:
                        return ("module",)
                    return self.lookup(src, alias.name, depth + 1)
            return None
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if not any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return None
            return self.value(dotted, is_pkg, mod, node.value, depth)
        return None

    @staticmethod
    def decorator_changes_signature(d):
        text = ast.unparse(d)
        return not (text.startswith("deprecated") or text in ("staticmethod", "functools.wraps"))

    def value(self, dotted, is_pkg, mod, v, depth):
        if v is None:
            return None
        if isinstance(v, ast.Name):
            return self.lookup(dotted, v.id, depth + 1)
        if isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name):
            target = self.module_alias(dotted, is_pkg, mod, v.value.id)
            return self.lookup(target, v.attr, depth + 1) if target else None
        if isinstance(v, ast.Call):
            f = ast.unparse(v.func)
            if f == "func_gen":
                return ("dtype",)
            if f in ("_op_wrapper", "_dtype_forward") and v.args:
                inner = self.value(dotted, is_pkg, mod, v.args[0], depth + 1)
                return inner
            callee = self.value(dotted, is_pkg, mod, v.func, depth + 1)
            if callee and callee[0] == "class":
                return ("instance", callee[2])
            return None
        return None

    def module_alias(self, dotted, is_pkg, mod, local):
        """The module a local name refers to (`from tvm.tir import op as _tir_op`)."""
        for node in mod.body:
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if (alias.asname or alias.name) == local:
                        src = (resolve_relative(dotted, is_pkg, node.level, node.module)
                               if node.level else node.module)
                        return src + "." + alias.name
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if (alias.asname or alias.name) == local:
                        return alias.name
        return None

    @staticmethod
    def class_params(cls):
        """(constructor parameters, call parameters): None where the class defines none."""
        init = call = None
        for node in cls.body:
            if isinstance(node, ast.FunctionDef) and node.name == "__init__":
                init = params_of(node, True)
            if isinstance(node, ast.FunctionDef) and node.name == "__call__":
                call = params_of(node, True)
        return (init, call)


def loop_float_types(mod):
    """The `float_types` list built by a loop over `bases` and `lanes` (both literal lists)."""
    bases = lanes = None
    for node in mod.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            if node.targets[0].id == "bases":
                bases = ast.literal_eval(node.value)
            if node.targets[0].id == "lanes":
                lanes = ast.literal_eval(node.value)
    out = []
    for b in bases or []:
        for lane in lanes or []:
            out.append(b + (f"x{lane}" if lane != 1 else ""))
    return out


def module_all(mod):
    names = []
    for node in mod.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            names = list_names(node.value, mod)
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == "__all__":
            names += list_names(node.value, mod)
    return names


def list_names(v, mod):
    if isinstance(v, ast.BinOp):
        return list_names(v.left, mod) + list_names(v.right, mod)
    if isinstance(v, ast.Name) and v.id == "float_types":
        return loop_float_types(mod)
    out = []
    for e in getattr(v, "elts", []):
        if isinstance(e, ast.Constant):
            out.append(e.value)
        elif isinstance(e, ast.Starred) and isinstance(e.value, ast.Name) and e.value.id == "float_types":
            out += loop_float_types(mod)
    return out


def classic_names(mirror):
    tree = Tree(mirror, CLASSIC)
    res = Resolver(tree)
    builder = "tvm.script.ir_builder.tir.ir"
    names = {}
    for n in module_all(tree.module(builder)[2]):
        names[n] = res.lookup(builder, n)
    names["bool"] = res.lookup(builder, "boolean")
    names["Buffer"] = res.lookup("tvm.script.parser.tir.entry", "Buffer")
    names["Ptr"] = res.lookup("tvm.script.parser.tir.entry", "Ptr")
    names["prim_func"] = res.lookup("tvm.script.parser.tir.entry", "prim_func")
    names["macro"] = res.lookup("tvm.script.parser.tir.entry", "macro")
    return names


def current_names(mirror):
    tree = Tree(mirror, CURRENT)
    res = Resolver(tree)
    builder = "tvm.tirx.script.builder.ir"
    names = {}
    for n in module_all(tree.module(builder)[2]):
        names[n] = res.lookup(builder, n)
    names["bool"] = res.lookup(builder, "boolean")
    names["Buffer"] = res.lookup("tvm.tirx.script.parser.entry", "Buffer")
    for n in ("Optional", "Ptr", "constexpr", "inline", "jit", "macro", "prim_func"):
        names[n] = res.lookup("tvm.tirx.script.parser.entry", n)
    for n in ("SMEMPool", "TMEMPool"):
        names[n] = res.lookup("tvm.tirx.lang.alloc_pool", n)
    for n in ("buffer_proxy", "frame_scope", "seq_scope"):
        names[n] = res.lookup("tvm.tirx.script.builder.utils", n)
    for n in ("cluster", "cta", "thread", "warp", "warpgroup", "wg"):
        names[n] = res.lookup("tvm.tirx.script.builder.tirx", n)
    names["tile"] = ("namespace",)
    names["TensorMap"] = res.lookup(builder, "TensorMap")
    names["meta_class"] = res.lookup(builder, "meta_class")
    # Namespaces the backends register (tvm/backend/*/__init__.py: script_namespaces()).
    for backend in ("cuda", "metal", "trn"):
        m = tree.module(f"tvm.backend.{backend}")
        for node in ast.walk(m[2]):
            if isinstance(node, ast.FunctionDef) and node.name == "script_namespaces":
                for r in ast.walk(node):
                    if isinstance(r, ast.Dict):
                        for k in r.keys:
                            names[k.value] = ("namespace",)
    names["webgpu"] = ("namespace",)
    return names


# ---------------------------------------------------------------------------------- docs (ours)

DOCS = {
    "Assert": "An assertion statement around its body.",
    "Ptr": "A typed pointer (deprecated: use T.handle(dtype, scope)).",
    "buffer_decl": "Declares a buffer object (deprecated: use T.Buffer).",
    "buffer_var": "A pointer variable (deprecated: use T.handle).",
    "ptr": "A pointer variable of the given element dtype.",
    "var": "A scalar variable (deprecated: use T.int32() and friends).",
    "abs": "Absolute value.", "fabs": "Absolute value (as T.abs).",
    "fma": "Fused multiply-add: a * b + c.", "filter": "Keeps the lanes of a vector selected by a mask.",
    "selector": "Selects among values by an index.",
    "q_multiply_shift_per_axis": "q_multiply_shift with a per-axis multiplier and shift.",
    "continue_loop": "Continues the enclosing loop (the intrinsic behind `continue`).",
    "break_loop": "Leaves the enclosing loop (the intrinsic behind `break`).",
    "thread_return": "Returns from the current GPU thread.",
    "ptr_byte_offset": "The byte offset of a pointer into its allocation.",
    "print_buffer": "Prints a buffer's contents at run time (debugging).",
    "handle_add_byte_offset": "A handle advanced by a number of bytes.",
    "tvm_thread_invariant": "Marks an expression as the same on every thread.",
    "tvm_load_matrix_sync": "Loads a tensor-core fragment from memory (wmma::load_matrix_sync).",
    "tvm_mma_sync": "Tensor-core multiply-accumulate of fragments (wmma::mma_sync).",
    "tvm_bmma_sync": "Tensor-core binary multiply-accumulate of fragments (wmma::bmma_sync).",
    "tvm_fill_fragment": "Fills a tensor-core fragment with a value (wmma::fill_fragment).",
    "tvm_store_matrix_sync": "Stores a tensor-core fragment to memory (wmma::store_matrix_sync).",
    "tvm_kernel_replace_point": "Marks where a kernel body may be replaced.",
    "tvm_global_barrier_kinit": "Initialises the global barrier of a persistent kernel.",
    "tvm_warp_shuffle_xor": "Reads `value` from the lane whose id is this lane's xor a mask.",
    "tvm_call_packed_lowered": "Same as T.call_packed_lowered.",
    "tvm_call_cpacked_lowered": "Same as T.call_cpacked_lowered.",
    "tvm_call_trace_packed": "A packed call used for tracing values.",
    "tvm_check_return": "Checks the return code of a call against an expected value.",
    "cooperative_tensor_fill": "Fills a Metal cooperative tensor with a value.",
    "cooperative_tensor_load": "Loads a Metal cooperative tensor from memory.",
    "cooperative_tensor_store": "Stores a Metal cooperative tensor to memory.",
    "cooperative_tensor_multiply_accumulate": "Metal cooperative tensor multiply-accumulate.",
    "vectorlow": "The low half of a vector.", "vectorhigh": "The high half of a vector.",
    "vectorcombine": "Concatenates two vectors.",
    "dp4a": "Dot product of four 8-bit lanes accumulated into 32 bits.",
    "TVMBackendAllocWorkspace": "Allocates workspace memory through the runtime.",
    "TVMBackendFreeWorkspace": "Frees workspace memory allocated through the runtime.",
    "anylist_getitem": "An item of a runtime AnyList.",
    "anylist_resetitem": "Clears an item of a runtime AnyList.",
    "anylist_setitem_call_packed": "Sets an AnyList item to the result of a packed call.",
    "anylist_setitem_call_cpacked": "Sets an AnyList item to the result of a C packed call.",
    "llvm_lookup_intrinsic_id": "The id of an LLVM intrinsic by name.",
    "type_annotation": "A typed null expression used as a type annotation.",
    "get_active_lane_mask": "The mask of active lanes for a scalable vector loop.",
    "call_kernel": "Calls an external kernel (Triton, CUDA source) from TIR.",
    "ignore_loop_partition": "Marks a condition that loop partitioning must ignore.",
    "block_name_suffix_context": "A context that appends a suffix to the names of blocks made in it.",
    "wg_reg_tile": "A register tile of a warpgroup.",
    "hint": "A hint for the compiler around its body.",
    "While": "`while cond:` as a builder frame.", "Return": "A return statement.",
    "Break": "A break statement.", "Continue": "A continue statement.",
    "If": "Builder frame of an `if` (the parser writes `if cond:`).",
    "Then": "Builder frame of the then branch of T.If.", "Else": "Builder frame of the else branch of T.If.",
    "boolean": "The bool dtype (as T.bool).",
    "Reduce": "A reduction expression node.", "ProducerLoad": "A load from a tensor producer.",
    "CallEffectKind": "The side-effect kinds of TIR calls.",
    "Bind": "A binding statement of a new immutable variable.",
    "LetAnnotation": "The type of T.let annotations.",
    "LocalVectorAnnotation": "The annotation of a local vector `T.float32[4]`.",
    "DtypeConstructor": "The type of the dtype constructors (T.float32 and friends).",
    "IterVar": "An iteration variable node.", "CommReducer": "A commutative reducer node.",
    "SizeVar": "A non-negative TIR variable.",
    "Optional": "An optional parameter annotation of a jit function.",
    "constexpr": "A compile-time constant parameter annotation.",
    "inline": "Decorator: a function inlined where it is called.",
    "jit": "Decorator: a just-in-time specialised TIR function.",
    "SMEMPool": "A pool of shared memory to carve buffers from.",
    "TMEMPool": "A pool of tensor memory (Blackwell) to carve buffers from.",
    "buffer_proxy": "A buffer proxy for the script parser.",
    "frame_scope": "A builder frame scope.", "seq_scope": "A builder sequence scope.",
    "tile": "Tile-level primitives of TIRx.",
    "cluster": "The thread-cluster execution scope.", "cta": "The thread-block (CTA) execution scope.",
    "thread": "The single-thread execution scope.", "warp": "The warp execution scope.",
    "warpgroup": "The warpgroup execution scope.", "wg": "Short for T.warpgroup.",
    "TensorMap": "A TMA tensor map descriptor.", "meta_class": "Decorator: a metaprogramming class.",
    "cuda": "CUDA intrinsics.", "nvshmem": "NVSHMEM intrinsics.", "ptx": "PTX instructions.",
    "ptx_legacy": "PTX intrinsics of the earlier TIR spelling.", "s_tir": "Schedulable TIR intrinsics.",
    "metal": "Metal intrinsics.", "nki": "Trainium NKI intrinsics.", "webgpu": "WebGPU intrinsics.",
    "ComposeLayout": "A layout composed of two layouts.", "ExecScope": "An execution scope.",
    "Iter": "An iterator of a tile layout.", "Layout": "A data layout.",
    "R": "A reduction axis of a tile layout.", "S": "A spatial axis of a tile layout.",
    "ScopeIdDef": "The definition of a scope id.", "TileLayout": "A tile layout.",
    "add_to_parent": "Adds a statement to the enclosing frame.",
    "alloc_cast_frag": "Allocates a register fragment for a cast.",
    "alloc_local": "Allocates a buffer in local (register) memory.",
    "alloc_scalar": "Allocates a scalar variable in memory.",
    "alloc_shared": "Allocates a buffer in shared memory.",
    "alloc_tcgen05_ldst_frag": "Allocates a register fragment for tcgen05 loads and stores.",
    "cluster_id": "The index of the thread cluster.", "cta_id": "The index of the thread block.",
    "cta_id_in_cluster": "The index of the thread block in its cluster.",
    "cta_id_in_pair": "The index of the thread block in its CTA pair.",
    "decl_scalar": "Declares a scalar over existing memory.",
    "device_entry": "Decorator: a device entry function.",
    "lane_id": "The lane index in the warp.", "local_scalar": "A scalar in local memory.",
    "register_script_namespace": "Registers a namespace under T (for backends).",
    "scalar_wrapper": "Wraps a scalar for the script parser.",
    "scope_id": "The index of an execution scope.", "shared_scalar": "A scalar in shared memory.",
    "smem": "Short for T.alloc_shared.", "static_assert": "Asserts a condition while parsing.",
    "thread_id": "The thread index.", "thread_id_in_wg": "The thread index in its warpgroup.",
    "tmem": "Allocates a buffer in tensor memory (Blackwell).",
    "warp_id": "The warp index.", "warp_id_in_wg": "The warp index in its warpgroup.",
    "warpgroup_id": "The warpgroup index.",
    "Add": "The TIR expression node a + b.", "Sub": "The TIR expression node a - b.",
    "Mul": "The TIR expression node a * b.", "Div": "The TIR expression node a / b.",
    "Mod": "The TIR expression node a % b.", "FloorDiv": "The TIR expression node a // b.",
    "FloorMod": "The TIR expression node floormod(a, b).", "Min": "The TIR expression node min(a, b).",
    "Max": "The TIR expression node max(a, b).", "EQ": "The TIR expression node a == b.",
    "NE": "The TIR expression node a != b.", "LT": "The TIR expression node a < b.",
    "LE": "The TIR expression node a <= b.", "GT": "The TIR expression node a > b.",
    "GE": "The TIR expression node a >= b.", "And": "The TIR expression node a and b.",
    "Or": "The TIR expression node a or b.", "Not": "The TIR expression node not a.",
    "IterVar": "An iteration variable node.",
    "mma_store": "Stores an MMA accumulator fragment to memory.",
    "mma_fill": "Fills an MMA accumulator fragment with zeros.",
    "create_barriers": "Creates a number of asynchronous barriers.",
    "make_filled_simdgroup_matrix": "A Metal simdgroup matrix filled with a value.",
    "simdgroup_load": "Loads a Metal simdgroup matrix.", "simdgroup_store": "Stores a Metal simdgroup matrix.",
    "simdgroup_multiply_accumulate": "Metal simdgroup matrix multiply-accumulate.",
}

SHORT = {"bf16": "bfloat16", "f16": "float16", "f32": "float32", "f64": "float64", "i8": "int8",
         "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8", "u16": "uint16",
         "u32": "uint32", "u64": "uint64"}


def Doc(name, kind):
    if name in DOCS:
        return DOCS[name]
    if name in SHORT:
        return f"Short for T.{SHORT[name]}."
    if kind == "Dt":
        m = re.fullmatch(r"([a-z0-9_]+?)x(\d+)", name)
        if m:
            return f"A vector of {m.group(2)} {m.group(1)} lanes: a variable (no argument) or a constant/cast."
        return f"The {name} dtype: a variable (no argument) or a constant/cast."
    if name.startswith("ptx_"):
        return "PTX instruction " + name[4:].replace("_", ".") + " (inline PTX assembly, CUDA)."
    if name.startswith("tvm_"):
        return "TVM builtin " + name + "."
    return None


# ---------------------------------------------------------------------------------- rows

def row_kind(name, info):
    if info is None:
        return "F"
    if info[0] == "dtype" or name in SHORT or name == "boolean":
        return "Dt"
    if info[0] in ("namespace", "module"):
        return "Ns"
    if info[0] == "class" and name[:1].isupper():
        return "Ty" if name.endswith("Annotation") or name in ("DtypeConstructor", "CallEffectKind") else "F"
    return "F"


def row_params(name, info, era):
    if info is None:
        return None
    if info[0] == "dtype" or name in SHORT or name == "boolean":
        return "expr=None, *, is_size_var=False" if era == "Cl" else "expr=None"
    if info[0] in ("def", "class", "instance"):
        return info[1]
    return None


def c_literals(text):
    """The concatenated value of adjacent C string literals."""
    return "".join(bytes(m, "utf-8").decode("unicode_escape") for m in re.findall(r'"((?:[^"\\]|\\.)*)"', text))


def hand_rows():
    """path -> [(era, params or None)] of the T rows script_names.cc writes by hand (macros
    expanded)."""
    text = open(HAND).read()
    macros = {}
    for m in re.finditer(r"#define (TVMLS_\w+) \\\n((?:.*\\\n)*.*)", text):
        macros[m.group(1)] = c_literals(m.group(2))
    out = {}
    token = re.compile(r'\s*("(?:[^"\\]|\\.)*"|TVMLS_\w+|nullptr)')
    for m in re.finditer(r'\{kT, "([^"]+)", (\w+), (\w+), ', text):
        pos, value, parts = m.end(), "", 0
        while True:
            t = token.match(text, pos)
            if not t:
                break
            pos, tok = t.end(), t.group(1)
            parts += 1
            if tok == "nullptr":
                value = None
                break
            value += macros[tok] if tok.startswith("TVMLS_") else c_literals(tok)
        out.setdefault(m.group(1), []).append((m.group(3), value))
    return out


def disagreements(eras, hand):
    """Hand rows whose parameters are not TVM's (where TVM's are known), and hand rows of a name
    an era does not have."""
    out = []
    for path, rows in sorted(hand.items()):
        if "." in path:
            continue
        for era, params in rows:
            for e in (["Cl", "Cu"] if era == "B" else [era]):
                if path not in eras[e]:
                    out.append(f"T.{path} has a row for {e} but TVM's {e} era has no such name")
                    continue
                tvm = row_params(path, eras[e][path], e)
                forwards = tvm == "*args, **kwargs"  # a deprecated spelling passing all on
                if tvm is not None and params is not None and tvm != params and not forwards:
                    out.append(f"T.{path} [{e}]: table ({params}) but TVM ({tvm})")
    return out


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", default="/work/.mirror/apache+tvm/repo")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--report", action="store_true")
    args = ap.parse_args()

    eras = {"Cl": classic_names(args.mirror), "Cu": current_names(args.mirror)}
    hand = hand_rows()
    # One row per name when both eras agree on kind and parameters; else one per era.
    rows = []
    missing_docs = []
    for name in sorted(set(eras["Cl"]) | set(eras["Cu"])):
        if "." in name or name.startswith("_"):
            continue
        hand_eras = {e for era, _ in hand.get(name, []) for e in (("Cl", "Cu") if era == "B" else (era,))}
        per = {}
        for era in ("Cl", "Cu"):
            if name in eras[era] and era not in hand_eras:
                info = eras[era][name]
                kind = row_kind(name, info)
                per[era] = (kind, row_params(name, info, era))
        if not per:
            continue
        doc = Doc(name, next(iter(per.values()))[0])
        if doc is None:
            missing_docs.append(name)
            doc = "TIR builder " + name + "."
        if len(per) == 2 and per["Cl"] == per["Cu"]:
            rows.append((name, per["Cl"][0], "B", per["Cl"][1], doc))
        else:
            for era, (kind, params) in per.items():
                rows.append((name, kind, era, params, doc))

    lines = [
        "// GENERATED by analysis/vocab/gen_tir_names.py from apache/tvm's source (v0.23.0 for the",
        "// classic era, HEAD for the current one): the `T.` names that script_names.cc does not write",
        "// by hand, with the parameters of their Python definitions. Do not edit; run the script.",
        "// The docs are ours (the script's DOCS table and rules).",
        '#include "vocab/script_names.h"',
        "",
        "namespace tvmls::vocab {",
        "",
        "// clang-format off",
        "void TirGeneratedRows(std::vector<ScriptName>* t) {",
        "  constexpr Dialect kT = Dialect::kTir;",
        "  constexpr NameKind F = NameKind::kFunction;",
        "  constexpr NameKind Ty = NameKind::kType;",
        "  constexpr NameKind Ns = NameKind::kNamespace;",
        "  constexpr NameKind Dt = NameKind::kDtype;",
        "  constexpr EraTag B = EraTag::kBoth;",
        "  constexpr EraTag Cl = EraTag::kClassic;",
        "  constexpr EraTag Cu = EraTag::kCurrent;",
        "  (void)Ty;",
        "  const ScriptName rows[] = {",
    ]
    for name, kind, era, params, doc in rows:
        p = "nullptr" if params is None else cstr(params)
        lines.append(f"    {{kT, {cstr(name)}, {kind}, {era}, {p}, {cstr(doc)}}},")
    lines += ["  };", "  t->insert(t->end(), std::begin(rows), std::end(rows));", "}",
              "// clang-format on", "", "}  // namespace tvmls::vocab", ""]
    text = "\n".join(lines)

    if args.report:
        for era in ("Cl", "Cu"):
            names = [n for n in eras[era] if not n.startswith("_")]
            print(f"{era}: {len(names)} names enumerated in TVM's source")
        print("generated rows:", len(rows))
        print("without a doc of ours:", " ".join(missing_docs))
        for line in disagreements(eras, hand):
            print(line)
    if args.check:
        old = open(OUT).read() if os.path.exists(OUT) else ""
        problems = disagreements(eras, hand) + [f"T.{n} has no doc (add it to DOCS)" for n in missing_docs]
        for line in problems:
            print(line, file=sys.stderr)
        if old != text:
            print(f"{OUT} is not what {__file__} generates", file=sys.stderr)
        return 1 if problems or old != text else 0
    if not args.report:
        with open(OUT, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
