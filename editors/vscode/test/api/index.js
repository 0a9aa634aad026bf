// vscode.api, inside the real extension host (code-server's node extension host, loaded as the
// workbench's extensionTestsPath): VS Code's own API commands against the installed tvmls
// extension, and the failure cases that the UI cannot show well. Writes every step to
// $TVMLS_API_RESULT and throws when one failed.
'use strict';
const vscode = require('vscode');
const fs = require('fs');
const path = require('path');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function waitFor(what, fn, ms = 15000) {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(50);
  }
}

exports.run = async function run() {
  const steps = [];
  const t0 = Date.now();
  const step = (name, ok, detail) => {
    steps.push({ name, ok: !!ok, ms: Date.now() - t0, detail: ok ? undefined : detail });
    if (!ok) throw new Error(`${name}: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`);
  };
  const cfg = () => vscode.workspace.getConfiguration('tvmls');
  const setting = (key, value) => cfg().update(key, value, vscode.ConfigurationTarget.Global);
  try {
    const ws = vscode.workspace.workspaceFolders[0].uri;
    const uri = (name) => vscode.Uri.joinPath(ws, name);
    const diags = (u) => vscode.languages.getDiagnostics(u);
    const codes = (u) => diags(u).map((d) => `${d.range.start.line}:${typeof d.code === 'object' ? d.code.value : d.code}`);
    const code = (d) => (typeof d.code === 'object' ? d.code.value : d.code);

    // The dump opens as `tvmscript`, which activates the extension.
    const dump = await vscode.workspace.openTextDocument(uri('mlp_dump.tvmscript'));
    await vscode.window.showTextDocument(dump);
    step('mlp_dump.tvmscript has language id tvmscript', dump.languageId === 'tvmscript', dump.languageId);
    const ext = vscode.extensions.getExtension('tvmls.tvmls');
    step('extension tvmls.tvmls is installed', ext, vscode.extensions.all.map((e) => e.id));
    const api = await waitFor('activation', async () => (ext.isActive ? ext.exports : undefined), 15000);
    const settled = await api.whenSettled(15000);
    step('server running (bundled binary)', settled === 'running' && /server\/linux-x64\/tvmls$/.test(api.state().command), api.state());

    // Diagnostics, hover, inlay hints on the dump.
    const shape = await waitFor('shape-mismatch in the dump', async () => diags(dump.uri).find((d) => code(d) === 'shape-mismatch' && d.severity === vscode.DiagnosticSeverity.Error));
    step('dump: shape-mismatch error on the `out` annotation (line 37)', shape.range.start.line === 36 && shape.source === 'tvmls', { range: shape.range, source: shape.source });
    const lvPos = new vscode.Position(33, dump.lineAt(33).text.indexOf('lv'));
    const hovers = await vscode.commands.executeCommand('vscode.executeHoverProvider', dump.uri, lvPos);
    const htext = hovers.map((h) => h.contents.map((c) => c.value ?? c).join('')).join('\n');
    step('hover on `lv` shows R.Tensor((1, 256), dtype="float32")', htext.includes('R.Tensor((1, 256), dtype="float32")'), htext);
    const all = new vscode.Range(0, 0, dump.lineCount, 0);
    const hints = await vscode.commands.executeCommand('vscode.executeInlayHintProvider', dump.uri, all);
    const labels = hints.map((h) => `${h.position.line}:${typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('')}`);
    step('inlay hints after lv, lv1, lv2', ['33', '34', '35'].every((l) => labels.some((x) => x.startsWith(`${l}:`) && x.includes('R.Tensor((1, 256), dtype="float32")'))), labels);
    await setting('inlayHints.enable', false);
    const none = await vscode.commands.executeCommand('vscode.executeInlayHintProvider', dump.uri, all);
    step('tvmls.inlayHints.enable=false: no inlay hints', none.length === 0, none.length);
    await setting('inlayHints.enable', undefined);
    const tokens = await vscode.commands.executeCommand('vscode.provideDocumentSemanticTokens', dump.uri);
    step('semantic tokens for the tvmscript dump', tokens && tokens.data.length > 0, tokens && tokens.data.length);
    // Completion: vscode-languageclient takes completionList.itemDefaults, so the replaced range
    // comes once for the list and a call's snippet as textEditText; VS Code must still put both
    // on the item.
    const at = dump.lineAt(36).text.indexOf('R.matmul(') + 'R.ma'.length;
    const list = await vscode.commands.executeCommand('vscode.executeCompletionItemProvider', dump.uri, new vscode.Position(36, at));
    const matmul = list.items.find((i) => (typeof i.label === 'string' ? i.label : i.label.label) === 'matmul');
    const mrange = matmul && (matmul.range instanceof vscode.Range ? matmul.range : matmul.range && matmul.range.replacing);
    const minsert = matmul && (typeof matmul.insertText === 'string' ? matmul.insertText : matmul.insertText && matmul.insertText.value);
    step('completion after `R.ma`: matmul replaces `ma` with a call snippet',
      mrange && mrange.start.line === 36 && mrange.start.character === at - 2 && mrange.end.character === at &&
        matmul.insertText instanceof vscode.SnippetString && minsert.startsWith('matmul(${1:'),
      matmul ? { range: mrange, insertText: minsert, items: list.items.length } : list.items.slice(0, 5).map((i) => i.label));

    // The quick fix through the code action provider, applied; the diagnostics go.
    // The settings toggled above make the server analyse again; a request it overtakes is
    // answered ContentModified, which VS Code shows as no actions. Poll.
    let actions = [];
    const fix = await waitFor('the shape-mismatch quick fix', async () => {
      actions = await vscode.commands.executeCommand('vscode.executeCodeActionProvider', dump.uri, shape.range, vscode.CodeActionKind.QuickFix.value);
      return actions.find((a) => a.edit && a.title.includes('R.Tensor((1, 64), dtype="float32")'));
    }).catch(() => undefined);
    step('quick fix for shape-mismatch writes the inferred R.Tensor((1, 64), dtype="float32")', fix, actions.map((a) => a.title));
    step('the fix is marked preferred', fix.isPreferred === true, { isPreferred: fix.isPreferred, kind: fix.kind && fix.kind.value, keys: Object.keys(fix) });
    step('quick fix applied', await vscode.workspace.applyEdit(fix.edit), fix.title);
    step('annotation rewritten', dump.lineAt(36).text.includes('out: R.Tensor((1, 64), dtype="float32") = R.matmul(lv2, w1)'), dump.lineAt(36).text);
    await waitFor('no diagnostics in the fixed dump', async () => diags(dump.uri).filter((d) => d.severity <= vscode.DiagnosticSeverity.Warning).length === 0);
    step('dump: no errors or warnings after the fix', true);

    // seed_b stays `python`; its TVMScript is checked; its quick fix deletes the kill line.
    const seed = await vscode.workspace.openTextDocument(uri('seed_b_kill_in_dataflow.py'));
    await vscode.window.showTextDocument(seed);
    step('seed_b .py keeps language id python', seed.languageId === 'python', seed.languageId);
    const kill = await waitFor('impure-in-dataflow in seed_b', async () => diags(seed.uri).find((d) => code(d) === 'impure-in-dataflow' && d.range.start.line === 20));
    step('seed_b: impure-in-dataflow on line 21', kill, codes(seed.uri));
    const pyTokens = await vscode.commands.executeCommand('vscode.provideDocumentSemanticTokens', seed.uri);
    step('no tvmls semantic tokens for a python document', !pyTokens || pyTokens.data.length === 0, pyTokens && pyTokens.data.length);
    await setting('severity', { 'impure-in-pure-function': 'off' });
    await waitFor('impure-in-pure-function switched off', async () => diags(seed.uri).length > 0 && !diags(seed.uri).some((d) => code(d) === 'impure-in-pure-function'), 10000);
    step('tvmls.severity reaches the server (didChangeConfiguration)', true);
    await setting('severity', undefined);
    await waitFor('impure-in-pure-function back', async () => diags(seed.uri).some((d) => code(d) === 'impure-in-pure-function'), 10000);
    const seedActions = await vscode.commands.executeCommand('vscode.executeCodeActionProvider', seed.uri, kill.range, vscode.CodeActionKind.QuickFix.value);
    const del = seedActions.find((a) => a.edit && a.title.startsWith('Delete the operator relax.memory.kill_tensor'));
    step('seed_b: preferred fix deletes the kill', del, seedActions.map((a) => a.title));
    await vscode.workspace.applyEdit(del.edit);
    step('kill line deleted', !seed.getText().includes('R.memory.kill_tensor(w)'), seed.lineAt(20).text);
    await waitFor('the kill diagnostics gone', async () => !diags(seed.uri).some((d) => d.range.start.line === 20 && /impure/.test(code(d))));
    step('seed_b: its diagnostics on the deleted line are gone', true);

    // A .py file without TVMScript gets no diagnostics (the server answers an empty list).
    const plain = await vscode.workspace.openTextDocument(uri('plain.py'));
    await vscode.window.showTextDocument(plain);
    await sleep(1500);
    step('plain .py without TVMScript: no diagnostics', diags(plain.uri).length === 0, codes(plain.uri));

    // Bad input 1: tvmls.server.path points to a missing file.
    const seen = api.notifications.length;
    await setting('server.path', '/nonexistent/dir/tvmls');
    await waitFor('the failed state', async () => api.state().state === 'failed', 10000);
    const missing = api.notifications.slice(seen).join('\n');
    step('server.path missing: failed state and an error naming the path and the fix',
      /does not exist/.test(missing) && missing.includes('/nonexistent/dir/tvmls') && missing.includes('cmake --install build --prefix ~/.local'),
      { state: api.state(), missing });

    // Bad input 2: a "server" that exits 1 at start.
    const crashPath = vscode.Uri.joinPath(ws, 'crash-at-start.sh').fsPath;
    const seen2 = api.notifications.length;
    await setting('server.path', crashPath);
    await waitFor('the failed state after a crash at start', async () => api.state().state === 'failed' && api.notifications.length > seen2, 15000);
    const crash = api.notifications.slice(seen2).join('\n');
    step('server exiting 1 at start: failed state, exit code and its stderr reported',
      /exited with code 1 while starting/.test(crash) && crash.includes('cannot load the analysis tables'), { state: api.state(), crash });

    // Back to the bundled server: running again, and it still answers.
    await setting('server.path', undefined);
    await waitFor('running again', async () => api.state().state === 'running' && api.state().pid, 15000);
    step('server.path reset: running again on the bundled binary', /server\/linux-x64\/tvmls$/.test(api.state().command), api.state());

    // Bad input 3: the server killed mid-session is reported and restarted automatically.
    // Mid-session: the client reports `running` when the server has answered `initialize`, before
    // its start has finished; a kill in between is the start-up case (handled by
    // restartAfterStart), and under load it raced this step. A hover answered means the start is
    // over and the document is open.
    await waitFor('a hover answered before the kill', async () => {
      const h = await vscode.commands.executeCommand('vscode.executeHoverProvider', dump.uri, lvPos);
      return h.length > 0;
    }, 15000);
    const pid1 = api.state().pid;
    const seen3 = api.notifications.length;
    process.kill(pid1, 'SIGKILL');
    await waitFor('the notification about the kill', async () => api.notifications.slice(seen3).some((m) => m.includes('SIGKILL')), 10000);
    await waitFor('running after the automatic restart', async () => api.state().state === 'running' && api.state().pid && api.state().pid !== pid1, 15000);
    step('killed server: reported (signal SIGKILL) and restarted', true, api.notifications.slice(seen3));
    // The restarted client re-opens its documents asynchronously: a hover sent in the same tick
    // can reach the new server before the document does (answered null: not open). Poll.
    let again = [];
    await waitFor('a hover answered by the restarted server', async () => {
      again = await vscode.commands.executeCommand('vscode.executeHoverProvider', dump.uri, lvPos);
      return again.length > 0;
    }).catch(() => {});
    step('hover works after the restart', again.length > 0, again.length);

    // The restart command starts a new server process.
    const pid2 = api.state().pid;
    await vscode.commands.executeCommand('tvmls.restartServer');
    await waitFor('running after tvmls.restartServer', async () => api.state().state === 'running' && api.state().pid && api.state().pid !== pid2, 15000);
    step('tvmls.restartServer: a new server process', true);

    // Killed again and again: after 4 automatic restarts in 3 minutes it stays down, says so,
    // and the restart command brings it back.
    let final = '';
    for (let i = 0; i < 6 && api.state().state !== 'failed'; i++) {
      await waitFor('a running server to kill', async () => api.state().state === 'running' && api.state().pid, 15000);
      const n = api.notifications.length;
      const killed = api.state().pid;
      process.kill(killed, 'SIGKILL');
      await waitFor(`the crash handled (kill ${i + 1}, pid ${api.state().pid})`, async () => api.notifications.length > n, 10000)
        .catch((e) => {
          let proc = '';
          try { proc = fs.readFileSync(`/proc/${killed}/status`, 'utf8').split('\n').slice(0, 8).join(' | '); } catch (err) { proc = String(err); }
          throw new Error(`${e.message}; state ${JSON.stringify(api.state())}; /proc: ${proc}; notifications ${JSON.stringify(api.notifications.slice(-3))}`);
        });
      final = api.notifications[api.notifications.length - 1];
      if (api.state().state !== 'failed') await waitFor('restart or failure', async () => api.state().state === 'running' || api.state().state === 'failed', 15000);
    }
    step('five crashes: failed state, "will not be restarted automatically"', api.state().state === 'failed' && /will not be restarted automatically/.test(final), { state: api.state(), final });
    await vscode.commands.executeCommand('tvmls.restartServer');
    await waitFor('running after the final restart', async () => api.state().state === 'running', 15000);
    const last = await vscode.commands.executeCommand('vscode.executeHoverProvider', dump.uri, lvPos);
    step('tvmls.restartServer brings it back after the final crash', last.length > 0, api.state());
  } catch (e) {
    try {
      const api = vscode.extensions.getExtension('tvmls.tvmls').exports;
      console.log('tvmls output:\n' + api.outputTail().slice(-60).join('\n'));
    } catch { /* not active */ }
    if (!steps.length || steps[steps.length - 1].ok) steps.push({ name: 'exception', ok: false, detail: String((e && e.stack) || e) });
  } finally {
    for (const key of ['server.path', 'severity', 'inlayHints.enable']) {
      await setting(key, undefined).then(undefined, () => undefined);
    }
  }
  const result = { ok: steps.every((s) => s.ok), steps };
  if (process.env.TVMLS_API_RESULT) fs.writeFileSync(process.env.TVMLS_API_RESULT, JSON.stringify(result, null, 1));
  if (!result.ok) throw new Error('tvmls API test failed: ' + JSON.stringify(steps.filter((s) => !s.ok)));
};
