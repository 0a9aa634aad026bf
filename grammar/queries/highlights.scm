; Syntax highlighting for TVMScript (the `tvmscript` tree-sitter grammar).
;
; The grammar reads plain Python 3 and carries no TVM semantics, so everything TVM-specific
; below is recognised from spelling: an attribute whose object is one of the TVMScript
; namespace names (`R`, `T`, `I`, or the long forms `relax`, `tir`, `tirx`, `ir`), and a few
; well-known attribute names under them. These are heuristics, owned up to section by
; section; the analysis layer is the place for exact answers (semantic tokens).
;
; Precedence: when several patterns capture the same node, the EARLIEST pattern in this file
; wins (tree-sitter-highlight's rule). So the file runs from specific to general and ends with
; the `(identifier) @variable` fallback. Hosts that let the LAST pattern win (Neovim) would
; have to reverse the order.
;
; Captures whose name starts with `_` exist only to feed predicates; they are not
; highlights. Under first-wins, a `_` capture must never be the first capture of a node that
; should be highlighted, so the namespace section (which gives `R`, `T`, `I` and sub-namespaces
; such as `nn` their real capture) must stay first: later sections capture those same
; identifiers as `@_ns` / `@_sub`.
;
; Predicates: only #match? and #eq?. Regexes keep to the subset that POSIX ERE, ECMAScript and
; Rust's regex crate agree on (anchors, groups, alternation, bracket classes, ? * +): no \d,
; \w, \b or (?:...).
;
; Dotted capture names (@function.builtin, @keyword.return, ...) degrade to their prefix in
; hosts that resolve names by prefix, as tree-sitter-highlight does.

; ===========================================================================================
; TVMScript namespaces
; ===========================================================================================

; `R.add`, `T.grid`, `I.ir_module`: the object of an attribute spelled like a TVMScript
; namespace. Heuristic: a user variable named `T` or `I` that is the object of an attribute
; is coloured as a module too.
((attribute
  object: (identifier) @module)
 (#match? @module "^(R|T|I|relax|tir|tirx|ir)$"))

; Sub-namespaces: `nn` in `R.nn.softmax`, `memory` in `R.memory.alloc_storage`, `axis` in
; `T.axis.remap`. Any attribute of a namespace that is itself the object of an attribute.
((attribute
  object: (attribute
    object: (identifier) @_ns
    attribute: (identifier) @module))
 (#match? @_ns "^(R|T|I|relax|tir|tirx|ir)$"))

; The import that binds a namespace: `from tvm.script import relax as R`. Both the imported
; module and its alias are modules when the alias is a TVMScript namespace name.
((aliased_import
  alias: (identifier) @module)
 (#match? @module "^(R|T|I|relax|tir|tirx|ir)$"))

((aliased_import
  name: (dotted_name (identifier) @module)
  alias: (identifier) @_alias)
 (#match? @_alias "^(R|T|I|relax|tir|tirx|ir)$"))

; ===========================================================================================
; Builtin variables
; ===========================================================================================

; `cls` is bound to the IRModule class inside `@I.ir_module` (and is the classmethod
; receiver in ordinary Python); `self` is the method receiver.
((identifier) @variable.builtin
 (#match? @variable.builtin "^(cls|self)$"))

((identifier) @constant.builtin
 (#match? @constant.builtin "^(NotImplemented|Ellipsis|__debug__|__name__|__file__|__doc__|__package__|__spec__|__loader__|__builtins__)$"))

; ===========================================================================================
; Decorators
; ===========================================================================================

(decorator "@" @attribute)

; TVMScript decorators, bare or called: `@I.ir_module`, `@R.function`, `@R.function(pure=False)`,
; `@T.prim_func(private=True)`, `@R.macro`, `@T.macro`, `@T.inline`. Their names are the
; dialect's own, so they get @attribute.builtin (which degrades to @attribute).
((decorator
  value: [
    (attribute
      object: (identifier) @_ns
      attribute: (identifier) @attribute.builtin)
    (call
      function: (attribute
        object: (identifier) @_ns
        attribute: (identifier) @attribute.builtin))
  ])
 (#match? @_ns "^(R|T|I|relax|tir|tirx|ir)$")
 (#match? @attribute.builtin "^(function|prim_func|ir_module|macro|inline)$"))

; Any other decorator: the last name of its dotted path, called or not.
(decorator
  value: [
    (identifier) @attribute
    (attribute attribute: (identifier) @attribute)
    (call function: (identifier) @attribute)
    (call function: (attribute attribute: (identifier) @attribute))
  ])

; ===========================================================================================
; TVMScript function definitions
; ===========================================================================================

; A function decorated with `@R.function`, `@T.prim_func` or a macro decorator is a module-level
; function of the IRModule (a GlobalVar), not a method, even though it is written inside the
; `@I.ir_module` class: @function, ahead of the method rule further down.
((decorated_definition
  (decorator
    value: [
      (attribute
        object: (identifier) @_ns
        attribute: (identifier) @_deco)
      (call
        function: (attribute
          object: (identifier) @_ns
          attribute: (identifier) @_deco))
    ])
  definition: (function_definition
    name: (identifier) @function))
 (#match? @_ns "^(R|T|I|relax|tir|tirx|ir)$")
 (#match? @_deco "^(function|prim_func|macro|inline)$"))

; ===========================================================================================
; TVMScript types: struct info, buffer types and dtypes
; ===========================================================================================

; Relax struct info, in annotations (`x: R.Tensor((n, 64), "float16")`) and as values
; (`out_sinfo=R.Tensor(...)`, `_: R.Tuple = ...`). The list is Relax's StructInfo family;
; other capitalised `R.` names fall through to the op rules below.
((attribute
  object: (identifier) @_ns
  attribute: (identifier) @type)
 (#match? @_ns "^(R|relax)$")
 (#match? @type "^(Tensor|Shape|Tuple|Object|Any|Prim|Callable)$"))

; TIR types: `T.Buffer`, `T.Ptr`, `T.handle`, `T.void`, `T.bool`, and the dtype constructors
; `T.int64`, `T.float16`, `T.bfloat16`, `T.float8_e4m3fn`, `T.int32x4`, ... A dtype
; constructor is a type both in an annotation (`g: T.float32`) and when called to build a
; value or a variable (`T.int64(64)`, `n = T.int64()`): it names the type either way.
((attribute
  object: (identifier) @_ns
  attribute: (identifier) @type)
 (#match? @_ns "^(T|tir|tirx)$")
 (#match? @type "^(Buffer|Ptr|handle|void|bool|boolean|u?int(1|4|8|16|32|64)|bfloat16|float(16|32|64)|float[4-8]_e[0-9]m[0-9][a-z0-9]*|e[45]m[23]_float8)(x[0-9]+)?$"))

; ===========================================================================================
; TVMScript operators and builder calls
; ===========================================================================================

; Every call of a name directly under a namespace is a dialect builtin: Relax operators
; (`R.matmul`, `R.call_tir`, `R.const`, `R.shape`), TIR intrinsics and builders (`T.grid`,
; `T.match_buffer`, `T.Cast`, `T.reads`), and the scope builders used in `with`
; (`R.dataflow()`, `T.block(...)`, `T.sblock(...)`, `T.init()`).
;
; Choice: `with R.dataflow():` / `with T.block("x"):` stay @function.builtin rather than
; @keyword. They are ordinary calls (they take arguments, `T.block` became `T.sblock`, user
; code can wrap them), exactly like `T.grid` in a `for`, and colouring them as syntax would
; hide that. The block name string gets @label instead (see the strings section).
((call
  function: (attribute
    object: (identifier) @_ns
    attribute: (identifier) @function.builtin))
 (#match? @_ns "^(R|T|I|relax|tir|tirx|ir)$"))

; One namespace level down: `R.nn.softmax`, `R.memory.alloc_tensor`, `T.axis.remap`.
((call
  function: (attribute
    object: (attribute
      object: (identifier) @_ns)
    attribute: (identifier) @function.builtin))
 (#match? @_ns "^(R|T|I|relax|tir|tirx|ir)$"))

; ===========================================================================================
; TVMScript strings
; ===========================================================================================

; Dtype strings: `"float16"` in `T.Buffer(..., "float16")`, `dtype="float16"`,
; `T.Cast("float32", x)`, `R.const(0.25, "float16")`, `R.dtype("uint8")`, `out_dtype="void"`.
; Heuristic: ANY string whose whole text is a dtype name, wherever it appears. TVMScript
; passes dtypes as strings in too many positions to list, and a plain Python string spelled
; exactly `"float16"` means the dtype anyway.
((string) @type.builtin
 (#match? @type.builtin "^[\"'](bool|handle|void|u?int(1|4|8|16|32|64)|bfloat16|float(16|32|64)|float[4-8]_e[0-9]m[0-9][a-z0-9]*|e[45]m[23]_float8)(x[0-9]+)?[\"']$"))

; Symbolic dimensions spelled as strings in Relax shapes: the `"n"` in `R.Tensor(("n", 64))`,
; `R.Tensor(shape=["n"])`, `R.Shape(["n", "m"])`. Each such string declares a symbolic
; variable, so it is not plain text.
((call
  function: (attribute
    object: (identifier) @_ns
    attribute: (identifier) @_sinfo)
  arguments: (argument_list
    .
    [
      (tuple (string) @string.special)
      (list (string) @string.special)
    ]))
 (#match? @_ns "^(R|relax)$")
 (#match? @_sinfo "^(Tensor|Shape)$"))

((call
  function: (attribute
    object: (identifier) @_ns
    attribute: (identifier) @_sinfo)
  arguments: (argument_list
    (keyword_argument
      name: (identifier) @variable.parameter
      value: [
        (tuple (string) @string.special)
        (list (string) @string.special)
      ])))
 (#match? @_ns "^(R|relax)$")
 (#match? @_sinfo "^(Tensor|Shape)$")
 (#eq? @variable.parameter "shape"))

; Block names: `with T.block("matmul"):` / `with T.sblock("matmul"):`. The name labels the
; block in schedules and error messages.
((call
  function: (attribute
    object: (identifier) @_ns
    attribute: (identifier) @_block)
  arguments: (argument_list . (string) @label))
 (#match? @_ns "^(T|tir|tirx)$")
 (#match? @_block "^s?block$"))

; Iterator kinds: the `"SSR"` in `T.axis.remap("SSR", [i, j, k])` (S spatial, R reduce).
((call
  function: (attribute
    object: (attribute
      object: (identifier) @_ns
      attribute: (identifier) @_axis)
    attribute: (identifier) @_remap)
  arguments: (argument_list . (string) @string.special))
 (#match? @_ns "^(T|tir|tirx)$")
 (#eq? @_axis "axis")
 (#eq? @_remap "remap"))

; ===========================================================================================
; Module functions referenced through `cls`
; ===========================================================================================

; Inside `@I.ir_module`, `cls.rms_norm` names another function of the module (a GlobalVar),
; typically passed to `R.call_tir`. Heuristic: in an ordinary classmethod `cls.x` may be a
; data attribute; it is coloured as a function anyway.
((call
  function: (attribute
    object: (identifier) @variable.builtin
    attribute: (identifier) @function.call))
 (#eq? @variable.builtin "cls"))

((attribute
  object: (identifier) @variable.builtin
  attribute: (identifier) @function)
 (#eq? @variable.builtin "cls"))

; ===========================================================================================
; Definitions
; ===========================================================================================

; Functions defined directly in a class body are methods (TVMScript functions inside an
; `@I.ir_module` class were already taken as @function above).
(class_definition
  body: (block
    [
      (function_definition
        name: (identifier) @function.method)
      (decorated_definition
        definition: (function_definition
          name: (identifier) @function.method))
    ]))

(function_definition
  name: (identifier) @function)

(class_definition
  name: (identifier) @type)

(class_definition
  superclasses: (argument_list (identifier) @type))

; ===========================================================================================
; Parameters and keyword arguments
; ===========================================================================================

(parameters (identifier) @variable.parameter)

(lambda_parameters (identifier) @variable.parameter)

(typed_parameter
  name: (identifier) @variable.parameter)

(default_parameter
  name: (identifier) @variable.parameter)

(typed_default_parameter
  name: (identifier) @variable.parameter)

(list_splat_pattern
  name: (identifier) @variable.parameter)

(dictionary_splat_pattern
  name: (identifier) @variable.parameter)

; `out_sinfo=`, `dtype=`, `private=True`: the name of a keyword argument is the callee's
; parameter.
(keyword_argument
  name: (identifier) @variable.parameter)

; ===========================================================================================
; Type annotations (plain Python)
; ===========================================================================================

; A bare name in an annotation, or one level of subscripted generic (`Optional[int]`,
; `List[Foo]`), is a type. Python's builtin types there get @type.builtin. Deeper nesting is
; left to the general rules (annotations with `R.`/`T.` were handled above).
((typed_parameter
  annotation: [
    (identifier) @type.builtin
    (subscript value: (identifier) @type.builtin)
    (subscript subscript: (identifier) @type.builtin)
  ])
 (#match? @type.builtin "^(int|float|complex|bool|str|bytes|bytearray|list|dict|tuple|set|frozenset|object|type|range|slice)$"))

((typed_default_parameter
  annotation: [
    (identifier) @type.builtin
    (subscript value: (identifier) @type.builtin)
    (subscript subscript: (identifier) @type.builtin)
  ])
 (#match? @type.builtin "^(int|float|complex|bool|str|bytes|bytearray|list|dict|tuple|set|frozenset|object|type|range|slice)$"))

((assignment
  annotation: [
    (identifier) @type.builtin
    (subscript value: (identifier) @type.builtin)
    (subscript subscript: (identifier) @type.builtin)
  ])
 (#match? @type.builtin "^(int|float|complex|bool|str|bytes|bytearray|list|dict|tuple|set|frozenset|object|type|range|slice)$"))

((function_definition
  return_type: [
    (identifier) @type.builtin
    (subscript value: (identifier) @type.builtin)
    (subscript subscript: (identifier) @type.builtin)
  ])
 (#match? @type.builtin "^(int|float|complex|bool|str|bytes|bytearray|list|dict|tuple|set|frozenset|object|type|range|slice)$"))

(typed_parameter
  annotation: [
    (identifier) @type
    (subscript value: (identifier) @type)
    (subscript subscript: (identifier) @type)
  ])

(typed_default_parameter
  annotation: [
    (identifier) @type
    (subscript value: (identifier) @type)
    (subscript subscript: (identifier) @type)
  ])

(assignment
  annotation: [
    (identifier) @type
    (subscript value: (identifier) @type)
    (subscript subscript: (identifier) @type)
  ])

(function_definition
  return_type: [
    (identifier) @type
    (subscript value: (identifier) @type)
    (subscript subscript: (identifier) @type)
  ])

; ===========================================================================================
; Calls (plain Python)
; ===========================================================================================

; Python's builtin functions. `range` matters in TVMScript: it is TIR's serial loop.
((call
  function: (identifier) @function.builtin)
 (#match? @function.builtin "^(abs|all|any|ascii|bin|bool|breakpoint|bytearray|bytes|callable|chr|classmethod|compile|complex|delattr|dict|dir|divmod|enumerate|eval|exec|filter|float|format|frozenset|getattr|globals|hasattr|hash|help|hex|id|input|int|isinstance|issubclass|iter|len|list|locals|map|max|memoryview|min|next|object|oct|open|ord|pow|print|property|range|repr|reversed|round|set|setattr|slice|sorted|staticmethod|str|sum|super|tuple|type|vars|zip|__import__)$"))

; Heuristic: calling a CamelCase name constructs an instance of a class (`Module()`,
; `ValueError("...")`, `tvm.tir.IntImm(...)`).
((call
  function: [
    (identifier) @type
    (attribute attribute: (identifier) @type)
  ])
 (#match? @type "^_*[A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*$"))

(call
  function: (identifier) @function.call)

(call
  function: (attribute
    attribute: (identifier) @function.method.call))

; ===========================================================================================
; Identifier naming conventions
; ===========================================================================================

; Heuristic: ALL_CAPS names of two or more characters are constants. Single capitals are left
; alone on purpose: TIR names its buffers `A`, `B`, `X`, `Y`.
((identifier) @constant
 (#match? @constant "^_*[A-Z][A-Z0-9_]+$"))

; Heuristic: CamelCase names (a capital first, some lower-case later) are classes.
((identifier) @type
 (#match? @type "^_*[A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*$"))

; ===========================================================================================
; Attributes
; ===========================================================================================

(attribute
  attribute: (identifier) @property)

; ===========================================================================================
; Imports
; ===========================================================================================

(import_statement
  name: (dotted_name (identifier) @module))

(import_statement
  name: (aliased_import
    name: (dotted_name (identifier) @module)
    alias: (identifier) @module))

(import_from_statement
  module_name: (dotted_name (identifier) @module))

(import_from_statement
  module_name: (relative_import (dotted_name (identifier) @module)))

; ===========================================================================================
; Literals
; ===========================================================================================

[
  (true)
  (false)
  (none)
  (ellipsis)
] @constant.builtin

(integer) @number

(float) @number.float

(comment) @comment

; Docstrings: a string that is the first statement of a module, class or function body.
; A comment before it hides it (comments are named nodes, so the `.` anchor sees them).
(module
  .
  (expression_statement (string) @string.documentation))

(function_definition
  body: (block
    .
    (expression_statement (string) @string.documentation)))

(class_definition
  body: (block
    .
    (expression_statement (string) @string.documentation)))

; f-strings: the braces of an interpolation, its `!r` conversion and `:fmt` specifier. The
; expression inside is highlighted by the rules above like any other expression.
(interpolation
  [
    "{"
    "}"
  ] @punctuation.special)

(type_conversion) @string.special

; Note: the external scanner does not split escape sequences out of `string_content`, so there
; is no node to give @string.escape; that needs a grammar change.
(string) @string

; ===========================================================================================
; Keywords
; ===========================================================================================

[
  "def"
  "lambda"
] @keyword.function

"class" @keyword.type

[
  "return"
  "yield"
] @keyword.return

(yield "from" @keyword.return)

(import_statement "import" @keyword.import)

(import_from_statement
  [
    "from"
    "import"
  ] @keyword.import)

(aliased_import "as" @keyword.import)

[
  "if"
  "elif"
  "else"
] @keyword.conditional

(match_statement "match" @keyword.conditional)

(case_clause "case" @keyword.conditional)

[
  "for"
  "while"
  (break_statement)
  (continue_statement)
] @keyword.repeat

(for_statement "in" @keyword.repeat)

(for_in_clause "in" @keyword.repeat)

[
  "try"
  "except"
  "finally"
  "raise"
] @keyword.exception

(raise_statement "from" @keyword.exception)

[
  "async"
  "await"
] @keyword.coroutine

[
  "and"
  "or"
  "not"
  "in"
  "is"
  "not in"
  "is not"
] @keyword.operator

[
  "as"
  "assert"
  "del"
  "global"
  "nonlocal"
  "with"
  (pass_statement)
] @keyword

; ===========================================================================================
; Operators and punctuation
; ===========================================================================================

[
  "+"
  "-"
  "*"
  "**"
  "/"
  "//"
  "%"
  "@"
  "|"
  "&"
  "^"
  "~"
  "<<"
  ">>"
  "<"
  "<="
  "=="
  "!="
  "<>"
  ">="
  ">"
  "="
  ":="
  "+="
  "-="
  "*="
  "**="
  "/="
  "//="
  "%="
  "@="
  "|="
  "&="
  "^="
  "<<="
  ">>="
  "->"
  (keyword_separator)
  (positional_separator)
  (wildcard_import)
] @operator

[
  "("
  ")"
  "["
  "]"
  "{"
  "}"
] @punctuation.bracket

[
  ","
  "."
  ":"
  ";"
] @punctuation.delimiter

(line_continuation) @punctuation.special

; ===========================================================================================
; Fallback
; ===========================================================================================

(identifier) @variable
