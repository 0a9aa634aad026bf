#!/usr/bin/env node
// vscode.grammar: the TextMate grammars (syntaxes/) against the syntax tests in test/grammar/,
// with vscode-tmgrammar-test and VS Code's own Python grammar (MagicPython), taken from the
// code-server install in the cache (test/setup.sh) rather than committed here.
'use strict';
const cp = require('child_process');
const fs = require('fs');
const path = require('path');
const h = require('./lib/harness');

h.runMain(async () => {
  const syntaxes = path.join(h.codeServerDir(), 'lib', 'vscode', 'extensions', 'python', 'syntaxes');
  const python = path.join(syntaxes, 'MagicPython.tmLanguage.json');
  if (!fs.existsSync(python)) h.fail(`${python} is missing: rerun editors/vscode/test/setup.sh`);
  const cli = path.join(h.EXT_DIR, 'node_modules', 'vscode-tmgrammar-test', 'dist', 'unit.js');
  if (!fs.existsSync(cli)) h.fail('vscode-tmgrammar-test is not installed: run `npm ci` in editors/vscode (ctest: vscode.package)');
  const tests = fs.readdirSync(path.join(__dirname, 'grammar')).filter((f) => /\.test\./.test(f));
  if (!tests.length) throw new Error('no grammar tests in test/grammar');
  // The tool reads the grammar contributions (scope names, injectTo) from package.json.
  const r = cp.spawnSync(process.execPath, [cli, '--config', 'package.json',
    '-g', python, '-g', path.join(syntaxes, 'MagicRegExp.tmLanguage.json'),
    ...tests.map((t) => `test/grammar/${t}`)], { cwd: h.EXT_DIR, encoding: 'utf8', timeout: 60000 });
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  const passed = (r.stdout.match(/run successfuly/g) || []).length;
  console.log(`${passed} passed, ${tests.length - passed} failed`);
  if (r.status !== 0 || passed !== tests.length) throw new Error(`vscode-tmgrammar-test exited with ${r.status ?? r.signal}`);
});
