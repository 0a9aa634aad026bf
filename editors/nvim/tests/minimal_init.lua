-- Minimal init for the headless tests: only this plugin (from the source tree) on the runtimepath.
-- Run with: nvim --headless -u tests/minimal_init.lua -c 'luafile tests/<name>_test.lua'
local here = debug.getinfo(1, 'S').source:sub(2)
local plugin = vim.fn.fnamemodify(here, ':p:h:h')
vim.opt.runtimepath:prepend(plugin)
vim.opt.swapfile = false
-- The python ftplugin probes the Python provider (`python3 -c 'import neovim'`), which can take
-- seconds on a loaded machine; the tests need no providers.
for _, p in ipairs({ 'python3', 'ruby', 'node', 'perl' }) do vim.g['loaded_' .. p .. '_provider'] = 0 end
vim.opt.shadafile = 'NONE'
vim.cmd('runtime! plugin/tvmls.lua')
vim.cmd('filetype on')
