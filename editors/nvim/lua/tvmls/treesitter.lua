-- Tree-sitter support for `tvmscript` buffers: :TvmlsInstallParser (compiles the grammar's
-- generated C into <stdpath('data')>/site/parser/tvmscript.so), highlighting, folds, and a
-- capture inspector. Neovim 0.7.2 has no vim.treesitter.start / foldexpr / get_captures_at_pos,
-- so this file carries small equivalents and uses the built-in ones on newer versions.
local M = {}

local api = vim.api
local LANG = 'tvmscript'
local has09 = vim.fn.has('nvim-0.9') == 1
local has010 = vim.fn.has('nvim-0.10') == 1

local function notify(msg, level)
  require('tvmls').notify(msg, level)
end

-- This plugin's root: .../lua/tvmls/treesitter.lua -> ...
function M.plugin_root()
  local src = debug.getinfo(1, 'S').source:sub(2)
  return vim.fn.fnamemodify(src, ':p:h:h:h')
end

-- The grammar's generated C: `grammar/src` shipped beside the plugin (installed copy), or
-- ../../grammar/src (the source tree: editors/nvim -> repo root). $TVMLS_GRAMMAR_SRC wins.
function M.grammar_src()
  local root = M.plugin_root()
  local candidates = {}
  if vim.env.TVMLS_GRAMMAR_SRC and vim.env.TVMLS_GRAMMAR_SRC ~= '' then
    table.insert(candidates, vim.env.TVMLS_GRAMMAR_SRC)
  end
  table.insert(candidates, root .. '/grammar/src')
  table.insert(candidates, vim.fn.fnamemodify(root .. '/../../grammar/src', ':p'))
  for _, dir in ipairs(candidates) do
    if vim.fn.filereadable(dir .. '/parser.c') == 1 then
      return (vim.fn.fnamemodify(dir, ':p'):gsub('/$', ''))
    end
  end
  return nil, candidates
end

local function query_get(lang, name)
  local q = vim.treesitter.query
  if q.get then return q.get(lang, name) end
  return q.get_query(lang, name)
end

-- The parser on 'runtimepath' (parser/tvmscript.so), or nil.
function M.parser_path()
  local files = api.nvim_get_runtime_file('parser/' .. LANG .. '.so', false)
  return files[1]
end

-- Load the language if a parser is installed. Returns true when loaded.
function M.load()
  local lang = vim.treesitter.language
  if lang.add then
    -- 0.9/0.10 raise when there is no parser, 0.11 returns nil and a message: ask afterwards.
    pcall(lang.add, LANG)
    return (pcall(lang.inspect, LANG))
  end
  local ok, res = pcall(lang.require_language, LANG, nil, true)
  return ok and res == true
end

-- Highlight groups for Neovim 0.10's capture names (used by queries/tvmscript/highlights.scm)
-- on Neovim 0.7-0.9, whose highlighter and default colours know the older names only.
M.LEGACY_GROUPS = {
  ['module'] = 'Include',
  ['module.builtin'] = 'Include',
  ['variable'] = 'TvmlsVariable', -- no colour, as in Neovim 0.10
  ['variable.builtin'] = 'Special',
  ['variable.parameter'] = 'Identifier',
  ['variable.member'] = 'Identifier',
  ['constant'] = 'Constant',
  ['constant.builtin'] = 'Special',
  ['attribute'] = 'PreProc',
  ['attribute.builtin'] = 'PreProc',
  ['function'] = 'Function',
  ['function.builtin'] = 'Special',
  ['function.call'] = 'Function',
  ['function.method'] = 'Function',
  ['function.method.call'] = 'Function',
  ['type'] = 'Type',
  ['type.builtin'] = 'Type',
  ['property'] = 'Identifier',
  ['label'] = 'Label',
  ['string'] = 'String',
  ['string.special'] = 'SpecialChar',
  ['string.documentation'] = 'String',
  ['number'] = 'Number',
  ['number.float'] = 'Float',
  ['comment'] = 'Comment',
  ['operator'] = 'Operator',
  ['keyword'] = 'Keyword',
  ['keyword.function'] = 'Keyword',
  ['keyword.type'] = 'Structure',
  ['keyword.return'] = 'Keyword',
  ['keyword.import'] = 'Include',
  ['keyword.conditional'] = 'Conditional',
  ['keyword.repeat'] = 'Repeat',
  ['keyword.exception'] = 'Exception',
  ['keyword.coroutine'] = 'Keyword',
  ['keyword.operator'] = 'Operator',
  ['punctuation.delimiter'] = 'Delimiter',
  ['punctuation.bracket'] = 'Delimiter',
  ['punctuation.special'] = 'Delimiter',
}

local legacy_done = false
local function setup_legacy_groups()
  if legacy_done or has010 then return end
  legacy_done = true
  vim.cmd('highlight default TvmlsVariable NONE')
  local hl = vim.treesitter.highlighter
  if vim.fn.has('nvim-0.8') == 0 then
    -- 0.7: captures resolve through vim.treesitter.highlighter.hl_map (with a prefix fallback).
    -- Fill only the names nobody mapped (nvim-treesitter maps its own).
    for capture, group in pairs(M.LEGACY_GROUPS) do
      if rawget(hl.hl_map, capture) == nil or rawget(hl.hl_map, capture) == '__notfound' then
        hl.hl_map[capture] = group
      end
    end
  else
    -- 0.8/0.9: captures are the groups `@capture`; link the new names by default only.
    for capture, group in pairs(M.LEGACY_GROUPS) do
      api.nvim_set_hl(0, '@' .. capture, { link = group, default = true })
    end
  end
end

-- Start highlighting (and folds) in a buffer. Returns true when the highlighter runs.
function M.start(bufnr, opts)
  bufnr = (bufnr == nil or bufnr == 0) and api.nvim_get_current_buf() or bufnr
  opts = opts or {}
  if not M.load() then return false end
  setup_legacy_groups()
  if has09 then
    vim.treesitter.start(bufnr, LANG)
  elseif not vim.treesitter.highlighter.active[bufnr] then
    vim.treesitter.highlighter.new(vim.treesitter.get_parser(bufnr, LANG))
  end
  if opts.folds ~= false then
    for _, win in ipairs(api.nvim_list_wins()) do
      if api.nvim_win_get_buf(win) == bufnr then M.set_folds(win) end
    end
  end
  return true
end

function M.set_folds(win)
  local expr = has09 and 'v:lua.vim.treesitter.foldexpr()' or "v:lua.require'tvmls.treesitter'.foldexpr(v:lnum)"
  api.nvim_win_set_option(win, 'foldmethod', 'expr')
  api.nvim_win_set_option(win, 'foldexpr', expr)
  -- open the file unfolded; zc / zM close folds
  api.nvim_win_set_option(win, 'foldlevel', 99)
end

-- Fold levels from queries/tvmscript/folds.scm, for Neovim < 0.9 (no vim.treesitter.foldexpr).
-- One computation per buffer change; each @fold node spanning lines folds from its first to its
-- last line (one fold per start line: the longest).
local fold_cache = {}

local function compute_folds(bufnr)
  local parser = vim.treesitter.get_parser(bufnr, LANG)
  local tree = parser:parse()[1]
  local query = query_get(LANG, 'folds')
  local nlines = api.nvim_buf_line_count(bufnr)
  local by_start = {}
  if tree and query then
    for id, node in query:iter_captures(tree:root(), bufnr, 0, nlines) do
      if query.captures[id] == 'fold' then
        local srow, _, erow, ecol = node:range()
        if ecol == 0 then erow = erow - 1 end
        if erow > srow and (by_start[srow] == nil or by_start[srow] < erow) then by_start[srow] = erow end
      end
    end
  end
  local delta = {}
  for s, e in pairs(by_start) do
    delta[s] = (delta[s] or 0) + 1
    delta[e + 1] = (delta[e + 1] or 0) - 1
  end
  local levels, level = {}, 0
  for row = 0, nlines - 1 do
    level = level + (delta[row] or 0)
    if by_start[row] then
      levels[row + 1] = '>' .. level
    else
      levels[row + 1] = tostring(level)
    end
  end
  return levels
end

function M.foldexpr(lnum)
  local bufnr = api.nvim_get_current_buf()
  local tick = api.nvim_buf_get_changedtick(bufnr)
  local c = fold_cache[bufnr]
  if not c or c.tick ~= tick then
    local ok, levels = pcall(compute_folds, bufnr)
    c = { tick = tick, levels = ok and levels or {} }
    fold_cache[bufnr] = c
  end
  return c.levels[lnum] or '0'
end

-- The highlight captures at a 0-based (row, col), as Neovim's highlighter resolves them:
-- every tree (injections included, outer first), captures in query order, the LAST one (at the
-- highest priority) drawn on top. Returns a list of { capture =, lang =, group = } in drawing
-- order; the last element is what is shown. (`vim.treesitter.get_captures_at_pos` on 0.9+.)
function M.captures_at(bufnr, row, col)
  bufnr = (bufnr == nil or bufnr == 0) and api.nvim_get_current_buf() or bufnr
  local parser = vim.treesitter.get_parser(bufnr)
  parser:parse()
  local out = {}
  parser:for_each_tree(function(tstree, ltree)
    if not tstree then return end
    local lang = ltree:lang()
    local ok, query = pcall(query_get, lang, 'highlights')
    if not ok or not query then return end
    local root = tstree:root()
    local rs, _, re = root:range()
    if row < rs or row > re then return end
    for id, node, metadata in query:iter_captures(root, bufnr, row, row + 1) do
      local name = query.captures[id]
      local sr, sc, er, ec = node:range()
      local inside = (row > sr or (row == sr and col >= sc)) and (row < er or (row == er and col < ec))
      if inside and name:sub(1, 1) ~= '_' then
        local prio = tonumber(metadata and metadata.priority) or 100
        table.insert(out, { capture = name, lang = lang, priority = prio })
      end
    end
  end)
  -- stable sort by priority: equal priorities keep query order (last drawn wins)
  for i, v in ipairs(out) do v.order = i end
  table.sort(out, function(a, b)
    if a.priority ~= b.priority then return a.priority < b.priority end
    return a.order < b.order
  end)
  return out
end

-- The capture that colours (row, col), or nil.
function M.capture_at(bufnr, row, col)
  local caps = M.captures_at(bufnr, row, col)
  return caps[#caps] and caps[#caps].capture or nil, caps
end

-- :TvmlsInspect: the captures under the cursor.
function M.inspect()
  local pos = api.nvim_win_get_cursor(0)
  local caps = M.captures_at(0, pos[1] - 1, pos[2])
  local parts = {}
  for _, c in ipairs(caps) do table.insert(parts, '@' .. c.capture .. ' (' .. c.lang .. ')') end
  vim.notify(#parts > 0 and table.concat(parts, ', ') or 'no tree-sitter capture here', vim.log.levels.INFO)
end

-- Queries shipped with the plugin (queries/tvmscript). When this plugin's folder is not on
-- 'runtimepath' (e.g. loaded with package.path tricks), :TvmlsInstallParser copies them into
-- <data>/site/queries/tvmscript so that Neovim finds them; when it is, copying would give Neovim
-- two copies (0.7 concatenates them; 0.8+ uses one, possibly a stale one), so it does not.
local QUERIES = { 'highlights', 'locals', 'folds', 'injections' }

local function plugin_on_rtp()
  local root = vim.loop.fs_realpath(M.plugin_root())
  for _, p in ipairs(api.nvim_list_runtime_paths()) do
    if vim.loop.fs_realpath(p) == root then return true end
  end
  return false
end

local function copy_file(from, to)
  local lines = vim.fn.readfile(from, 'b')
  return vim.fn.writefile(lines, to, 'b') == 0
end

local function install_queries(site)
  local src = M.plugin_root() .. '/queries/' .. LANG
  if plugin_on_rtp() then
    return 'queries: from the plugin (' .. src .. ', on runtimepath)'
  end
  local dest = site .. '/queries/' .. LANG
  vim.fn.mkdir(dest, 'p')
  for _, q in ipairs(QUERIES) do
    if vim.fn.filereadable(src .. '/' .. q .. '.scm') == 1 then
      copy_file(src .. '/' .. q .. '.scm', dest .. '/' .. q .. '.scm')
    end
  end
  return 'queries: copied to ' .. dest
end

-- After an install: start highlighting in open tvmscript buffers.
local function start_open_buffers()
  for _, b in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(b) and vim.bo[b].filetype == LANG then pcall(M.start, b) end
  end
end

M.install_state = nil -- nil | 'running' | 'ok' | 'failed'

-- :TvmlsInstallParser. opts: { sync = bool, on_done = fn(ok, msg), cc = 'cc' }.
function M.install_parser(opts)
  opts = opts or {}
  local function done(ok, msg)
    M.install_state = ok and 'ok' or 'failed'
    notify(msg, ok and vim.log.levels.INFO or vim.log.levels.ERROR)
    if ok then start_open_buffers() end
    if opts.on_done then opts.on_done(ok, msg) end
    return ok
  end
  local src, tried = M.grammar_src()
  if not src then
    return done(false, 'the grammar sources (grammar/src/parser.c) are not beside the plugin; looked in: '
      .. table.concat(tried or {}, ', ')
      .. '. Install the plugin with `cmake --install`, or set $TVMLS_GRAMMAR_SRC.')
  end
  local cc = opts.cc or vim.env.CC or 'cc'
  if vim.fn.executable(cc) ~= 1 then
    return done(false, string.format('no C compiler (`%s`): install one (Debian: sudo apt-get install gcc), '
      .. 'or install the plugin with `cmake --install`, which ships a prebuilt parser.', cc))
  end
  local site = vim.fn.stdpath('data') .. '/site'
  local outdir = site .. '/parser'
  vim.fn.mkdir(outdir, 'p')
  local out = outdir .. '/' .. LANG .. '.so'
  local tmp = out .. '.tmp' .. vim.fn.getpid()
  local args = { cc, '-O2', '-shared', '-fPIC', '-I', src, '-o', tmp, src .. '/parser.c' }
  if vim.fn.filereadable(src .. '/scanner.c') == 1 then table.insert(args, src .. '/scanner.c') end
  local stderr = {}
  M.install_state = 'running'
  local function finish(code)
    if code ~= 0 then
      os.remove(tmp)
      return done(false, string.format('compiling the parser failed (exit %d): %s\n%s', code,
        table.concat(args, ' '), table.concat(stderr, '\n')))
    end
    -- rename over the old file: a running Neovim keeps its mapping of the old one
    local ok, err = os.rename(tmp, out)
    if not ok then return done(false, 'could not write ' .. out .. ': ' .. tostring(err)) end
    -- Neovim caches the runtimepath's folders: one created now (site/parser) is seen only after
    -- 'runtimepath' is set again. Also add `site` if the user's runtimepath lacks it.
    local on_rtp = false
    for _, p in ipairs(api.nvim_list_runtime_paths()) do
      if vim.loop.fs_realpath(p) == vim.loop.fs_realpath(site) then on_rtp = true end
    end
    if on_rtp then vim.o.runtimepath = vim.o.runtimepath else vim.opt.runtimepath:prepend(site) end
    local qmsg = install_queries(site)
    return done(true, 'parser installed: ' .. out .. '; ' .. qmsg)
  end
  local job = vim.fn.jobstart(args, {
    stderr_buffered = true,
    on_stderr = function(_, data) stderr = vim.tbl_filter(function(l) return l ~= '' end, data or {}) end,
    on_exit = function(_, code) if not opts.sync then vim.schedule(function() finish(code) end) end end,
  })
  if job <= 0 then
    return done(false, 'could not run ' .. cc)
  end
  notify('compiling the tvmscript parser (' .. src .. ') ...')
  if opts.sync then
    local code = vim.fn.jobwait({ job }, opts.timeout_ms or 120000)[1]
    if code == -1 then
      vim.fn.jobstop(job)
      return done(false, 'compiling the parser timed out')
    end
    return finish(code)
  end
  return true
end

function M.setup(config)
  local group = api.nvim_create_augroup('tvmls_treesitter', { clear = true })
  api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = LANG,
    callback = function(args) M.start(args.buf, { folds = config.folds }) end,
  })
  for _, b in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(b) and vim.bo[b].filetype == LANG then M.start(b, { folds = config.folds }) end
  end
end

return M
