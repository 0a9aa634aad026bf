" Filetype `tvmscript` for TVMScript IR dumps saved as .tvmscript, .relax or .tir. This file
" serves Neovim 0.7's filetype.vim; 0.8+ (and 0.7 with g:do_filetype_lua = 1) also get the
" extensions from vim.filetype.add in plugin/tvmls.lua. The printer-header rule (first line
" `# from tvm.script import ...`, any extension) is an autocmd in plugin/tvmls.lua, so that it
" works however filetype detection is set up.
autocmd BufNewFile,BufRead *.tvmscript,*.relax,*.tir setfiletype tvmscript
