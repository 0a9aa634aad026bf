; Injections for TVMScript. The one useful case: TVMScript source held in a string and parsed
; at run time, `tvm.script.from_source("""...""")` (TVM's tests do this); its text is parsed as
; `tvmscript` too. The language is set both ways: `injection.language` (Neovim 0.9+) and
; `language` (0.7/0.8); each version ignores the other key.
((call
  function: [
    (identifier) @_fn
    (attribute attribute: (identifier) @_fn)
  ]
  arguments: (argument_list . (string (string_content) @injection.content)))
 (#eq? @_fn "from_source")
 (#set! injection.language "tvmscript")
 (#set! language "tvmscript"))
