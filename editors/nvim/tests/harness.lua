-- Shared helpers for the headless Neovim tests: named checks, captured vim.notify, exit status.
local H = { steps = {}, failed = false, notes = {} }

H.repo = vim.env.TVMLS_SOURCE_DIR or vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h:h:h')
H.server = vim.env.TVMLS_SERVER or (H.repo .. '/build/tvmls')
H.t0 = vim.loop.hrtime()

function H.check(name, ok, detail)
  ok = ok and true or false
  table.insert(H.steps, { name = name, ok = ok })
  local line = string.format('%s %s (%.0f ms)', ok and 'ok  ' or 'FAIL', name, (vim.loop.hrtime() - H.t0) / 1e6)
  if detail ~= nil and (not ok or vim.env.TVMLS_TEST_VERBOSE) then
    line = line .. ' -- ' .. (type(detail) == 'string' and detail or vim.inspect(detail))
  end
  io.stdout:write(line .. '\n')
  if not ok then H.failed = true end
  return ok
end

-- Every vim.notify message, in order.
H.messages = {}
-- (Not passed on: an ERROR-level message inside vim.cmd() would become a Lua error.)
vim.notify = function(msg, level)
  table.insert(H.messages, { msg = tostring(msg), level = level })
  if vim.env.TVMLS_TEST_VERBOSE then io.stdout:write('notify: ' .. tostring(msg) .. '\n') end
end

function H.find_message(pattern, plain)
  for _, m in ipairs(H.messages) do
    if m.msg:find(pattern, 1, plain) then return m end
  end
end

function H.wait(ms, fn) return vim.wait(ms, fn, 20) end

function H.finish()
  local ms = (vim.loop.hrtime() - H.t0) / 1e6
  local n_ok = 0
  for _, s in ipairs(H.steps) do if s.ok then n_ok = n_ok + 1 end end
  io.stdout:write(string.format('%d/%d checks passed in %.0f ms\n', n_ok, #H.steps, ms))
  pcall(function()
    local ok, tvmls = pcall(require, 'tvmls')
    if ok and tvmls.config then tvmls.stop(2000) end
  end)
  io.stdout:flush()
  vim.cmd((H.failed or #H.steps == 0) and 'cquit 1' or 'qall!')
end

-- Run the test body; a Lua error is a failure.
function H.run(body)
  local ok, err = xpcall(body, debug.traceback)
  if not ok then H.check('no Lua error', false, err) end
  H.finish()
end

return H
