// Shared by the VS Code tests: a fresh code-server (real VS Code 1.100 workbench with a node
// extension host) in a temporary directory, with the built .vsix installed, driven by Debian's
// Chromium through playwright-core. Every wait has a timeout; stop() ends what start() began.
'use strict';
const cp = require('child_process');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');

const CODE_SERVER_VERSION = '4.100.3';
const EXT_DIR = path.resolve(__dirname, '..', '..');
const REPO = path.resolve(EXT_DIR, '..', '..');

function fail(message) {
  const err = new Error(message);
  err.setupProblem = true;
  throw err;
}

function cacheDir() {
  return process.env.TVMLS_CACHE_DIR || path.join(os.homedir(), '.cache', 'tvmls');
}

/** The code-server install made by test/setup.sh; a missing one is a failure naming the fix. */
function codeServerDir() {
  const dir = path.join(cacheDir(), `code-server-${CODE_SERVER_VERSION}`);
  if (!fs.existsSync(path.join(dir, '.complete'))) {
    fail(`code-server ${CODE_SERVER_VERSION} is not installed in ${dir}: run editors/vscode/test/setup.sh ` +
      '(ctest runs it as the vscode.setup fixture; it needs the Debian packages build-essential python3 ' +
      'pkg-config libkrb5-dev libxkbfile-dev libsecret-1-dev ripgrep)');
  }
  return dir;
}

function chromiumPath() {
  const p = process.env.CHROMIUM || '/usr/bin/chromium';
  if (!fs.existsSync(p)) fail(`${p} not found: apt-get install chromium (or set CHROMIUM=/path/to/chromium)`);
  return p;
}

function playwright() {
  try {
    return require('playwright-core');
  } catch {
    fail('playwright-core is not installed: run `npm ci` in editors/vscode (ctest: the vscode.package fixture)');
  }
}

/** The newest tvmls-*.vsix in editors/vscode (or $TVMLS_VSIX). */
function vsixPath() {
  if (process.env.TVMLS_VSIX) return process.env.TVMLS_VSIX;
  const pkg = JSON.parse(fs.readFileSync(path.join(EXT_DIR, 'package.json'), 'utf8'));
  const candidates = fs.readdirSync(EXT_DIR).filter((f) => f.startsWith('tvmls-') && f.endsWith(`-${pkg.version}.vsix`));
  if (!candidates.length) fail(`no tvmls-*-${pkg.version}.vsix in ${EXT_DIR}: run \`npm ci && npm run package\` there (ctest: vscode.package)`);
  return path.join(EXT_DIR, candidates[0]);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// Process groups of the code-servers started, killed when the deadline of runMain passes.
const liveGroups = new Set();

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls fn() until it returns a truthy value; throws `what` after `ms`. */
async function waitFor(what, fn, ms = 15000, every = 100) {
  const t0 = Date.now();
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}` + (last instanceof Error ? ` (${last.message})` : ''));
    await sleep(every);
  }
}

function runQuiet(cmd, args, opts, timeoutMs) {
  const r = cp.spawnSync(cmd, args, { encoding: 'utf8', timeout: timeoutMs, ...opts });
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed (${r.error ? r.error.message : `exit ${r.status}, signal ${r.signal}`}):\n${r.stdout}\n${r.stderr}`);
  }
  return r.stdout;
}

/**
 * Starts code-server on a free loopback port with its own user data and extensions directories
 * under a new temporary directory, the .vsix installed and `files` copied into a workspace.
 * Returns {url, port, tmp, workspace, extensionsDir, installedExtension, log(), serverLog(), stop()};
 * serverLog() is the tvmls output channel as VS Code logged it (with `tvmls.trace.server` set,
 * the LSP messages too), '' before the extension started.
 */
async function startCodeServer({ files = [], extraFiles = {}, settings = {}, name = 'vscode-test', env: extraEnv = {} } = {}) {
  const csDir = codeServerDir();
  const vsix = vsixPath();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `tvmls-${name}-`));
  const userData = path.join(tmp, 'user-data');
  const extensionsDir = path.join(tmp, 'extensions');
  const workspace = path.join(tmp, 'workspace');
  const home = path.join(tmp, 'home');
  for (const d of [userData, extensionsDir, workspace, home, path.join(userData, 'User')]) fs.mkdirSync(d, { recursive: true });
  for (const f of files) fs.copyFileSync(path.join(REPO, f), path.join(workspace, path.basename(f)));
  for (const [rel, { text, mode }] of Object.entries(extraFiles)) {
    fs.writeFileSync(path.join(workspace, rel), text);
    if (mode) fs.chmodSync(path.join(workspace, rel), mode);
  }
  fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify({
    'security.workspace.trust.enabled': false,
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'extensions.autoUpdate': false,
    'extensions.autoCheckUpdates': false,
    'update.mode': 'none',
    'telemetry.telemetryLevel': 'off',
    'editor.hover.delay': 200,
    'editor.minimap.enabled': false,
    'files.autoSave': 'off',
    'chat.commandCenter.enabled': false,
    ...settings,
  }, null, 1));
  const configFile = path.join(tmp, 'code-server.yaml');
  fs.writeFileSync(configFile, 'auth: none\ncert: false\n');
  // code-server writes its config and state under XDG dirs: keep them in the temp dir.
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    ...extraEnv,
  };
  delete env.VSCODE_IPC_HOOK_CLI;
  const entry = path.join(csDir, 'out', 'node', 'entry.js');
  const common = ['--config', configFile, '--user-data-dir', userData, '--extensions-dir', extensionsDir];
  runQuiet(process.execPath, [entry, ...common, '--install-extension', vsix], { env }, 60000);
  const installed = fs.readdirSync(extensionsDir).find((d) => d.startsWith('tvmls.tvmls-'));
  if (!installed) throw new Error(`the .vsix did not install into ${extensionsDir}`);
  const port = await freePort();
  const logFile = path.join(tmp, 'code-server.log');
  const logFd = fs.openSync(logFile, 'a');
  const proc = cp.spawn(process.execPath, [entry, ...common, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
    '--disable-proxy', workspace], { env, stdio: ['ignore', logFd, logFd], detached: true });
  fs.closeSync(logFd);
  let exited = null;
  liveGroups.add(proc.pid);
  proc.on('exit', (code, signal) => { exited = { code, signal }; liveGroups.delete(proc.pid); });
  const url = `http://127.0.0.1:${port}`;
  const log = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '');
  const serverLog = () => {
    // user-data/logs/<session>/exthost<N>/output_logging_<time>/<N>-tvmls.log
    const found = [];
    const walk = (dir, depth) => {
      for (const e of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
        const p = path.join(dir, e.name);
        if (e.isDirectory() && depth < 4) walk(p, depth + 1);
        else if (e.isFile() && /^\d+-tvmls\.log$/.test(e.name)) found.push(p);
      }
    };
    walk(path.join(userData, 'logs'), 0);
    return found.sort().map((f) => fs.readFileSync(f, 'utf8')).join('');
  };
  const stop = async () => {
    if (exited === null && proc.pid) {
      try { process.kill(-proc.pid, 'SIGTERM'); } catch { /* already gone */ }
      const t0 = Date.now();
      while (exited === null && Date.now() - t0 < 5000) await sleep(50);
      if (exited === null) { try { process.kill(-proc.pid, 'SIGKILL'); } catch { /* gone */ } }
    }
    if (!process.env.TVMLS_KEEP_TMP) fs.rmSync(tmp, { recursive: true, force: true });
  };
  try {
    await waitFor('code-server to listen', async () => {
      if (exited) throw new Error(`code-server exited (${JSON.stringify(exited)}):\n${log().slice(-2000)}`);
      return log().includes('HTTP server listening');
    }, 30000, 100);
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, port, tmp, workspace, extensionsDir, installedExtension: path.join(extensionsDir, installed), log, serverLog, stop };
}

async function launchBrowser() {
  const { chromium } = playwright();
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], timeout: 30000 });
}

/** Runs main(); prints the failure and exits 1 on an error (2 for a missing tool). */
function runMain(main) {
  const deadline = setTimeout(() => {
    console.error('FAIL: the test did not finish in time');
    for (const pgid of liveGroups) { try { process.kill(-pgid, 'SIGKILL'); } catch { /* gone */ } }
    process.exit(1);
  }, Number(process.env.TVMLS_TEST_DEADLINE_MS || 150000));
  main().then(() => {
    clearTimeout(deadline);
    process.exit(0);
  }, (e) => {
    console.error(`FAIL: ${e && e.setupProblem ? e.message : (e && e.stack) || e}`);
    process.exit(1);
  });
}

module.exports = { REPO, EXT_DIR, startCodeServer, launchBrowser, waitFor, sleep, runMain, codeServerDir, vsixPath, fail };
