" tvmls.vim: Vim + ALE integration of tvmls, the TVMScript language server.
" Options (set them in your vimrc; all optional):
"   g:tvmls_executable    the server binary (default 'tvmls', looked up on PATH)
"   g:tvmls_server_args   extra arguments after `serve`, e.g. ['--log-level', 'debug']
"   g:tvmls_settings      the `tvmls` settings: {'severity': {'unused-binding': 'off'}, ...}
"   g:tvmls_python        'auto' (default), 1 or 0: which Python buffers get the linter
"   g:tvmls_root_markers  files or directories that mark the project root
if exists('g:loaded_tvmls')
    finish
endif
let g:loaded_tvmls = 1

augroup tvmls
    autocmd!
    autocmd FileType python call tvmls#SetupPythonBuffer(str2nr(expand('<abuf>')))
augroup END
