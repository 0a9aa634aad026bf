; Local scopes, definitions and references for TVMScript (the `tvmscript` grammar), in
; tree-sitter's locals model: a definition belongs to the innermost @local.scope that
; contains it; a @local.reference resolves to the nearest earlier definition of the same
; name, searching outward through enclosing scopes.
;
; Python does not fit that model exactly; the approximations are owned up to below. The
; analysis layer does real name resolution (including TVMScript's: `cls.f` global functions,
; symbolic shape variables, block iterators); this file serves editors that only have
; tree-sitter.
;
; Order: definition patterns come before the reference patterns, so where an identifier is
; captured as both (the reference patterns below are written per parent node and also catch
; assignment and loop targets), a host that processes a node's captures in pattern order
; (tree-sitter-highlight) records the definition and skips the reference.

; ===========================================================================================
; Scopes
; ===========================================================================================

; The module itself is the root scope.
(module) @local.scope

(function_definition) @local.scope

; Approximation: a class body is a scope here, and nested scopes inherit from it. Python's
; methods do not see class-level names; this model lets them.
(class_definition) @local.scope

(lambda) @local.scope

; Comprehensions have their own scope in Python 3; their loop variables do not leak.
[
  (list_comprehension)
  (set_comprehension)
  (dictionary_comprehension)
  (generator_expression)
] @local.scope

; ===========================================================================================
; Definitions: functions and classes
; ===========================================================================================

; Approximation: a function's or class's name is bound in the ENCLOSING scope, but its node
; lies inside the function_definition / class_definition node that is the new scope, so this
; model files the name under the function's own scope. References from inside (recursion)
; resolve; references from outside do not. In TVMScript module functions call each other
; through `cls.name`, an attribute, which is not a local reference anyway.
(function_definition
  name: (identifier) @local.definition)

(class_definition
  name: (identifier) @local.definition)

; ===========================================================================================
; Definitions: parameters
; ===========================================================================================

(parameters (identifier) @local.definition)

(lambda_parameters (identifier) @local.definition)

(typed_parameter
  name: (identifier) @local.definition)

(default_parameter
  name: (identifier) @local.definition)

(typed_default_parameter
  name: (identifier) @local.definition)

(list_splat_pattern
  name: (identifier) @local.definition)

(dictionary_splat_pattern
  name: (identifier) @local.definition)

; PEP 695 type parameters: `def f[T](x: T)`.
(type_parameter name: (identifier) @local.definition)

; ===========================================================================================
; Definitions: assignments
; ===========================================================================================

; `x = ...`, `h: R.Tensor(...) = ...`. The right-hand side is the definition's value, so a
; name used on the right (`x = x + 1`) still refers to the earlier binding.
(assignment
  left: (identifier) @local.definition
  right: (_) @local.definition-value)

; `x: int` (annotation only, no value).
(assignment
  left: (identifier) @local.definition
  !right)

; Unpacking, one level deep: `b, s = T.int64(), T.int64()`,
; `v_i0, v_i1 = T.axis.remap("SS", [i0, i1])`, `(a, b) = ...`, `[a, b] = ...`, `a, *rest = ...`.
(assignment
  left: [
    (expression_list (identifier) @local.definition)
    (expression_list (list_splat (identifier) @local.definition))
    (tuple (identifier) @local.definition)
    (list (identifier) @local.definition)
    (parenthesized_expression (identifier) @local.definition)
  ]
  right: (_) @local.definition-value)

; Approximation: one level of nesting only; `(a, (b, c)) = ...` binds `b` and `c` unseen.

; The walrus: `(n := len(x))`.
(named_expression
  name: (identifier) @local.definition
  value: (_) @local.definition-value)

; ===========================================================================================
; Definitions: loops and comprehensions
; ===========================================================================================

; `for i0, i1, j, k in T.grid(...)`, `for k in range(...)`. The iterable is the value: it is
; evaluated before the loop variables exist.
(for_statement
  left: [
    (identifier) @local.definition
    (expression_list (identifier) @local.definition)
    (tuple (identifier) @local.definition)
    (list (identifier) @local.definition)
  ]
  right: (_) @local.definition-value)

; Approximation: the comprehension body comes BEFORE its `for` clause in the text
; (`[x * 2 for x in xs]`), and this model only resolves references that follow the
; definition, so uses in the body stay unresolved; uses in later `if`/`for` clauses resolve.
(for_in_clause
  left: [
    (identifier) @local.definition
    (expression_list (identifier) @local.definition)
    (tuple (identifier) @local.definition)
    (list (identifier) @local.definition)
  ])

; ===========================================================================================
; Definitions: with, except, match
; ===========================================================================================

; `with open(p) as f:`; `with T.block("b") as b:` is rare in TVMScript but legal.
(with_item
  alias: [
    (identifier) @local.definition
    (tuple (identifier) @local.definition)
    (list (identifier) @local.definition)
  ])

(except_clause
  alias: (identifier) @local.definition)

; Capture patterns in `case` clauses: `case x:`, `case [a, *rest]:`, `case P() as p:`. A bare
; name in a pattern captures; a dotted one (`case Color.RED:`) is a value pattern, a reference.
(case_pattern (identifier) @local.definition)

(union_pattern (identifier) @local.definition)

(splat_pattern (identifier) @local.definition)

(as_pattern
  alias: (identifier) @local.definition)

; ===========================================================================================
; Definitions: imports
; ===========================================================================================

; `import tvm.relax` binds `tvm`.
(import_statement
  name: (dotted_name
    .
    (identifier) @local.definition))

; `from tvm.script import relax as R` binds `R`; `import numpy as np` binds `np`.
(aliased_import
  alias: (identifier) @local.definition)

; `from tvm import relax` binds `relax`.
(import_from_statement
  name: (dotted_name (identifier) @local.definition))

; ===========================================================================================
; References
; ===========================================================================================

; An identifier is a reference wherever it is an expression. Written per parent (rather than
; `(identifier) @local.reference`) because this grammar uses `identifier` for names that are
; NOT variable uses: the `attribute` of an attribute (`R.add`, `x.shape`), a keyword
; argument's `name` (`dtype=`), the segments of an import path, keyword-pattern names. Those
; must not pick up a local's highlight (a parameter `dtype` must not colour every `dtype=`).
; Parents whose identifier children can be definitions (assignment, for, tuple, ...) are
; listed too: there the definition patterns above take precedence.
[
  ; Statements
  (expression_statement (identifier) @local.reference)
  (return_statement value: (identifier) @local.reference)
  (delete_statement target: (identifier) @local.reference)
  (raise_statement (identifier) @local.reference)
  (assert_statement (identifier) @local.reference)
  (global_statement (identifier) @local.reference)
  (nonlocal_statement (identifier) @local.reference)
  (assignment (identifier) @local.reference)
  (augmented_assignment (identifier) @local.reference)
  (if_statement condition: (identifier) @local.reference)
  (elif_clause condition: (identifier) @local.reference)
  (while_statement condition: (identifier) @local.reference)
  (for_statement right: (identifier) @local.reference)
  (with_item value: (identifier) @local.reference)
  (except_clause value: (identifier) @local.reference)
  (match_statement subject: (identifier) @local.reference)
  ; The first segment of a name in a pattern: the class in `case Point(x=0):`, the enum in
  ; `case Color.RED:` (a one-segment name in a pattern is a capture, defined above).
  (class_pattern class: (dotted_name . (identifier) @local.reference))
  (case_pattern (dotted_name . (identifier) @local.reference))
  (union_pattern (dotted_name . (identifier) @local.reference))
  (decorator value: (identifier) @local.reference)

  ; Definitions' non-name parts: annotations, defaults, return types
  (typed_parameter annotation: (identifier) @local.reference)
  (default_parameter value: (identifier) @local.reference)
  (typed_default_parameter annotation: (identifier) @local.reference)
  (typed_default_parameter value: (identifier) @local.reference)
  (function_definition return_type: (identifier) @local.reference)

  ; Expressions
  (attribute object: (identifier) @local.reference)
  (call function: (identifier) @local.reference)
  (argument_list (identifier) @local.reference)
  (keyword_argument value: (identifier) @local.reference)
  (subscript (identifier) @local.reference)
  (slice (identifier) @local.reference)
  (binary_operator (identifier) @local.reference)
  (unary_operator (identifier) @local.reference)
  (comparison_operator (identifier) @local.reference)
  (boolean_operator (identifier) @local.reference)
  (not_operator (identifier) @local.reference)
  (conditional_expression (identifier) @local.reference)
  (named_expression value: (identifier) @local.reference)
  (lambda body: (identifier) @local.reference)
  (await (identifier) @local.reference)
  (yield (identifier) @local.reference)
  (parenthesized_expression (identifier) @local.reference)
  (expression_list (identifier) @local.reference)
  (tuple (identifier) @local.reference)
  (list (identifier) @local.reference)
  (set (identifier) @local.reference)
  (pair (identifier) @local.reference)
  (list_splat (identifier) @local.reference)
  (dictionary_splat (identifier) @local.reference)
  (interpolation (identifier) @local.reference)

  ; Comprehensions
  (list_comprehension body: (identifier) @local.reference)
  (set_comprehension body: (identifier) @local.reference)
  (generator_expression body: (identifier) @local.reference)
  (for_in_clause right: (identifier) @local.reference)
  (if_clause (identifier) @local.reference)
]
