-- nvim.installed: the plugin as `cmake --install` lays it out (a start package under
-- <prefix>/share/nvim/site/pack/tvmls/start/tvmls, here with prefix = the temporary
-- XDG_DATA_HOME's parent), loaded by Neovim's default packpath: no runtimepath setup, no compiler
-- for highlighting (the parser CMake built is used), LSP, and :TvmlsInstallParser from the
-- grammar sources shipped beside the plugin.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/harness.lua')

H.run(function()
  local pack = vim.env.XDG_DATA_HOME .. '/nvim/site/pack/tvmls/start/tvmls'
  local function under_pack(p) return p and vim.loop.fs_realpath(p):find(vim.loop.fs_realpath(pack), 1, true) == 1 end
  for _, f in ipairs({ 'lua/tvmls/init.lua', 'lua/tvmls/treesitter.lua', 'plugin/tvmls.lua', 'ftdetect/tvmscript.vim',
    'queries/tvmscript/highlights.scm', 'queries/tvmscript/folds.scm', 'queries/tvmscript/locals.scm',
    'queries/tvmscript/injections.scm', 'queries/python/injections.scm', 'parser/tvmscript.so',
    'grammar/src/parser.c', 'grammar/src/scanner.c', 'grammar/src/tree_sitter/parser.h', 'doc/tvmls.txt',
    'lsp/tvmls.lua', 'lua/lspconfig/server_configurations/tvmls.lua' }) do
    H.check('installed ' .. f, vim.loop.fs_stat(pack .. '/' .. f) ~= nil)
  end
  H.check('plugin loaded from the package (commands defined)', vim.fn.exists(':TvmlsInstallParser') == 2
    and vim.fn.exists(':TvmlsRestart') == 2)
  local mod = vim.api.nvim_get_runtime_file('lua/tvmls/init.lua', false)[1]
  H.check('lua/tvmls from the package', under_pack(mod), mod)

  -- The prebuilt parser (CMake's MODULE library) loads in this Neovim.
  local ts = require('tvmls.treesitter')
  H.check('parser/tvmscript.so found in the package', under_pack(ts.parser_path()), ts.parser_path())
  H.check('prebuilt parser loads', ts.load())

  require('tvmls').setup({ cmd = { H.server, 'serve' } })
  vim.cmd('edit ' .. vim.fn.fnameescape(H.repo .. '/examples/mlp_dump.tvmscript'))
  local buf = vim.api.nvim_get_current_buf()
  H.check('dump detected as tvmscript (ftdetect from the package)', vim.bo[buf].filetype == 'tvmscript', vim.bo[buf].filetype)
  H.check('highlighting on, with no :TvmlsInstallParser', vim.treesitter.highlighter.active[buf] ~= nil)
  H.check('`R` of R.matmul is @module', ts.capture_at(buf, 33, 17) == 'module', ts.capture_at(buf, 33, 17))
  H.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end)
  local sm = vim.tbl_filter(function(x) return x.code == 'shape-mismatch' and x.lnum == 36 end, vim.diagnostic.get(buf))[1]
  H.check('LSP from the installed plugin: shape-mismatch on `out`', sm ~= nil)

  -- :TvmlsInstallParser from an installed copy compiles grammar/src shipped beside the plugin.
  H.check('grammar sources found beside the installed plugin', under_pack(ts.grammar_src()), ts.grammar_src())
  vim.cmd('TvmlsInstallParser!')
  local so = vim.fn.stdpath('data') .. '/site/parser/tvmscript.so'
  H.check(':TvmlsInstallParser from the installed copy', ts.install_state == 'ok' and vim.fn.filereadable(so) == 1,
    H.messages)
  H.check('queries not copied (the package is on runtimepath)', vim.fn.isdirectory(vim.fn.stdpath('data')
    .. '/site/queries') == 0 and H.find_message('queries: from the plugin', true) ~= nil)

  vim.cmd('help tvmls')
  H.check(':help tvmls opens the installed help (doc/tags shipped)',
    vim.api.nvim_buf_get_name(0):find(pack .. '/doc/tvmls.txt', 1, true) ~= nil, vim.api.nvim_buf_get_name(0))
end)
