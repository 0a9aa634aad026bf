; extends
; TVMScript inside Python files (for users who have a `python` tree-sitter parser, e.g. from
; nvim-treesitter): the body of an `@I.ir_module` class and of a standalone `@R.function` /
; `@T.prim_func` is re-parsed with the `tvmscript` grammar, whose highlights colour
; `R.`/`T.`/`I.` namespaces, operators, struct info and dtype strings on top of Python's.
;
; Written for tree-sitter-python's node names (its `decorator` has no `value:` field).
; The first line `; extends` makes Neovim 0.8+ add these patterns to the python parser's own
; injections instead of replacing them; 0.7 concatenates every injections.scm on the
; runtimepath anyway. Each pattern sets the language both ways: `injection.language` (0.9+)
; and `language` (0.7/0.8); each Neovim ignores the other key.

; `@I.ir_module` / `@tvm.script.ir_module` classes (bare or called: `@I.ir_module(check_well_formed=False)`).
((decorated_definition
  (decorator
    [
      (attribute attribute: (identifier) @_deco)
      (call function: (attribute attribute: (identifier) @_deco))
      (identifier) @_deco
    ])
  definition: (class_definition)) @injection.content
 (#eq? @_deco "ir_module")
 (#set! injection.language "tvmscript")
 (#set! injection.include-children)
 (#set! language "tvmscript"))

; `@R.function` / `@T.prim_func` functions outside a class: at module level or inside an
; ordinary Python function (TVM's tests define them in test bodies). Functions inside an
; `@I.ir_module` class are already covered by the class above.
(module
  (decorated_definition
    (decorator
      [
        (attribute object: (identifier) @_ns attribute: (identifier) @_deco)
        (call function: (attribute object: (identifier) @_ns attribute: (identifier) @_deco))
      ])
    definition: (function_definition)) @injection.content
  (#any-of? @_ns "R" "T" "relax" "tir" "tirx")
  (#any-of? @_deco "function" "prim_func")
  (#set! injection.language "tvmscript")
  (#set! injection.include-children)
  (#set! language "tvmscript"))

(function_definition
  body: (block
    (decorated_definition
      (decorator
        [
          (attribute object: (identifier) @_ns attribute: (identifier) @_deco)
          (call function: (attribute object: (identifier) @_ns attribute: (identifier) @_deco))
        ])
      definition: (function_definition)) @injection.content)
  (#any-of? @_ns "R" "T" "relax" "tir" "tirx")
  (#any-of? @_deco "function" "prim_func")
  (#set! injection.language "tvmscript")
  (#set! injection.include-children)
  (#set! language "tvmscript"))

; TVMScript source in a string: `tvm.script.from_source("""...""")`.
((call
  function: [
    (identifier) @_fn
    (attribute attribute: (identifier) @_fn)
  ]
  arguments: (argument_list . (string (string_content) @injection.content)))
 (#eq? @_fn "from_source")
 (#set! injection.language "tvmscript")
 (#set! language "tvmscript"))
