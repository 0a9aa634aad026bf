-- nvim.lsp: the plugin against the real server on examples/seed_b_kill_in_dataflow.py.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/harness.lua')

H.run(function()
  local tvmls = require('tvmls')
  local attached = {}
  tvmls.setup({
    cmd = { H.server, 'serve' },
    settings = {
      severity = { ['kill-of-non-variable'] = 'warning' }, -- server default: error
      assumedUpperBound = 4096,
      debounceMs = 0, -- initializationOptions only
    },
    on_attach = function(client, bufnr) attached[bufnr] = client.id end,
  })

  -- 1. A Python file with TVMScript: filetype python, attached, diagnostics.
  local file = H.repo .. '/examples/seed_b_kill_in_dataflow.py'
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  H.check('filetype is python', vim.bo[buf].filetype == 'python', vim.bo[buf].filetype)
  H.wait(5000, function() return attached[buf] ~= nil end)
  H.check('on_attach ran for the buffer', attached[buf] ~= nil)
  local client = attached[buf] and vim.lsp.get_client_by_id(attached[buf])
  H.check('client named tvmls with the repo as root', client and client.name == 'tvmls'
    and client.config.root_dir == H.repo, client and client.config.root_dir)

  local function diags_with(code)
    return vim.tbl_filter(function(d) return d.code == code end, vim.diagnostic.get(buf))
  end
  H.wait(10000, function() return #diags_with('impure-in-dataflow') > 0 end)
  local d = diags_with('impure-in-dataflow')[1]
  H.check('diagnostic impure-in-dataflow on the kill (line 21, col 26)', d and d.lnum == 20 and d.col == 25
    and d.end_col == 45 and d.severity == vim.diagnostic.severity.ERROR and d.source == 'tvmls', d)
  H.check('diagnostic message', d and d.message ==
    'impure operator relax.memory.kill_tensor inside a dataflow block; dataflow blocks may only contain pure calls',
    d and d.message)
  local k = diags_with('kill-of-non-variable')[1]
  H.check('setting severity reached the server (kill-of-non-variable as warning)',
    k and k.severity == vim.diagnostic.severity.WARN, k and k.severity)

  -- workspace/configuration is answered from settings (the tvmls section, without init-only keys)
  local conf = vim.lsp.handlers['workspace/configuration'](nil, { items = { { section = 'tvmls' } } },
    { client_id = client.id, method = 'workspace/configuration' })
  H.check('workspace/configuration answered with the tvmls section', type(conf) == 'table' and conf[1]
    and conf[1].assumedUpperBound == 4096 and conf[1].debounceMs == nil
    and conf[1].severity['kill-of-non-variable'] == 'warning', conf)
  H.check('initializationOptions carry every setting', client.config.init_options.debounceMs == 0
    and client.config.init_options.assumedUpperBound == 4096, client.config.init_options)

  -- 2. Hover on a binding: `w` (line 15) is R.Tensor((4,), dtype="float32").
  vim.api.nvim_win_set_cursor(0, { 15, 12 })
  local res = vim.lsp.buf_request_sync(buf, 'textDocument/hover', vim.lsp.util.make_position_params(), 5000)
  local r = res and res[client.id] and res[client.id].result
  local text = r and r.contents and (r.contents.value or r.contents) or ''
  H.check('hover on `w` shows its struct info', type(text) == 'string'
    and text:find('R.Tensor((4,), dtype="float32")', 1, true) ~= nil, text)
  vim.lsp.buf.hover()
  local float_text
  H.wait(5000, function()
    for _, w in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(w).relative ~= '' then
        float_text = table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(w), 0, -1, false), '\n')
        return true
      end
    end
  end)
  H.check('vim.lsp.buf.hover() opens a float with the struct info',
    float_text and float_text:find('R.Tensor((4,), dtype="float32")', 1, true) ~= nil, float_text)
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= '' then vim.api.nvim_win_close(w, true) end
  end

  -- 3. Code actions at the kill: the request, then the user path with vim.ui.select stubbed.
  vim.api.nvim_win_set_cursor(0, { 21, 30 })
  local params = vim.lsp.util.make_range_params()
  params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf) }
  local cres = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 5000)
  local actions = cres and cres[client.id] and cres[client.id].result or {}
  local titles = vim.tbl_map(function(a) return (a.isPreferred and '* ' or '  ') .. a.title end, actions)
  local preferred_delete
  for _, a in ipairs(actions) do
    if a.isPreferred and a.kind == 'quickfix' and a.title:find('^Delete') then preferred_delete = a end
  end
  H.check('codeAction offers the preferred quick-fix that deletes the kill', preferred_delete ~= nil
    and preferred_delete.edit ~= nil, titles)

  local lines_before = vim.api.nvim_buf_line_count(buf)
  local picked
  vim.ui.select = function(items, _, on_choice)
    for i, it in ipairs(items) do
      local action = it.action or it[2] -- 0.7: { client_id, action }; 0.10: { ctx, action }
      if action.isPreferred and action.title:find('^Delete') then
        picked = action.title
        return on_choice(it, i)
      end
    end
    on_choice(nil, nil)
  end
  vim.lsp.buf.code_action()
  local applied = H.wait(5000, function() return vim.api.nvim_buf_line_count(buf) == lines_before - 1 end)
  local l21 = vim.api.nvim_buf_get_lines(buf, 20, 21, false)[1]
  H.check('vim.lsp.buf.code_action() applied the quick-fix (kill line deleted)', applied and picked ~= nil
    and l21 == '            gv: R.Tensor((4,), dtype="float32") = R.multiply(y, y)', { picked = picked, line21 = l21 })
  local kills = 0
  for _, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if l:find('R.memory.kill_tensor(', 1, true) then kills = kills + 1 end
  end
  H.check('only the other function keeps its kill', kills == 1, kills)

  -- 4. After didChange the diagnostics of `main` are gone; `main_folded`'s moved up a line.
  local gone = H.wait(10000, function()
    local ds = diags_with('impure-in-dataflow')
    return #ds == 1 and ds[1].lnum == 32
  end)
  H.check('diagnostic gone after the edit (the remaining one moved to line 33)', gone,
    vim.tbl_map(function(x) return { x.code, x.lnum } end, vim.diagnostic.get(buf)))
  H.check('no diagnostic left in `main`', #vim.tbl_filter(function(x) return x.lnum < 24 end, vim.diagnostic.get(buf)) == 0)

  -- 5. Another file of the same root reuses the client; a Python file without TVMScript is not attached.
  vim.cmd('edit ' .. vim.fn.fnameescape(H.repo .. '/examples/seed_c_call_tir_shape.py'))
  local buf2 = vim.api.nvim_get_current_buf()
  H.wait(5000, function() return attached[buf2] ~= nil end)
  H.check('second TVMScript file reuses the same client', attached[buf2] == client.id and #tvmls.clients() == 1,
    { attached[buf2], #tvmls.clients() })
  H.wait(10000, function() return #vim.diagnostic.get(buf2) > 0 end)
  local d2 = vim.diagnostic.get(buf2)[1]
  H.check('second file gets call-tir-mismatch', d2 and d2.code == 'call-tir-mismatch' and d2.lnum == 77, d2)

  local plain = vim.fn.tempname() .. '.py'
  vim.fn.writefile({ 'import os', '', 'def f(x):', '    return os.path.join(x, "a")' }, plain)
  vim.cmd('edit ' .. vim.fn.fnameescape(plain))
  local buf3 = vim.api.nvim_get_current_buf()
  vim.wait(300)
  H.check('plain Python file (no TVMScript) is not attached', vim.bo[buf3].filetype == 'python'
    and attached[buf3] == nil and not vim.lsp.buf_is_attached(buf3, client.id))

  -- 6. The dump: filetype tvmscript (by extension and by header), attached, its diagnostic.
  vim.cmd('edit ' .. vim.fn.fnameescape(H.repo .. '/examples/mlp_dump.tvmscript'))
  local buf4 = vim.api.nvim_get_current_buf()
  H.check('mlp_dump.tvmscript has filetype tvmscript', vim.bo[buf4].filetype == 'tvmscript', vim.bo[buf4].filetype)
  H.wait(10000, function() return #vim.diagnostic.get(buf4) > 0 end)
  local sm = vim.tbl_filter(function(x) return x.code == 'shape-mismatch' and x.lnum == 36 end, vim.diagnostic.get(buf4))[1]
  H.check('dump gets shape-mismatch on `out` (line 37)', sm ~= nil and sm.col == 17, sm)

  -- 7. The nvim-lspconfig and vim.lsp.config (0.11+) tables shipped with the plugin.
  local plugin = vim.fn.fnamemodify(vim.api.nvim_get_runtime_file('lua/tvmls/init.lua', false)[1], ':h:h:h')
  local lc = dofile(plugin .. '/lua/lspconfig/server_configurations/tvmls.lua')
  H.check('lspconfig table: cmd and filetypes', vim.deep_equal(lc.default_config.cmd, { 'tvmls', 'serve' })
    and vim.deep_equal(lc.default_config.filetypes, { 'python', 'tvmscript' }))
  H.check('lspconfig root_dir: repo for a TVMScript file, nil for plain Python',
    lc.default_config.root_dir(file, buf) == H.repo and lc.default_config.root_dir(plain, buf3) == nil)
  local nc = dofile(plugin .. '/lsp/tvmls.lua')
  local roots = {}
  nc.root_dir(buf, function(d) roots.tvm = d end)
  nc.root_dir(buf3, function(d) roots.plain = d end)
  H.check('lsp/tvmls.lua root_dir: on_dir for TVMScript only', roots.tvm == H.repo and roots.plain == nil, roots)
end)
