-- tvmls plugin: commands and filetype detection. The language server itself starts only after
-- require('tvmls').setup{...} (see :help tvmls).
if vim.g.loaded_tvmls then return end
vim.g.loaded_tvmls = true

-- Filetype `tvmscript` for saved IR dumps. Extensions: vim.filetype.add (read by Neovim 0.8+,
-- and by 0.7 only with g:do_filetype_lua = 1) and ftdetect/tvmscript.vim (0.7's filetype.vim).
if vim.filetype and vim.filetype.add then
  vim.filetype.add({ extension = { tvmscript = 'tvmscript', relax = 'tvmscript', tir = 'tvmscript' } })
end

-- Any file whose first line is the TVMScript printer's header (`# from tvm.script import ir as I`)
-- is a dump, whatever its extension (.py, .txt, none): it is not runnable Python. Runs after
-- the regular detection (plugins load after it) and overrides only python/text/conf/nothing;
-- if it runs first, the later `setf` sees the filetype set and leaves it.
local HEADER = '^#%s*from%s+tvm%.script[%w_%.]*%s+import%f[^%w_]'
vim.api.nvim_create_autocmd({ 'BufNewFile', 'BufRead' }, {
  group = vim.api.nvim_create_augroup('tvmls_filetype', { clear = true }),
  pattern = '*',
  callback = function(args)
    local first = vim.api.nvim_buf_get_lines(args.buf, 0, 1, false)[1]
    if first and first:find(HEADER) then
      local ft = vim.bo[args.buf].filetype
      if ft == '' or ft == 'python' or ft == 'text' or ft == 'conf' then
        vim.bo[args.buf].filetype = 'tvmscript'
      end
    end
  end,
})

local cmd = vim.api.nvim_create_user_command
cmd('TvmlsRestart', function() require('tvmls').restart() end,
  { desc = 'Restart the tvmls language server and re-attach its buffers' })
cmd('TvmlsStop', function() require('tvmls').stop() end, { desc = 'Stop the tvmls language server' })
cmd('TvmlsInfo', function()
  if not require('tvmls').config then require('tvmls').config = require('tvmls').defaults end
  require('tvmls').info()
end, { desc = 'Show the tvmls server command, clients and parser' })
cmd('TvmlsInstallParser', function(a)
  require('tvmls.treesitter').install_parser({ sync = a.bang })
end, { bang = true, desc = 'Compile the tvmscript tree-sitter parser into stdpath("data")/site/parser (! waits)' })
cmd('TvmlsInspect', function() require('tvmls.treesitter').inspect() end,
  { desc = 'Show the tree-sitter highlight captures under the cursor' })
