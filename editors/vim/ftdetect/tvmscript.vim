" TVMScript IR dumps: by extension, or by the header TVM's printer writes
" (`# from tvm.script import ir as I`) in the first lines of a file that is not Python
" source already (dumps saved as .txt, .log or without an extension). `.py` files stay
" `python`; the ALE linter serves both.
autocmd BufNewFile,BufRead *.tvmscript,*.relax,*.tir setfiletype tvmscript
autocmd BufNewFile,BufRead * call s:TVMScriptHeader()

function! s:TVMScriptHeader() abort
    if &filetype !=# '' && &filetype !=# 'text' && &filetype !=# 'conf'
        return
    endif

    for l:line in getline(1, 5)
        if l:line =~# '^#\s*from tvm\.script import\>'
            set filetype=tvmscript
            return
        endif
    endfor
endfunction
