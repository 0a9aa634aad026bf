" tvmls.vim: Vim + ALE integration of tvmls, the TVMScript language server.
" Shared functions of ale_linters/{python,tvmscript}/tvmls.vim and plugin/tvmls.vim.

let s:save_cpo = &cpoptions
set cpoptions&vim

" Where the TVMScript checks live: a `from tvm.script import ...` (or any mention of
" tvm.script) or one of the TVMScript decorators. The server answers other files with
" empty diagnostics anyway; this only decides whether Python buffers get the linter.
let s:tvmscript_pattern = '\C\<tvm\.script\>\|@\s*\%(I\.ir_module\|T\.prim_func\|R\.function\)\>'

" Messages already shown (a missing executable is reported once per path).
let s:reported = {}
" Servers being watched: connection id -> {'exe': ..., 'initialized': 0|1}.
let s:watched = {}
" Executables ALE was just asked to start (the command callback ran): exe -> 1.
let s:pending = {}
let s:timer = -1

function! tvmls#Report(message) abort
    " Shown now, kept in :messages, and listed by :ALEInfo under the tvmls linter.
    echohl WarningMsg
    echomsg a:message
    echohl None

    if exists('*ale#lsp_linter#AddErrorMessage') || !empty(globpath(&runtimepath, 'autoload/ale/lsp_linter.vim'))
        call ale#lsp_linter#AddErrorMessage('tvmls', a:message)
    endif
endfunction

" The server program: b:tvmls_executable, else g:tvmls_executable, else `tvmls` from PATH.
function! tvmls#Executable(buffer) abort
    let l:exe = getbufvar(a:buffer, 'tvmls_executable', get(g:, 'tvmls_executable', 'tvmls'))

    if !executable(l:exe)
        if !has_key(s:reported, l:exe)
            let s:reported[l:exe] = 1
            call tvmls#Report(printf(
            \   'tvmls: the server program %s is not found or not executable, so ALE does not '
            \   . 'start it. Set g:tvmls_executable to the tvmls binary (e.g. let '
            \   . 'g:tvmls_executable = ''/path/to/tvmls/build/tvmls'') or install it on PATH '
            \   . '(cmake --build build && sudo cmake --install build).',
            \   string(l:exe)))
        endif
    else
        " Found again (e.g. after a build): report again if it disappears later.
        silent! call remove(s:reported, l:exe)
    endif

    return l:exe
endfunction

" ALE formats %e as the escaped executable. Called right before ALE (re)uses the server.
function! tvmls#Command(buffer) abort
    let s:pending[tvmls#Executable(a:buffer)] = 1
    call s:StartWatching()

    return '%e serve' . join(map(copy(get(g:, 'tvmls_server_args', [])), {_, a -> ' ' . shellescape(a)}), '')
endfunction

" The nearest directory above the file holding one of g:tvmls_root_markers; else the
" file's own directory (ALE does not start an LSP server without a root).
function! tvmls#ProjectRoot(buffer) abort
    let l:markers = get(g:, 'tvmls_root_markers',
    \   ['.git', '.hg', 'pyproject.toml', 'setup.py', 'setup.cfg'])
    let l:name = fnamemodify(bufname(a:buffer), ':p')
    let l:dir = empty(bufname(a:buffer)) ? getcwd() : fnamemodify(l:name, ':h')
    let l:start = l:dir

    while 1
        for l:marker in l:markers
            let l:path = l:dir . '/' . l:marker

            if isdirectory(l:path) || filereadable(l:path)
                return l:dir
            endif
        endfor

        let l:parent = fnamemodify(l:dir, ':h')

        if l:parent ==# l:dir
            return l:start
        endif

        let l:dir = l:parent
    endwhile
endfunction

" initializationOptions and the `tvmls` section of workspace/didChangeConfiguration:
" b:tvmls_settings, else g:tvmls_settings (README: severity, assumedUpperBound, era, ...).
function! tvmls#Settings(buffer) abort
    let l:settings = getbufvar(a:buffer, 'tvmls_settings', get(g:, 'tvmls_settings', {}))

    return empty(l:settings) ? {} : l:settings
endfunction

function! tvmls#Config(buffer) abort
    return {'tvmls': tvmls#Settings(a:buffer)}
endfunction

function! tvmls#LinterDefinition(language) abort
    return {
    \   'name': 'tvmls',
    \   'lsp': 'stdio',
    \   'language': a:language,
    \   'executable': function('tvmls#Executable'),
    \   'command': function('tvmls#Command'),
    \   'project_root': function('tvmls#ProjectRoot'),
    \   'initialization_options': function('tvmls#Settings'),
    \   'lsp_config': function('tvmls#Config'),
    \}
endfunction

" --- Server exits ---------------------------------------------------------------------
" ALE drops an LSP connection silently when its process ends (stderr is discarded). A
" timer notices that our connection is gone and says so, with what to do.

function! s:StartWatching() abort
    if s:timer == -1
        let s:timer = timer_start(get(g:, 'tvmls_watch_interval', 300),
        \   function('s:Check'), {'repeat': -1})
    endif
endfunction

function! s:OwnerOf(conn_id) abort
    for l:exe in keys(s:pending) + map(values(s:watched), 'v:val.exe')
        if stridx(a:conn_id, l:exe . ':') == 0
            return l:exe
        endif
    endfor

    return ''
endfunction

function! s:FindJob(pid) abort
    for l:job in job_info()
        if get(job_info(l:job), 'process', -1) == a:pid
            return l:job
        endif
    endfor

    return v:null
endfunction

function! s:Check(timer) abort
    try
        let l:conns = ale#lsp#GetConnections()
    catch
        return
    endtry

    for [l:id, l:conn] in items(l:conns)
        let l:exe = s:OwnerOf(l:id)

        if empty(l:exe)
            continue
        endif

        silent! call remove(s:pending, l:exe)
        let l:pid = get(l:conn, 'job_id', 0)
        let l:info = get(s:watched, l:id, {})

        if empty(l:info) || l:info.pid != l:pid
            if !empty(l:info)
                " ALE already started a new process: say what happened to the old one.
                call s:ReportGone(l:info)
            endif

            " Keep a reference to the job, to read its exit status.
            let l:info = {'exe': l:exe, 'pid': l:pid, 'job': s:FindJob(l:pid),
            \   'initialized': 0, 'reported': 0}
            let s:watched[l:id] = l:info
        endif

        if get(l:conn, 'initialized', 0)
            let l:info.initialized = 1
        endif

        if !l:info.reported && l:info.job isnot v:null && job_status(l:info.job) isnot# 'run'
            let l:info.reported = 1
            call s:ReportExit(l:info)
        endif
    endfor

    " Started, but gone before we could see it: it died during startup.
    for l:exe in keys(s:pending)
        call remove(s:pending, l:exe)
        call s:ReportExit({'exe': l:exe, 'job': v:null, 'initialized': 0})
    endfor

    for [l:id, l:info] in items(s:watched)
        if !has_key(l:conns, l:id)
            call remove(s:watched, l:id)
            call s:ReportGone(l:info)
        endif
    endfor

    if empty(filter(values(s:watched), '!v:val.reported')) && empty(s:pending)
        call timer_stop(s:timer)
        let s:timer = -1
    endif
endfunction

" A server ALE no longer uses.
function! s:ReportGone(info) abort
    let l:status = a:info.job is v:null ? {} : job_info(a:info.job)

    " ALE stops servers with SIGTERM (:ALEStopAllLSPs, :ALEReset...): not news.
    if !a:info.reported && get(l:status, 'termsig', '') !=# 'term'
        let a:info.reported = 1
        call s:ReportExit(a:info)
    endif
endfunction

" Whether `exe` is still the server program of some buffer (g:tvmls_executable or a
" b:tvmls_executable).
function! s:InUse(exe) abort
    if get(g:, 'tvmls_executable', 'tvmls') ==# a:exe
        return 1
    endif

    for l:info in getbufinfo()
        if get(l:info.variables, 'tvmls_executable', '') ==# a:exe
            return 1
        endif
    endfor

    return 0
endfunction

function! s:ReportExit(info) abort
    let l:exe = a:info.exe
    let l:how = ''

    " A server that had not started yet when the program was changed (ALE drops it): not a
    " crash. (A CI run reported the previous binary as "exited during startup" this way.)
    if !a:info.initialized && !s:InUse(l:exe)
        return
    endif

    if a:info.job isnot v:null
        let l:status = job_info(a:info.job)

        if !empty(get(l:status, 'termsig', ''))
            let l:how = ' (signal ' . l:status.termsig . ')'
        elseif get(l:status, 'status', '') is# 'dead'
            let l:how = ' (exit status ' . get(l:status, 'exitval', '?') . ')'
        endif
    endif

    if a:info.initialized
        call tvmls#Report(printf('tvmls: the language server (%s serve) stopped%s: it crashed '
        \   . 'or was killed. ALE starts it again at the next check (:ALELint). If it keeps '
        \   . 'stopping, run `%s serve --log-level debug` in a terminal to see why.',
        \   l:exe, l:how, l:exe))
    else
        call tvmls#Report(printf('tvmls: the language server (%s serve) exited during startup%s. '
        \   . 'Run `%s --version` and `%s serve` in a terminal to see its error (ALE discards '
        \   . 'it); check g:tvmls_executable.', l:exe, l:how, l:exe, l:exe))
    endif
endfunction

" --- Python buffers ---------------------------------------------------------------------

function! tvmls#HasTVMScript(buffer) abort
    for l:line in getbufline(a:buffer, 1, '$')
        if l:line =~# s:tvmscript_pattern
            return 1
        endif
    endfor

    return 0
endfunction

" g:tvmls_python: 'auto' (default) adds tvmls to the ALE linters of Python buffers that
" contain TVMScript, 1 to every Python buffer, 0 to none (then list 'tvmls' in
" g:ale_linters.python yourself). The buffer keeps the linters ALE would run anyway.
function! tvmls#SetupPythonBuffer(buffer) abort
    let l:mode = get(g:, 'tvmls_python', 'auto')

    if l:mode is 0 || l:mode is# '0'
        return
    endif

    if l:mode is# 'auto' && !tvmls#HasTVMScript(a:buffer)
        return
    endif

    let l:current = getbufvar(a:buffer, 'ale_linters', v:null)

    if l:current is# 'all'
        return
    endif

    if type(l:current) is v:t_list
        if index(l:current, 'tvmls') < 0
            call setbufvar(a:buffer, 'ale_linters', l:current + ['tvmls'])
        endif

        return
    endif

    if type(l:current) is v:t_dict && has_key(l:current, 'python')
        if l:current.python isnot# 'all' && index(l:current.python, 'tvmls') < 0
            let l:current.python += ['tvmls']
        endif

        return
    endif

    " What ALE would run for this buffer (g:ale_linters.python or ALE's defaults).
    try
        let l:names = map(ale#linter#Get('python'), 'v:val.name')
    catch
        return
    endtry

    if index(l:names, 'tvmls') < 0
        let l:dict = type(l:current) is v:t_dict ? l:current : {}
        let l:dict.python = l:names + ['tvmls']
        call setbufvar(a:buffer, 'ale_linters', l:dict)
    endif
endfunction

let &cpoptions = s:save_cpo
unlet s:save_cpo
