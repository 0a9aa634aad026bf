-- nvim.badinput: a missing server, a server that exits at start, one that never answers, and
-- one killed mid-session. Each must give a clear vim.notify message, never hang, and
-- :TvmlsRestart must bring a killed server back.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/harness.lua')

H.run(function()
  local tvmls = require('tvmls')
  local file = H.repo .. '/examples/seed_b_kill_in_dataflow.py'
  -- Each step edits a fresh copy (a new buffer fires FileType again). Buffers are not wiped:
  -- Neovim 0.7 resets a dead client's diagnostics in a scheduled callback, which fails on a
  -- buffer wiped in between.
  local tmp = vim.fn.tempname()
  vim.fn.mkdir(tmp, 'p')
  local n_open = 0
  local function open()
    n_open = n_open + 1
    local copy = string.format('%s/step%d.py', tmp, n_open)
    vim.fn.writefile(vim.fn.readfile(file), copy)
    local t = vim.loop.hrtime()
    vim.cmd('edit ' .. vim.fn.fnameescape(copy))
    return vim.api.nvim_get_current_buf(), (vim.loop.hrtime() - t) / 1e6
  end
  local function errors_matching(pat)
    for _, m in ipairs(H.messages) do
      if m.level == vim.log.levels.ERROR and m.msg:find(pat) then return m.msg end
    end
  end

  -- 1. Missing binary.
  H.messages = {}
  tvmls.setup({ cmd = { '/nonexistent/bin/tvmls', 'serve' } })
  local buf, ms = open()
  local msg = errors_matching('not found')
  H.check('missing binary: error names the command and the fix', msg and msg:find('/nonexistent/bin/tvmls', 1, true)
    and msg:find('setup{cmd', 1, true) and msg:find('TvmlsRestart', 1, true), H.messages)
  H.check('missing binary: no client, editing goes on (' .. math.floor(ms) .. ' ms)', #tvmls.clients() == 0
    and ms < 2000 and vim.bo[buf].filetype == 'python')
  open()
  local n = 0
  for _, m in ipairs(H.messages) do if m.msg:find('not found') then n = n + 1 end end
  H.check('missing binary: reported once, not per buffer', n == 1, n)

  -- 2. A server that exits at start (exit code 3, a message on stderr).
  H.messages = {}
  tvmls.setup({ cmd = { 'sh', '-c', 'echo "tvmls: cannot start" >&2; exit 3', 'serve' } })
  buf, ms = open()
  local got = H.wait(5000, function() return errors_matching('exited while starting') ~= nil end)
  msg = errors_matching('exited while starting')
  H.check('server exiting at start: error with the exit code and what to do', got and msg:find('exit code 3', 1, true)
    and msg:find('TvmlsRestart', 1, true) and msg:find('--log-level debug', 1, true), H.messages)
  H.check('server exiting at start: no hang (' .. math.floor(ms) .. ' ms), no client left', ms < 2000
    and H.wait(2000, function() return #tvmls.clients() == 0 end))

  -- 3. A server that never answers `initialize`.
  H.messages = {}
  tvmls.setup({ cmd = { 'sleep', '30' }, start_timeout_ms = 300 })
  buf, ms = open()
  got = H.wait(5000, function() return H.find_message('has not answered') ~= nil end)
  H.check('silent server: warning after start_timeout_ms', got and ms < 2000, H.messages)
  local t = vim.loop.hrtime()
  vim.cmd('TvmlsStop')
  H.check('silent server: :TvmlsStop ends it without hanging', #tvmls.clients() == 0
    and (vim.loop.hrtime() - t) / 1e6 < 5000, #tvmls.clients())

  -- 4. The real server, killed mid-session; then :TvmlsRestart.
  H.messages = {}
  tvmls.setup({ cmd = { H.server, 'serve' } })
  buf = open()
  H.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end)
  local client = tvmls.clients()[1]
  H.check('real server: diagnostics before the kill', client and #vim.diagnostic.get(buf) > 0)
  local pid = client and client.rpc and client.rpc.pid
  H.check('server pid known', type(pid) == 'number' and pid > 0, pid)
  vim.loop.kill(pid, 9)
  got = H.wait(5000, function() return errors_matching('stopped unexpectedly') ~= nil end)
  msg = errors_matching('stopped unexpectedly')
  H.check('killed server: error says so (signal 9) and names :TvmlsRestart', got and msg:find('signal 9', 1, true)
    and msg:find(':TvmlsRestart', 1, true), H.messages)
  H.check('killed server: buffer detached, diagnostics cleared', H.wait(2000, function()
    return #tvmls.clients() == 0 and not vim.lsp.buf_is_attached(buf, client.id)
  end))
  -- the editor still works
  vim.api.nvim_buf_set_lines(buf, 0, 0, false, { '# edited after the kill' })
  H.check('editing after the kill works', vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1] == '# edited after the kill')

  vim.cmd('TvmlsRestart')
  local back = H.wait(10000, function()
    local c = tvmls.clients()[1]
    return c and vim.lsp.buf_is_attached(buf, c.id) and #vim.diagnostic.get(buf) > 0
  end)
  local c2 = tvmls.clients()[1]
  H.check(':TvmlsRestart starts a new server and the diagnostics come back', back and c2.id ~= client.id,
    { back = back, diags = #vim.diagnostic.get(buf) })
  local d = vim.diagnostic.get(buf)[1]
  H.check('after restart the server sees the edited text (diagnostic one line lower)', d and d.lnum == 21, d and d.lnum)
  H.check('restart reported', H.find_message('restarted %(%d+ buffers? attached%)') ~= nil, H.messages)

  -- A stop on purpose is not reported as a crash.
  H.messages = {}
  vim.cmd('TvmlsStop')
  vim.wait(300)
  H.check(':TvmlsStop is not reported as a crash', errors_matching('unexpectedly') == nil
    and #tvmls.clients() == 0, H.messages)
end)
