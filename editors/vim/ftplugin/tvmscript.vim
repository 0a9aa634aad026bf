" TVMScript is Python: use Python's filetype settings (comments, indentation options).
if exists('b:did_ftplugin')
    finish
endif
runtime! ftplugin/python.vim ftplugin/python_*.vim ftplugin/python/*.vim

" ALE runs every linter of a filetype it has no list for, but not with
" g:ale_linters_explicit: name ours for this buffer unless the user chose already.
if !exists('b:ale_linters') && type(get(get(g:, 'ale_linters', {}), 'tvmscript', 0)) != v:t_list
    let b:ale_linters = {'tvmscript': ['tvmls']}
endif
