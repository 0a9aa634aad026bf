#!/usr/bin/env node
// `npm run package`: bundles the extension, copies the tvmls server binary into
// server/<platform>-<arch>/tvmls and builds the platform .vsix
// (tvmls-<target>-<version>.vsix in this folder) with vsce.
// The binary comes from $TVMLS_BINARY, default ../../build/tvmls (the CMake build tree).
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const binary = path.resolve(root, process.env.TVMLS_BINARY || '../../build/tvmls');

function fail(message) {
  console.error(`package: ${message}`);
  process.exit(1);
}

if (!fs.existsSync(binary)) {
  fail(`the tvmls server binary ${binary} does not exist. Build it first ` +
    '(cmake -S . -B build && cmake --build build, in the repository root), ' +
    'or set TVMLS_BINARY=/path/to/tvmls.');
}
try {
  fs.accessSync(binary, fs.constants.X_OK);
} catch {
  fail(`${binary} is not executable`);
}

// vsce's names for the platforms VS Code runs on.
const platform = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[process.platform];
const arch = { x64: 'x64', arm64: 'arm64', arm: 'armhf' }[process.arch];
if (!platform || !arch) fail(`unsupported platform ${process.platform}-${process.arch}`);
const target = `${platform}-${arch}`;
// The extension looks the binary up under process.platform-process.arch.
const serverDir = path.join(root, 'server', `${process.platform}-${process.arch}`);
fs.rmSync(path.join(root, 'server'), { recursive: true, force: true });
fs.mkdirSync(serverDir, { recursive: true });
const exe = process.platform === 'win32' ? 'tvmls.exe' : 'tvmls';
fs.copyFileSync(binary, path.join(serverDir, exe));
fs.chmodSync(path.join(serverDir, exe), 0o755);
// A debug-info build is ~45 MB; the shipped copy is stripped (2-3 MB) unless TVMLS_STRIP=0.
if (process.env.TVMLS_STRIP !== '0' && process.platform !== 'win32') {
  try {
    execFileSync('strip', ['--strip-unneeded', path.join(serverDir, exe)], { stdio: 'ignore' });
  } catch {
    console.warn('package: `strip` failed or is missing (binutils); the server binary is packaged unstripped');
  }
}

const out = path.join(root, `tvmls-${target}-${pkg.version}.vsix`);
const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
if (!fs.existsSync(vsce)) fail('vsce is not installed: run `npm ci` in editors/vscode first');
// vsce runs the vscode:prepublish script (the esbuild bundle) itself.
execFileSync(process.execPath, [vsce, 'package', '--target', target, '--no-dependencies', '--out', out],
  { cwd: root, stdio: 'inherit' });
console.log(`package: ${out}`);
