-- Init for nvim.installed: nothing on the runtimepath but Neovim's defaults, so the plugin must
-- come from the installed package ($XDG_DATA_HOME/nvim/site/pack/tvmls/start/tvmls).
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'
for _, p in ipairs({ 'python3', 'ruby', 'node', 'perl' }) do vim.g['loaded_' .. p .. '_provider'] = 0 end
