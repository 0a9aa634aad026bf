" Vim syntax file
" Language: TVMScript (Apache TVM's Relax and TIR IR in Python syntax)
" Python's syntax plus the TVMScript namespaces, decorators, types and dtype strings.
if exists('b:current_syntax')
    finish
endif

runtime! syntax/python.vim
unlet! b:current_syntax

" Items defined later win when they start at the same place, so these go after Python's.

" Namespaces `R.`, `T.`, `I.` (and the long forms) and what follows them: `R.nn.softmax`.
syn match tvmscriptNamespace "\<\%(R\|T\|I\|relax\|tir\|tirx\)\ze\.\h" nextgroup=tvmscriptDot
syn match tvmscriptDot "\." contained nextgroup=tvmscriptSubNamespace,tvmscriptType,tvmscriptDtypeName,tvmscriptBuiltin
syn match tvmscriptBuiltin "\h\w*" contained
syn match tvmscriptSubNamespace "\h\w*\ze\.\h" contained nextgroup=tvmscriptDot
" Struct info and buffer types.
syn keyword tvmscriptType contained Tensor Shape Tuple Object Any Prim Callable Buffer
    \ handle Ptr PrimFunc IRModule
" Dtype constructors: T.float32, R.int64, T.float16x4, T.bool.
syn match tvmscriptDtypeName "\%(u\=int\|b\=float\)\d\+\%(_\w\+\)\=\%(x\d\+\)\=\>\|bool\>" contained

" Decorators of the dialect: @I.ir_module, @R.function(pure=False), @T.prim_func(...).
syn match tvmscriptDecorator "@\s*\%(I\.ir_module\|T\.prim_func\|R\.function\|R\.macro\|T\.macro\|T\.inline\)\>"

" Dtype strings: "float32", 'int64', "bfloat16", "float8_e4m3fn", "float16x4", "bool".
syn match tvmscriptDtype +"\%(u\=int\|b\=float\)\d\+\%(_\w\+\)\=\%(x\d\+\)\="\|'\%(u\=int\|b\=float\)\d\+\%(_\w\+\)\=\%(x\d\+\)\='\|"bool"\|'bool'+

" Printer headers: `# from tvm.script import relax as R`.
syn match tvmscriptHeader "^#\s*from tvm\.script import.*$"

hi def link tvmscriptNamespace    Include
hi def link tvmscriptSubNamespace Include
hi def link tvmscriptBuiltin      Function
hi def link tvmscriptType         Type
hi def link tvmscriptDtypeName    Type
hi def link tvmscriptDecorator    Define
hi def link tvmscriptDtype        Constant
hi def link tvmscriptHeader       PreProc

let b:current_syntax = 'tvmscript'
