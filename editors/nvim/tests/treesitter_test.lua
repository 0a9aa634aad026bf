-- nvim.treesitter: filetype detection, :TvmlsInstallParser into the (temporary) data dir,
-- highlight captures, folds and injections on examples/mlp_dump.tvmscript.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/harness.lua')

H.run(function()
  local tvmls = require('tvmls')
  local ts = require('tvmls.treesitter')
  tvmls.setup({ cmd = { H.server, 'serve' }, filetypes = { 'tvmscript' } }) -- LSP tested in nvim.lsp
  local data = vim.fn.stdpath('data')
  H.check('data dir is the temporary XDG_DATA_HOME', vim.env.XDG_DATA_HOME and data:find(vim.env.XDG_DATA_HOME, 1, true) == 1, data)

  -- 1. Filetype detection: extensions and the printer header.
  local dump = H.repo .. '/examples/mlp_dump.tvmscript'
  local tmp = vim.fn.tempname()
  vim.fn.mkdir(tmp, 'p')
  local text = vim.fn.readfile(dump)
  local cases = {
    { 'dump.relax', text, 'tvmscript' },
    { 'dump.tir', { 'x = 1' }, 'tvmscript' },
    { 'dump.py', text, 'tvmscript' }, -- header on line 1 wins over .py
    { 'dump.txt', text, 'tvmscript' },
    { 'noext_dump', text, 'tvmscript' },
    { 'script.py', { 'from tvm.script import relax as R', 'x = 1' }, 'python' }, -- a real import: Python
  }
  for _, c in ipairs(cases) do
    vim.fn.writefile(c[2], tmp .. '/' .. c[1])
    vim.cmd('edit ' .. vim.fn.fnameescape(tmp .. '/' .. c[1]))
    H.check('filetype of ' .. c[1] .. ' is ' .. c[3], vim.bo.filetype == c[3], vim.bo.filetype)
    vim.cmd('bwipeout!')
  end

  vim.cmd('edit ' .. vim.fn.fnameescape(dump))
  local buf = vim.api.nvim_get_current_buf()
  H.check('mlp_dump.tvmscript has filetype tvmscript', vim.bo[buf].filetype == 'tvmscript', vim.bo[buf].filetype)
  H.check('no parser yet: no highlighter, no error', ts.parser_path() == nil
    and vim.treesitter.highlighter.active[buf] == nil, ts.parser_path())

  -- 2. :TvmlsInstallParser! (waits for the compiler)
  local t = vim.loop.hrtime()
  vim.cmd('TvmlsInstallParser!')
  local so = data .. '/site/parser/tvmscript.so'
  H.check(':TvmlsInstallParser built ' .. so, vim.fn.filereadable(so) == 1 and ts.install_state == 'ok',
    { state = ts.install_state, messages = H.messages })
  H.check('it said so', H.find_message('parser installed: ' .. so, true) ~= nil)
  io.stdout:write(string.format('     (compile took %.1f s)\n', (vim.loop.hrtime() - t) / 1e9))
  H.check('parser found on runtimepath', ts.parser_path() ~= nil
    and vim.loop.fs_realpath(ts.parser_path()) == vim.loop.fs_realpath(so), ts.parser_path())
  H.check('highlighter started on the open dump', vim.treesitter.highlighter.active[buf] ~= nil)
  local root = vim.treesitter.get_parser(buf, 'tvmscript'):parse()[1]:root()
  H.check('dump parses without errors', root:type() == 'module' and not root:has_error(), root:sexpr():sub(1, 80))

  -- 3. Highlight captures (what the highlighter draws on top) at given positions (1-based line, 0-based col).
  local function cap(line, col) return (ts.capture_at(buf, line - 1, col)) end
  local expect = {
    { 34, 17, 'module', '`R` of R.matmul' },
    { 34, 19, 'function.builtin', '`matmul` of R.matmul' },
    { 36, 20, 'module', '`nn` of R.nn.relu' },
    { 27, 13, 'type', '`Tensor` of R.Tensor' },
    { 27, 37, 'type.builtin', 'dtype string "float32"' },
    { 13, 55, 'type.builtin', 'dtype string in T.Buffer' },
    { 13, 14, 'type', '`Buffer` of T.Buffer' },
    { 13, 24, 'type', '`int64` of T.int64' },
    { 12, 4, 'keyword.function', '`def`' },
    { 12, 8, 'function', 'module function name add_bias' },
    { 11, 7, 'attribute.builtin', '`prim_func` decorator' },
    { 9, 0, 'attribute', '`@` of a decorator' },
    { 10, 0, 'keyword.type', '`class`' },
    { 19, 27, 'label', 'block name "add"' },
    { 20, 40, 'string.special', 'iterator kinds "SS"' },
    { 35, 30, 'variable.builtin', '`cls`' },
    { 35, 35, 'function', '`add_bias` of cls.add_bias' },
    { 18, 8, 'keyword.repeat', '`for`' },
    { 33, 8, 'keyword', '`with`' },
    { 39, 8, 'keyword.return', '`return`' },
    { 5, 2, 'comment', 'a comment' },
    { 1, 0, 'comment', 'the printer header' },
    { 34, 12, 'variable', 'a plain variable (fallback)' },
    { 35, 70, 'number', 'an integer' },
    { 27, 8, 'variable.parameter', 'parameter x' },
  }
  for _, e in ipairs(expect) do
    local got, all = ts.capture_at(buf, e[1] - 1, e[2])
    H.check(string.format('@%s at %d:%d (%s)', e[3], e[1], e[2], e[4]), got == e[3],
      { got = got, all = vim.tbl_map(function(c) return c.capture end, all or {}) })
  end
  if vim.fn.has('nvim-0.8') == 0 then
    local hl = vim.treesitter.highlighter.hl_map
    H.check('0.7: new capture names mapped to Vim groups', hl['module'] == 'Include'
      and hl['variable.parameter'] == 'Identifier' and hl['keyword.function'] == 'Keyword')
    -- The groups the highlighter resolves for its captures (hl_cache: capture id -> group id).
    local hlq = vim.treesitter.highlighter.active[buf]:get_query('tvmscript')
    local groups = {}
    for id, name in ipairs(hlq:query().captures) do
      if name == 'module' or name == 'type.builtin' or name == 'function.builtin' then
        groups[name] = vim.fn.synIDattr(hlq.hl_cache[id], 'name')
      end
    end
    H.check('0.7: highlighter resolves @module/@type.builtin/@function.builtin to Include/Type/Special',
      groups['module'] == 'tvmscriptInclude' and groups['type.builtin'] == 'tvmscriptType'
      and groups['function.builtin'] == 'tvmscriptSpecial', groups)
  end

  -- 4. Folds (foldexpr from queries/tvmscript/folds.scm).
  H.check('window uses foldmethod=expr', vim.wo.foldmethod == 'expr' and vim.wo.foldexpr:find('tvmls') ~= nil
    or vim.wo.foldexpr:find('treesitter') ~= nil, vim.wo.foldexpr)
  -- levels: 1 the decorated class (from `@I.ir_module`), 2 the class, 3 each decorated function
  vim.wo.foldlevel = 2 -- the module class stays open, its functions close
  vim.cmd('normal! zx')
  local folds = {
    { 13, 11, 23, 'add_bias from its decorator' },
    { 30, 25, 39, 'main from its decorator' },
  }
  for _, f in ipairs(folds) do
    H.check(string.format('fold %d-%d (%s)', f[2], f[3], f[4]), vim.fn.foldclosed(f[1]) == f[2]
      and vim.fn.foldclosedend(f[1]) == f[3], { vim.fn.foldclosed(f[1]), vim.fn.foldclosedend(f[1]) })
  end
  H.check('the class (level 2) stays open', vim.fn.foldclosed(10) == -1 and vim.fn.foldlevel(10) == 2,
    vim.fn.foldlevel(10))
  vim.wo.foldlevel = 99

  -- 5. Injection: TVMScript in tvm.script.from_source("""...""").
  local inj = tmp .. '/inj.tvmscript'
  vim.fn.writefile({
    '# from tvm.script import ir as I',
    'import tvm',
    'mod = tvm.script.from_source("""',
    '@I.ir_module',
    'class M:',
    '    @R.function',
    '    def f(x: R.Tensor((4,), "float32")):',
    '        return R.add(x, x)',
    '""")',
  }, inj)
  vim.cmd('edit ' .. vim.fn.fnameescape(inj))
  local ibuf = vim.api.nvim_get_current_buf()
  local parser = vim.treesitter.get_parser(ibuf, 'tvmscript')
  parser:parse()
  local child = parser:children()['tvmscript']
  H.check('from_source string injected as tvmscript', child ~= nil)
  local got, all = ts.capture_at(ibuf, 7, 15)
  local last = all and all[#all]
  H.check('injected text highlighted (`R` of R.add is @module from the injected tree)',
    got == 'module' and last.lang == 'tvmscript' and #all >= 2, vim.tbl_map(function(c) return c.capture end, all or {}))

  -- 6. queries/python/injections.scm. No tree-sitter-python parser here, so the test builds a
  -- stand-in: this grammar (which parses any Python 3 with tree-sitter-python's node names)
  -- compiled under the name `python`, into the temporary data dir.
  local src = ts.grammar_src()
  local py_so = data .. '/site/parser/python.so'
  vim.fn.system({ 'cc', '-O2', '-shared', '-fPIC', '-Dtree_sitter_tvmscript=tree_sitter_python', '-I', src,
    '-o', py_so, src .. '/parser.c', src .. '/scanner.c' })
  H.check('stand-in python parser built', vim.v.shell_error == 0 and vim.fn.filereadable(py_so) == 1)
  vim.o.runtimepath = vim.o.runtimepath
  local pyfile = tmp .. '/module.py'
  vim.fn.writefile({
    'import tvm',
    'from tvm.script import ir as I',
    'from tvm.script import relax as R',
    '',
    '@I.ir_module',
    'class Mod:',
    '    @R.function',
    '    def f(x: R.Tensor((4,), "float32")):',
    '        return R.add(x, x)',
    '',
    'def test_g():',
    '    @T.prim_func',
    '    def g(A: T.Buffer((4,), "float32")):',
    '        T.evaluate(0)',
    '',
    'def plain():',
    '    return R.add(1, 2)',
  }, pyfile)
  vim.cmd('edit ' .. vim.fn.fnameescape(pyfile))
  local pbuf = vim.api.nvim_get_current_buf()
  local pparser = vim.treesitter.get_parser(pbuf, 'python')
  pparser:parse()
  local pchild = pparser:children()['tvmscript']
  local regions = pchild and pchild:included_regions() or {}
  local starts = {}
  for _, region in ipairs(regions) do
    local first = region[1]
    local row = type(first) == 'table' and first[1] or (first.range and ({ first:range() })[1])
    table.insert(starts, row)
  end
  table.sort(starts)
  H.check('python: the @I.ir_module class and the nested @T.prim_func are injected (not the method twice)',
    #starts == 2 and starts[1] == 4 and starts[2] == 11, starts)
  local function from(line, col)
    local _, all = ts.capture_at(pbuf, line - 1, col)
    local last = all and all[#all]
    return last and (last.lang .. ':' .. last.capture) or 'none'
  end
  H.check('python: `R` in the ir_module method is tvmscript @module', from(9, 15) == 'tvmscript:module', from(9, 15))
  H.check('python: `T` in the nested prim_func is tvmscript @module', from(14, 8) == 'tvmscript:module', from(14, 8))
  H.check('python: ordinary Python functions are not injected', from(17, 11) == 'none', from(17, 11))
end)
