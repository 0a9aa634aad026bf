" TVMScript is indented as Python.
if exists('b:did_indent')
    finish
endif
runtime! indent/python.vim
