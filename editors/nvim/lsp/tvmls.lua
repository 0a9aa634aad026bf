-- tvmls for Neovim 0.11+'s built-in configs: this file is found as `lsp/tvmls.lua` on the
-- runtimepath, so with the plugin installed this is all a user needs:
--
--   vim.lsp.enable('tvmls')
--   vim.lsp.config('tvmls', {                -- optional overrides, merged over this table
--     cmd = { '/path/to/tvmls', 'serve' },
--     settings = { tvmls = { severity = { ['storage-may-overflow'] = 'off' } } },
--     init_options = { debounceMs = 100 },
--   })
--
-- (Use either this or require('tvmls').setup{}, not both: each starts its own client.)
-- Python buffers are attached only when they hold TVMScript (root_dir does not call on_dir
-- otherwise).
local markers = { 'tvmls.toml', 'pyproject.toml', '.git' }
return {
  cmd = { 'tvmls', 'serve' },
  filetypes = { 'python', 'tvmscript' },
  root_markers = markers,
  root_dir = function(bufnr, on_dir)
    local tvmls = require('tvmls')
    if vim.bo[bufnr].filetype == 'python' and not tvmls.buffer_has_tvmscript(bufnr) then return end
    on_dir(tvmls.root_dir(vim.api.nvim_buf_get_name(bufnr), markers))
  end,
  settings = { tvmls = {} },
  init_options = {},
}
