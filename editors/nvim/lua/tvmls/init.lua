-- tvmls for Neovim: the TVMScript language server (`tvmls serve`) attached to Python files that
-- hold TVMScript and to saved IR dumps (filetype `tvmscript`), plus tree-sitter highlighting and
-- folds for the dumps (lua/tvmls/treesitter.lua).
--
-- Works on Neovim 0.7.2 (Debian 12: vim.lsp.start_client + vim.lsp.buf_attach_client, one client
-- per root directory reused across buffers) and on 0.8+ (vim.lsp.start, which reuses a client
-- with the same name and root by itself).
--
--   require('tvmls').setup {
--     cmd = { 'tvmls', 'serve' },            -- the server command
--     filetypes = { 'python', 'tvmscript' },
--     root_markers = { 'tvmls.toml', 'pyproject.toml', '.git' },
--     settings = { severity = { ['storage-may-overflow'] = 'off' }, assumedUpperBound = 4096 },
--     on_attach = function(client, bufnr) end,
--     python = 'tvmscript',                  -- 'tvmscript': only Python files with TVMScript; 'always'
--     treesitter = true,                     -- highlight/fold `tvmscript` buffers when the parser is installed
--   }
local M = {}

local has08 = vim.fn.has('nvim-0.8') == 1

-- Settings that the server reads from initializationOptions only; they are not repeated in
-- workspace/configuration answers and didChangeConfiguration (the server would log a warning).
local INIT_ONLY = { debounceMs = true, codeDescriptionBase = true, semanticTokensForPython = true }

M.defaults = {
  name = 'tvmls',
  cmd = { 'tvmls', 'serve' },
  filetypes = { 'python', 'tvmscript' },
  root_markers = { 'tvmls.toml', 'pyproject.toml', '.git' },
  settings = {},
  init_options = nil, -- extra initializationOptions, merged over `settings`
  capabilities = nil,
  on_attach = nil,
  on_init = nil,
  cmd_env = nil,
  python = 'tvmscript', -- or 'always'
  treesitter = true,
  folds = true,
  start_timeout_ms = 10000, -- warn when the server has not answered `initialize` by then
}

M.config = nil
M._clients = {} -- root_dir -> client id (0.7 path; on 0.8+ vim.lsp.start does the reuse)
M._buffers = {} -- bufnr -> true: buffers we attached (re-attached by :TvmlsRestart)
M._initialized = {} -- client id -> true once `initialize` was answered
M._stopping = {} -- client id -> true when we stopped it on purpose
M._notified_missing = false

local function notify(msg, level)
  msg = 'tvmls: ' .. msg
  level = level or vim.log.levels.INFO
  if vim.in_fast_event() then
    vim.schedule(function() vim.notify(msg, level) end)
  else
    vim.notify(msg, level)
  end
end
M.notify = notify

local function cmd_string(cmd)
  return table.concat(cmd, ' ')
end

-- The `tvmls` settings section the user gave: `settings = {...}` or `settings = { tvmls = {...} }`.
local function section(settings)
  settings = settings or {}
  if type(settings.tvmls) == 'table' then return settings.tvmls end
  return settings
end

local function without_init_only(s)
  local out = {}
  for k, v in pairs(s) do
    if not INIT_ONLY[k] then out[k] = v end
  end
  return out
end

-- TVMScript in a Python buffer: a TVMScript decorator (`@I.ir_module`, `@R.function`,
-- `@T.prim_func`, any alias or long form, called or not) or a `from tvm.script import` line
-- (also the printer's `# from tvm.script import` header).
local function line_has_tvmscript(l)
  if l:find('^%s*@') then
    if l:find('^%s*@[%w_%.]*ir_module%f[^%w_]') or l:find('^%s*@[%w_%.]*%.function%f[^%w_]')
      or l:find('^%s*@[%w_%.]*prim_func%f[^%w_]') then
      return true
    end
  elseif l:find('^%s*#?%s*from%s+tvm%.script[%w_%.]*%s+import%f[^%w_]') then
    return true
  end
  return false
end

function M.buffer_has_tvmscript(bufnr)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  for _, l in ipairs(lines) do
    if line_has_tvmscript(l) then return true end
  end
  return false
end

local function path_exists(p)
  return vim.loop.fs_stat(p) ~= nil
end

-- The nearest folder upward from the file that holds a root marker; else the file's folder.
function M.root_dir(fname, markers)
  markers = markers or (M.config or M.defaults).root_markers
  local start = (fname ~= nil and fname ~= '') and vim.fn.fnamemodify(fname, ':p:h') or vim.fn.getcwd()
  local dir = start
  while dir and dir ~= '' do
    for _, m in ipairs(markers) do
      if path_exists(dir .. '/' .. m) then return dir end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then break end
    dir = parent
  end
  return start
end

local function on_exit_handler(code, signal, client_id)
  local was_init = M._initialized[client_id]
  local on_purpose = M._stopping[client_id]
  M._initialized[client_id] = nil
  M._stopping[client_id] = nil
  for root, id in pairs(M._clients) do
    if id == client_id then M._clients[root] = nil end
  end
  if on_purpose then return end
  local how = (signal and signal ~= 0) and ('signal ' .. signal) or ('exit code ' .. tostring(code))
  local log = vim.lsp.get_log_path and vim.lsp.get_log_path() or 'lsp.log'
  if not was_init then
    notify(string.format(
      'the language server exited while starting (%s). Command: `%s`. Run it in a terminal '
        .. '(`%s --log-level debug`) to see why; its stderr is in %s. Fix the command with '
        .. "require('tvmls').setup{cmd = {...}}, then :TvmlsRestart.",
      how, cmd_string(M.config.cmd), cmd_string(M.config.cmd), log), vim.log.levels.ERROR)
  else
    notify(string.format(
      'the language server stopped unexpectedly (%s): no more diagnostics or hover. '
        .. 'Run :TvmlsRestart to start it again (its stderr is in %s).', how, log),
      vim.log.levels.ERROR)
  end
end

local function client_config(root)
  local cfg = M.config
  local sec = section(cfg.settings)
  local init_options = vim.tbl_deep_extend('force', vim.deepcopy(sec), cfg.init_options or {})
  local settings = { tvmls = without_init_only(sec) }
  return {
    name = cfg.name,
    cmd = cfg.cmd,
    cmd_env = cfg.cmd_env,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    init_options = init_options,
    settings = settings,
    capabilities = cfg.capabilities,
    flags = { debounce_text_changes = 80 },
    on_init = function(client, result)
      M._initialized[client.id] = true
      -- 0.7 does not send workspace/didChangeConfiguration by itself (0.8+ does in on_init).
      if not has08 then
        client.notify('workspace/didChangeConfiguration', { settings = client.config.settings })
      end
      if cfg.on_init then cfg.on_init(client, result) end
    end,
    on_attach = function(client, bufnr)
      M._buffers[bufnr] = true
      if cfg.on_attach then cfg.on_attach(client, bufnr) end
    end,
    on_exit = on_exit_handler,
  }
end

local function watch_start(client_id)
  local timeout = M.config.start_timeout_ms
  if not client_id or not timeout or timeout <= 0 then return end
  vim.defer_fn(function()
    if M._initialized[client_id] or M._stopping[client_id] then return end
    if vim.lsp.get_client_by_id(client_id) == nil then return end -- exited: on_exit reported it
    notify(string.format('the language server has not answered `initialize` after %d ms (command `%s`). '
      .. 'Is it a tvmls binary? Check `%s --version`; :TvmlsRestart retries.',
      timeout, cmd_string(M.config.cmd), M.config.cmd[1]), vim.log.levels.WARN)
  end, timeout)
end

-- Is the server command runnable? Reports once (per setup/restart) when it is not.
function M.check_cmd()
  local exe = M.config.cmd[1]
  if exe and vim.fn.executable(exe) == 1 then return true end
  if not M._notified_missing then
    M._notified_missing = true
    notify(string.format(
      "server command `%s` not found or not executable. Build tvmls (`cmake --build build`) and put "
        .. "`tvmls` on PATH, or point the plugin at it: require('tvmls').setup{cmd = {'/path/to/tvmls', 'serve'}}; "
        .. 'then :TvmlsRestart.', exe or '(empty)'), vim.log.levels.ERROR)
  end
  return false
end

local function should_attach(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) or not vim.api.nvim_buf_is_loaded(bufnr) then return false end
  if vim.bo[bufnr].buftype ~= '' then return false end
  local ft = vim.bo[bufnr].filetype
  if not vim.tbl_contains(M.config.filetypes, ft) then return false end
  if ft == 'python' and M.config.python ~= 'always' then
    return M.buffer_has_tvmscript(bufnr)
  end
  return true
end

local has011 = vim.fn.has('nvim-0.11') == 1

-- Client list and client methods across versions (0.7: no filter; 0.11: methods take `self`).
local function get_clients(filter)
  if vim.lsp.get_clients then return vim.lsp.get_clients(filter) end
  if has08 then return vim.lsp.get_active_clients(filter) end
  if filter and filter.bufnr then return vim.tbl_values(vim.lsp.buf_get_clients(filter.bufnr)) end
  return vim.lsp.get_active_clients()
end

local function client_stop(c, force)
  if has011 then c:stop(force) else c.stop(force) end
end

local function client_is_stopped(c)
  if has011 then return c:is_stopped() end
  return c.is_stopped()
end

local function attached_client(bufnr)
  for _, c in pairs(get_clients({ bufnr = bufnr }) or {}) do
    if c.name == M.config.name then return c end
  end
end

-- Attach tvmls to a buffer (starting or reusing the client of its root). Returns the client id.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not M.config then M.setup({}) end
  if not should_attach(bufnr) then return nil end
  local existing = attached_client(bufnr)
  if existing then return existing.id end
  if not M.check_cmd() then return nil end
  local root = M.root_dir(vim.api.nvim_buf_get_name(bufnr))
  local id
  if has08 then
    local config = client_config(root)
    vim.api.nvim_buf_call(bufnr, function()
      id = vim.lsp.start(config, {
        reuse_client = function(client, conf)
          return client.name == conf.name and client.config.root_dir == conf.root_dir
            and not client_is_stopped(client)
        end,
      })
    end)
    if id and not M._clients[root] then
      M._clients[root] = id
      watch_start(id)
    end
  else
    id = M._clients[root]
    local client = id and vim.lsp.get_client_by_id(id)
    if not client or client_is_stopped(client) then
      id = vim.lsp.start_client(client_config(root))
      if not id then
        notify(string.format('could not start `%s` (see :messages).', cmd_string(M.config.cmd)), vim.log.levels.ERROR)
        return nil
      end
      M._clients[root] = id
      watch_start(id)
    end
    vim.lsp.buf_attach_client(bufnr, id)
  end
  if id then M._buffers[bufnr] = true end
  return id
end

-- All tvmls clients (running, or still starting: 0.7 lists those only by id).
function M.clients()
  local out, seen = {}, {}
  local name = (M.config or M.defaults).name
  for _, c in pairs(get_clients()) do
    if c.name == name then table.insert(out, c); seen[c.id] = true end
  end
  for _, id in pairs(M._clients) do
    local c = vim.lsp.get_client_by_id(id)
    if c and not seen[id] and not client_is_stopped(c) then table.insert(out, c); seen[id] = true end
  end
  return out
end

-- Stop every tvmls client (on purpose: no "stopped unexpectedly" message). Waits up to
-- `timeout_ms` for them to exit, then forces them.
function M.stop(timeout_ms)
  local clients = M.clients()
  for _, c in ipairs(clients) do
    M._stopping[c.id] = true
    client_stop(c)
  end
  local gone = vim.wait(timeout_ms or 2000, function() return #M.clients() == 0 end, 20)
  if not gone then
    for _, c in ipairs(M.clients()) do client_stop(c, true) end
    vim.wait(1000, function() return #M.clients() == 0 end, 20)
  end
  M._clients = {}
end

-- :TvmlsRestart: stop the servers and attach every buffer again (the ones that were attached,
-- also after the server died, and any other loaded buffer that qualifies).
function M.restart()
  if not M.config then M.setup({}) end
  M.stop()
  M._notified_missing = false
  local bufs = {}
  for b in pairs(M._buffers) do bufs[b] = true end
  for _, b in ipairs(vim.api.nvim_list_bufs()) do bufs[b] = true end
  M._buffers = {}
  local n = 0
  for b in pairs(bufs) do
    if M.attach(b) then n = n + 1 end
  end
  notify(string.format('restarted (%d buffer%s attached).', n, n == 1 and '' or 's'))
  return n
end

-- :TvmlsInfo
function M.info()
  local lines = { 'tvmls: cmd = `' .. cmd_string(M.config.cmd) .. '`'
    .. (vim.fn.executable(M.config.cmd[1]) == 1 and (' (' .. vim.fn.exepath(M.config.cmd[1]) .. ')') or ' (NOT FOUND)') }
  for _, c in ipairs(M.clients()) do
    local bufs = {}
    for b in pairs(M._buffers) do
      if vim.api.nvim_buf_is_valid(b) and vim.lsp.buf_is_attached(b, c.id) then
        table.insert(bufs, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(b), ':~:.'))
      end
    end
    table.insert(lines, string.format('client %d: root %s, %s, buffers: %s', c.id, c.config.root_dir,
      M._initialized[c.id] and 'running' or 'starting', table.concat(bufs, ', ')))
  end
  if #M.clients() == 0 then table.insert(lines, 'no server running') end
  local ts = require('tvmls.treesitter')
  table.insert(lines, 'tree-sitter parser: ' .. (ts.parser_path() or 'not installed (:TvmlsInstallParser)'))
  vim.notify(table.concat(lines, '\n'), vim.log.levels.INFO)
end

function M.setup(opts)
  opts = opts or {}
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts)
  -- lists replace, not merge
  for _, k in ipairs({ 'cmd', 'filetypes', 'root_markers' }) do
    if opts[k] then M.config[k] = opts[k] end
  end
  if type(M.config.cmd) == 'string' then M.config.cmd = { M.config.cmd } end
  M._notified_missing = false

  local group = vim.api.nvim_create_augroup('tvmls', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.config.filetypes,
    callback = function(args) M.attach(args.buf) end,
  })
  -- A Python file that gains TVMScript is attached when saved.
  if M.config.python ~= 'always' and vim.tbl_contains(M.config.filetypes, 'python') then
    vim.api.nvim_create_autocmd('BufWritePost', {
      group = group,
      callback = function(args)
        if vim.bo[args.buf].filetype == 'python' and not attached_client(args.buf) then M.attach(args.buf) end
      end,
    })
  end
  if M.config.treesitter then
    require('tvmls.treesitter').setup(M.config)
  end
  -- Buffers opened before setup().
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(M.config.filetypes, vim.bo[b].filetype) then
      M.attach(b)
    end
  end
  return M
end

return M
