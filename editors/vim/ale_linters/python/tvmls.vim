" ALE linter: tvmls, the TVMScript language server, for Python files.
" ALE's default Python linters are a fixed list, so this one runs where plugin/tvmls.vim
" adds it (g:tvmls_python, default 'auto': Python buffers that contain TVMScript) or where
" you list it yourself: let g:ale_linters = {'python': ['tvmls', 'flake8', ...]}.
call ale#linter#Define('python', tvmls#LinterDefinition('python'))
