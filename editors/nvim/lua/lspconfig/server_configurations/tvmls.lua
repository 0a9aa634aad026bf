-- tvmls for nvim-lspconfig. nvim-lspconfig looks its server configurations up with
-- require('lspconfig.server_configurations.<name>') (older releases, the ones that still run on
-- Neovim 0.7-0.9) or require('lspconfig.configs.<name>') (newer); this plugin ships both files,
-- so with it installed:
--
--   require('lspconfig').tvmls.setup {
--     settings = { tvmls = { severity = { ['storage-may-overflow'] = 'off' } } },
--     init_options = { debounceMs = 100 },
--   }
--
-- (Use either this or require('tvmls').setup{}, not both: each starts its own client.)
local markers = { 'tvmls.toml', 'pyproject.toml', '.git' }

return {
  default_config = {
    cmd = { 'tvmls', 'serve' },
    filetypes = { 'python', 'tvmscript' },
    -- nil for a Python buffer without TVMScript: lspconfig then does not attach (with
    -- single_file_support off); otherwise the nearest folder with a marker, else the file's.
    root_dir = function(fname, bufnr)
      local tvmls = require('tvmls')
      bufnr = bufnr or vim.fn.bufnr(fname)
      if bufnr > 0 and vim.bo[bufnr].filetype == 'python' and not tvmls.buffer_has_tvmscript(bufnr) then
        return nil
      end
      return tvmls.root_dir(fname, markers)
    end,
    single_file_support = false,
    settings = { tvmls = {} },
    init_options = {},
  },
  docs = {
    description = [[
tvmls: a language server for TVMScript (Apache TVM's Relax and TIR IR in Python syntax):
shape and dtype checks, purity, call_tir against PrimFunc buffers, quick-fixes, hover with
struct info, inlay hints. Build it from the tvmls repository (`cmake --build build`) and put
`tvmls` on PATH. Python files are attached only when they contain TVMScript; saved IR dumps
use the filetype `tvmscript` (.tvmscript, .relax, .tir, or a `# from tvm.script import` header).
Settings (section `tvmls`): severity, assumedUpperBound, era; initializationOptions also
debounceMs, codeDescriptionBase, semanticTokensForPython.
]],
    default_config = {
      root_dir = [[root_pattern("tvmls.toml", "pyproject.toml", ".git") or the file's folder]],
    },
  },
}
