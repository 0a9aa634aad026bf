; Folding ranges for TVMScript (the `tvmscript` grammar).
;
; Every capture is one node and folds that node's line span. A node that starts and ends on
; the same line gives no fold; the host drops it. Nested constructs that start on the same
; line (a `call`'s argument list and a tuple inside it, a decorated definition and its first
; decorator) give folds with the same start line; an LSP client keeps one fold per start
; line, so the host may keep the outermost and drop the rest.

; ===========================================================================================
; Definitions
; ===========================================================================================

; `@T.prim_func(...)` + `def ...:` folds from the first decorator; the function_definition
; inside it folds from the `def` line, so a fold on the `def` line hides only the body.
[
  (decorated_definition)
  (function_definition)
  (class_definition)
] @fold

; A long parameter list, as TVMScript's printer emits for Relax functions:
;   def main(
;       x: R.Tensor((b, s, 64), dtype="float16"),
;       ...
;   ) -> R.Tensor(...):
(parameters) @fold

; ===========================================================================================
; Compound statements and their clauses
; ===========================================================================================

; `with R.dataflow():` and `with T.block("name"):` are the main nesting structure of
; TVMScript function bodies; `for ... in T.grid(...)` the other.
[
  (if_statement)
  (elif_clause)
  (else_clause)
  (for_statement)
  (while_statement)
  (with_statement)
  (try_statement)
  (except_clause)
  (finally_clause)
  (match_statement)
  (case_clause)
] @fold

; No `(block) @fold`, on purpose. A block starts at the first statement of the body, the line
; after its header, and every block belongs to one of the statements above, whose fold from
; the header line already hides exactly the same lines. A block fold would only add a second,
; smaller fold marker on the first line of every body (hiding lines 2..n of the body), which
; is noise in an editor's gutter.

; ===========================================================================================
; Brackets spanning lines
; ===========================================================================================

; Call arguments: `R.call_tir(\n cls.f, (x, w), out_sinfo=...\n)`, `R.nn.layer_norm(...)`.
(argument_list) @fold

[
  (list)
  (tuple)
  (set)
  (dictionary)
  (parenthesized_expression)
  (subscript)
  (list_comprehension)
  (set_comprehension)
  (dictionary_comprehension)
  (generator_expression)
] @fold

; `from tvm.script import (\n ir as I,\n relax as R,\n)`.
(import_from_statement) @fold

; ===========================================================================================
; Strings
; ===========================================================================================

; Triple-quoted strings (docstrings, embedded TVMScript source in tests) and implicitly
; concatenated strings spread over lines.
[
  (string)
  (concatenated_string)
] @fold
