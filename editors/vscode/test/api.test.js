#!/usr/bin/env node
// vscode.api: runs test/api/index.js inside the extension host of a fresh code-server (VS Code
// 1.100.3) with the built .vsix installed, the way VS Code's own browser integration tests do:
// the workbench URL carries extensionDevelopmentPath/extensionTestsPath, and the workbench calls
// window.codeAutomationExit(code) when the tests finish.
'use strict';
const fs = require('fs');
const path = require('path');
const h = require('./lib/harness');

async function main() {
  const t0 = Date.now();
  const resultFile = path.join(require('os').tmpdir(), `tvmls-vscode-api-${process.pid}.json`);
  const cs = await h.startCodeServer({
    files: ['examples/seed_b_kill_in_dataflow.py', 'examples/mlp_dump.tvmscript'],
    extraFiles: {
      'plain.py': { text: 'import os\n\n\ndef main(x):\n    return os.path.join(x, "y")\n' },
      'crash-at-start.sh': {
        text: '#!/bin/sh\necho "tvmls: cannot load the analysis tables (simulated crash at start)" >&2\nexit 1\n',
        mode: 0o755,
      },
    },
    name: 'api',
    env: { TVMLS_API_RESULT: resultFile },
  });
  let browser;
  try {
    // The tests run in the extension host, which is on the code-server side: paths are remote.
    const testsPath = path.join(cs.tmp, 'api-tests');
    fs.cpSync(path.join(__dirname, 'api'), testsPath, { recursive: true });
    browser = await h.launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const remote = (p) => `vscode-remote://127.0.0.1:${cs.port}${p}`;
    let done;
    const exited = new Promise((r) => { done = r; });
    const logs = [];
    await page.exposeFunction('codeAutomationLog', (type, args) => logs.push(`[${type}] ${(args || []).map(String).join(' ')}`));
    await page.exposeFunction('codeAutomationExit', (code) => done(code));
    const payload = JSON.stringify([
      ['extensionDevelopmentPath', remote(cs.installedExtension)],
      ['extensionTestsPath', remote(testsPath)],
      ['skipWelcome', 'true'],
    ]);
    await page.goto(`${cs.url}/?folder=${encodeURIComponent(cs.workspace)}&payload=${encodeURIComponent(payload)}`);
    const code = await Promise.race([exited, h.sleep(120000).then(() => 'timeout')]);
    const result = fs.existsSync(resultFile) ? JSON.parse(fs.readFileSync(resultFile, 'utf8')) : undefined;
    let passed = 0;
    let failed = 0;
    for (const s of result ? result.steps : []) {
      if (s.ok) passed++;
      else failed++;
      console.log(`${s.ok ? 'ok' : 'not ok'} ${passed + failed} - ${s.name} (${(s.ms / 1000).toFixed(1)} s)${s.ok ? '' : `\n  ${typeof s.detail === 'string' ? s.detail : JSON.stringify(s.detail)}`}`);
    }
    if (code !== 0 || !result || !result.ok) {
      if (!result) failed++;
      console.log(logs.slice(-30).join('\n'));
      console.log(`${passed} passed, ${Math.max(failed, 1)} failed`);
      throw new Error(`the extension-host tests failed (codeAutomationExit: ${code}${result ? '' : `, no result in ${resultFile}`})`);
    }
    console.log(`${passed} passed, 0 failed (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } finally {
    if (browser) await browser.close().catch(() => undefined);
    fs.rmSync(resultFile, { force: true });
    await cs.stop();
  }
}

h.runMain(main);
