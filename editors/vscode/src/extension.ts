// The tvmls VS Code extension: starts `tvmls serve` (LSP over stdio) for `tvmscript` documents
// (saved IR dumps) and for TVMScript inside `python` documents, and reports the server's state in
// the status bar. Everything TVM-specific is the server's: this file only finds the binary, passes
// the settings, and makes failures visible (what happened, how to fix it).
import * as cp from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  CloseAction,
  CloseHandlerResult,
  DocumentSelector,
  ErrorAction,
  ErrorHandlerResult,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
  StaticFeature,
  ClientCapabilities,
  FeatureState,
} from 'vscode-languageclient/node';

const SECTION = 'tvmls';
const EXE = process.platform === 'win32' ? 'tvmls.exe' : 'tvmls';
/** Crashes within this window, beyond MAX_RESTARTS, stop the automatic restarts. */
const RESTART_WINDOW_MS = 3 * 60 * 1000;
const MAX_RESTARTS = 4;
const INSTALL_HINT =
  'Set "tvmls.server.path" to the tvmls binary, or build and install it: ' +
  'cmake -S . -B build && cmake --build build && cmake --install build --prefix ~/.local ' +
  '(then ~/.local/bin/tvmls is found on PATH).';

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

/** What the extension returns from activate(): used by its tests, stable enough for scripts. */
export interface TvmlsApi {
  state(): { state: ServerState; detail: string; command?: string; pid?: number };
  /** Every notification the extension showed, oldest first (text only). */
  readonly notifications: string[];
  /** Resolves with the state once the server is running or failed, or after `ms`. */
  whenSettled(ms: number): Promise<ServerState>;
  /** The last lines written to the tvmls output channel (for tests and bug reports). */
  outputTail(): string[];
}

interface Resolved {
  command?: string;
  tried: string[];
  problem?: string;
}

function expandHome(p: string): string {
  if (p === '~') return os.homedir();
  if (p.startsWith('~/')) return path.join(os.homedir(), p.slice(2));
  return p;
}

function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** The server binary: setting tvmls.server.path, then the bundled one, then PATH. */
export function resolveServer(extensionPath: string): Resolved {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  const configured = (cfg.get<string>('server.path') ?? '').trim();
  if (configured) {
    const p = expandHome(configured);
    if (!fs.existsSync(p)) {
      return { tried: [`tvmls.server.path = ${configured}`], problem: `tvmls.server.path points to ${p}, which does not exist.` };
    }
    if (!isExecutable(p)) {
      return { tried: [`tvmls.server.path = ${configured}`], problem: `tvmls.server.path points to ${p}, which is not an executable file.` };
    }
    return { command: p, tried: [`tvmls.server.path = ${configured}`] };
  }
  const bundled = path.join(extensionPath, 'server', `${process.platform}-${process.arch}`, EXE);
  const tried = ['tvmls.server.path (not set)', `bundled ${bundled}`, `${EXE} on PATH`];
  if (isExecutable(bundled)) return { command: bundled, tried };
  const onPath = findOnPath(EXE);
  if (onPath) return { command: onPath, tried };
  return { tried, problem: `No tvmls server binary found (this extension has none bundled for ${process.platform}-${process.arch}, and there is none on PATH).` };
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return `was killed by signal ${signal}`;
  if (code !== null) return `exited with code ${code}`;
  return 'closed its connection';
}

/** Adds the server's custom semantic token types to what the client says it understands. */
class CustomTokenTypes implements StaticFeature {
  fillClientCapabilities(capabilities: ClientCapabilities): void {
    const types = capabilities.textDocument?.semanticTokens?.tokenTypes;
    if (types) {
      for (const t of ['dtype', 'buffer']) if (!types.includes(t)) types.push(t);
    }
  }
  initialize(): void {}
  getState(): FeatureState {
    return { kind: 'static' };
  }
  clear(): void {}
}

/** A LanguageClient whose own notifications go to the output channel only: this extension
 * shows one notification per failure itself, with the exit status and the fix. */
class TvmlsClient extends LanguageClient {
  lastError = '';
  override error(message: string, data?: unknown, _showNotification?: boolean | 'force'): void {
    this.lastError = message;
    super.error(message, data, false);
  }
}

class Controller {
  private client: TvmlsClient | undefined;
  private child: cp.ChildProcess | undefined;
  private lastExit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private stderrTail = '';
  private reachedRunning = false;
  /** Start attempts (doStart and automatic restarts); a failure is reported once per attempt. */
  private attempt = 0;
  private reportedAttempt = -1;
  private stopping = false;
  /** Inside `client.start()`: a crash there is restarted by doStart, not by the client (which
   * rejects its start and cannot restart itself then). */
  private inStart = false;
  private restartAfterStart = false;
  private crashes: number[] = [];
  private current: { state: ServerState; detail: string; command?: string } = { state: 'stopped', detail: 'not started' };
  private settledWaiters: Array<() => void> = [];
  private readonly status: vscode.StatusBarItem;
  readonly output: vscode.OutputChannel;
  readonly notifications: string[] = [];
  private readonly tail: string[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: vscode.ExtensionContext) {
    // The channel is shared with the language client; its last lines are kept for outputTail().
    const channel = vscode.window.createOutputChannel('tvmls');
    const tail = this.tail;
    this.output = new Proxy(channel, {
      get(target, prop) {
        if (prop === 'append' || prop === 'appendLine') {
          return (value: string) => {
            tail.push(value);
            if (tail.length > 300) tail.splice(0, tail.length - 300);
            target[prop](value);
          };
        }
        const v = Reflect.get(target, prop);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    this.status = vscode.window.createStatusBarItem('tvmls.status', vscode.StatusBarAlignment.Right, 100);
    this.status.name = 'tvmls';
    this.status.command = 'tvmls.showOutput';
    ctx.subscriptions.push(this.output, this.status);
    this.status.show();
  }

  api(): TvmlsApi {
    return {
      state: () => ({ ...this.current, pid: this.child?.exitCode === null && this.child?.signalCode === null ? this.child?.pid : undefined }),
      notifications: this.notifications,
      whenSettled: (ms: number) => this.whenSettled(ms),
      outputTail: () => this.tail.slice(),
    };
  }

  private whenSettled(ms: number): Promise<ServerState> {
    const settled = () => this.current.state === 'running' || this.current.state === 'failed';
    if (settled()) return Promise.resolve(this.current.state);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(this.current.state), ms);
      this.settledWaiters.push(() => {
        clearTimeout(timer);
        resolve(this.current.state);
      });
    });
  }

  private setState(state: ServerState, detail: string): void {
    this.current = { state, detail, command: this.current.command };
    const icon = { starting: '$(sync~spin)', running: '$(check)', stopped: '$(circle-slash)', failed: '$(error)' }[state];
    this.status.text = `${icon} tvmls`;
    this.status.tooltip = `tvmls server: ${state}\n${detail}\nClick to show the tvmls output.`;
    this.status.accessibilityInformation = { label: `tvmls server: ${state}. ${detail}` };
    this.status.backgroundColor =
      state === 'failed' ? new vscode.ThemeColor('statusBarItem.errorBackground') :
      state === 'stopped' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.output.appendLine(`[${new Date().toISOString()}] state: ${state}: ${detail}`);
    if (state === 'running' || state === 'failed') {
      const waiters = this.settledWaiters;
      this.settledWaiters = [];
      for (const w of waiters) w();
    }
  }

  private notify(kind: 'error' | 'warning', message: string, ...actions: string[]): void {
    this.notifications.push(message);
    const show = kind === 'error' ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
    void show(message, ...actions).then((choice) => {
      if (choice === 'Restart') void vscode.commands.executeCommand('tvmls.restartServer');
      else if (choice === 'Show Output') this.output.show(true);
      else if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'tvmls.server.path');
    });
  }

  /** Serialises start/stop/restart so that overlapping configuration changes cannot race. */
  private enqueue(op: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(op, op);
    return this.queue;
  }

  start(): Promise<void> {
    return this.enqueue(() => this.doStart());
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.doStop('stopped by request'));
  }

  restart(): Promise<void> {
    return this.enqueue(async () => {
      await this.doStop('restarting');
      this.crashes = [];
      await this.doStart();
    });
  }

  private selector(): DocumentSelector {
    const sel: DocumentSelector = [
      { scheme: 'file', language: 'tvmscript' },
      { scheme: 'untitled', language: 'tvmscript' },
    ];
    if (vscode.workspace.getConfiguration(SECTION).get<boolean>('python.enable', true)) {
      // Python stays `python` (its own language server keeps working); tvmls answers only
      // for files that contain TVMScript and sends no semantic tokens for them.
      sel.push({ scheme: 'file', language: 'python' }, { scheme: 'untitled', language: 'python' });
    }
    return sel;
  }

  private initializationOptions(): Record<string, unknown> {
    const cfg = vscode.workspace.getConfiguration(SECTION);
    return {
      era: cfg.get<string>('era', 'auto'),
      severity: cfg.get<Record<string, string>>('severity', {}),
      assumedUpperBound: cfg.get<number>('assumedUpperBound', 0),
    };
  }

  private spawnServer(command: string, args: string[]): Promise<cp.ChildProcess> {
    return new Promise((resolve, reject) => {
      this.lastExit = undefined;
      this.stderrTail = '';
      const child = cp.spawn(command, ['serve', ...args], { stdio: 'pipe', cwd: path.dirname(command) });
      child.once('error', (err) => {
        this.output.appendLine(`could not start ${command}: ${err.message}`);
        reject(new Error(`could not start ${command}: ${err.message}`));
      });
      child.once('spawn', () => {
        this.child = child;
        this.output.appendLine(`started ${command} serve ${args.join(' ')} (pid ${child.pid})`);
        resolve(child);
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-2000);
      });
      child.once('exit', (code, signal) => {
        this.lastExit = { code, signal };
        if (this.child === child) this.child = undefined;
        this.output.appendLine(`tvmls (pid ${child.pid}) ${describeExit(code, signal)}`);
      });
    });
  }

  /** Waits briefly for the exit status of the server whose connection just closed. */
  private async exitStatus(): Promise<string> {
    for (let i = 0; i < 20 && !this.lastExit; i++) await new Promise((r) => setTimeout(r, 50));
    const e = this.lastExit;
    return e ? describeExit(e.code, e.signal) : 'closed its connection';
  }

  private stderrSummary(): string {
    const lines = this.stderrTail.trim().split('\n').filter((l) => l.trim());
    return lines.length ? ` Last output: ${lines.slice(-2).join(' / ').slice(0, 300)}` : '';
  }

  /** True the first time a failure of the current attempt is reported. */
  private firstReport(): boolean {
    if (this.reportedAttempt === this.attempt) return false;
    this.reportedAttempt = this.attempt;
    return true;
  }

  private async onClosed(): Promise<CloseHandlerResult> {
    if (this.stopping) return { action: CloseAction.DoNotRestart, handled: true };
    const what = await this.exitStatus();
    const command = this.current.command ?? 'tvmls';
    if (!this.reachedRunning) {
      if (!this.firstReport()) return { action: CloseAction.DoNotRestart, handled: true };
      const detail = `The tvmls server (${command}) ${what} while starting.${this.stderrSummary()}`;
      this.setState('failed', detail);
      this.notify('error', `${detail} Check tvmls.server.path and tvmls.server.args.`, 'Restart', 'Show Output', 'Open Settings');
      return { action: CloseAction.DoNotRestart, handled: true };
    }
    const now = Date.now();
    this.crashes = this.crashes.filter((t) => now - t < RESTART_WINDOW_MS);
    this.crashes.push(now);
    if (this.crashes.length > MAX_RESTARTS) {
      const detail = `The tvmls server ${what}; it crashed ${this.crashes.length} times in 3 minutes and will not be restarted automatically.${this.stderrSummary()}`;
      this.setState('failed', detail);
      this.notify('error', `${detail} Use "tvmls: Restart Server" to start it again.`, 'Restart', 'Show Output');
      return { action: CloseAction.DoNotRestart, handled: true };
    }
    const detail = `The tvmls server ${what}; restarting it (restart ${this.crashes.length} of ${MAX_RESTARTS} within 3 minutes).${this.stderrSummary()}`;
    this.reachedRunning = false;
    this.attempt++;
    this.setState('starting', detail);
    this.notify('warning', detail, 'Restart', 'Show Output');
    if (this.inStart) {
      // Died between `initialize` and the end of the client's start: the start fails and the
      // client is disposed; doStart starts a new one.
      this.restartAfterStart = true;
      return { action: CloseAction.DoNotRestart, handled: true };
    }
    return { action: CloseAction.Restart, handled: true };
  }

  private async doStart(): Promise<void> {
    if (this.client) return;
    const resolved = resolveServer(this.ctx.extensionPath);
    if (!resolved.command) {
      const detail = `${resolved.problem} Tried: ${resolved.tried.join('; ')}.`;
      this.current.command = undefined;
      this.setState('failed', `${detail} ${INSTALL_HINT}`);
      this.notify('error', `tvmls: ${detail} ${INSTALL_HINT}`, 'Open Settings', 'Show Output');
      return;
    }
    const cfg = vscode.workspace.getConfiguration(SECTION);
    const args = cfg.get<string[]>('server.args', []);
    const command = resolved.command;
    this.current.command = command;
    this.reachedRunning = false;
    this.attempt++;
    this.setState('starting', `Starting ${command} serve ${args.join(' ')}`.trim());
    const serverOptions: ServerOptions = () => this.spawnServer(command, args);
    const clientOptions: LanguageClientOptions = {
      documentSelector: this.selector(),
      initializationOptions: this.initializationOptions(),
      // Sends workspace/didChangeConfiguration with the `tvmls` section on every change and
      // answers the server's workspace/configuration requests for it.
      // Project configuration files: the server re-analyses open documents when one changes.
      synchronize: {
        configurationSection: SECTION,
        fileEvents: vscode.workspace.createFileSystemWatcher('**/{tvmls.toml,pyproject.toml}'),
      },
      outputChannel: this.output,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationFailedHandler: () => false,
      errorHandler: {
        // A write to a server that just died fails: keep going, the close handler below sees
        // the exit and decides (shutting the client down here would hide the crash).
        error: (): ErrorHandlerResult => ({ action: ErrorAction.Continue, handled: true }),
        closed: () => this.onClosed(),
      },
      middleware: {
        // One provider's semantic tokens win in VS Code: leave Python files to Python's.
        provideDocumentSemanticTokens: (doc, token, next) => (doc.languageId === 'python' ? undefined : next(doc, token)),
        provideDocumentRangeSemanticTokens: (doc, range, token, next) => (doc.languageId === 'python' ? undefined : next(doc, range, token)),
        provideInlayHints: (doc, range, token, next) =>
          vscode.workspace.getConfiguration(SECTION).get<boolean>('inlayHints.enable', true) ? next(doc, range, token) : [],
      },
    };
    const client = new TvmlsClient('tvmls', 'tvmls', serverOptions, clientOptions);
    client.registerFeature(new CustomTokenTypes());
    client.onDidChangeState((e) => {
      if (e.newState === State.Running) {
        this.reachedRunning = true;
        const pid = this.child?.pid;
        this.setState('running', `${command} (pid ${pid ?? '?'})`);
      } else if (e.newState === State.Starting && this.current.state !== 'starting') {
        this.setState('starting', `Starting ${command}`);
      } else if (e.newState === State.Stopped && !this.stopping && this.current.state === 'running') {
        // The client stopped by itself (not through a crash, which onClosed reports).
        this.setState('stopped', `The language client stopped: ${client.lastError || 'no reason given'}. Use "tvmls: Restart Server".`);
      }
    });
    this.client = client;
    this.restartAfterStart = false;
    this.inStart = true;
    try {
      await client.start();
      this.inStart = false;
      if (this.restartAfterStart) await this.restartNewClient();
    } catch (err) {
      this.inStart = false;
      if (this.restartAfterStart) {
        await this.restartNewClient();
      } else if (this.current.state !== 'failed') {
        // A server that dies at once makes the initialize write fail (EPIPE) before its exit
        // status arrives: wait for it briefly, it says more.
        for (let i = 0; i < 20 && !this.lastExit && this.child; i++) await new Promise((r) => setTimeout(r, 50));
        const what = this.lastExit ? `${describeExit(this.lastExit.code, this.lastExit.signal)} while starting` : `failed to start: ${(err as Error).message ?? err}`;
        const detail = `The tvmls server (${command}) ${what}.${this.stderrSummary()}`;
        if (this.firstReport()) {
          this.setState('failed', detail);
          this.notify('error', `${detail} Check tvmls.server.path and tvmls.server.args.`, 'Restart', 'Show Output', 'Open Settings');
        }
      }
      if (this.client === client) await this.disposeClient();
    }
  }

  /** The automatic restart of a server that crashed while its client was starting. */
  private async restartNewClient(): Promise<void> {
    this.restartAfterStart = false;
    await this.disposeClient();
    await this.doStart();
  }

  private async disposeClient(): Promise<void> {
    const client = this.client;
    const child = this.child;
    this.client = undefined;
    if (client) {
      this.stopping = true;
      try {
        if (client.isRunning()) await client.stop(2000);
        else await client.dispose(500).catch(() => undefined);
      } catch (err) {
        this.output.appendLine(`stopping the client: ${(err as Error).message ?? err}`);
      } finally {
        this.stopping = false;
      }
    }
    if (child && child.exitCode === null && child.signalCode === null) {
      // tvmls exits on `exit`; one that does not within a second is killed.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve();
        }, 1000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (this.child === child) this.child = undefined;
  }

  private async doStop(reason: string): Promise<void> {
    await this.disposeClient();
    if (this.current.state !== 'failed' || reason !== 'restarting') this.setState('stopped', reason);
  }
}

let controller: Controller | undefined;

export async function activate(ctx: vscode.ExtensionContext): Promise<TvmlsApi> {
  const c = new Controller(ctx);
  controller = c;
  ctx.subscriptions.push(
    vscode.commands.registerCommand('tvmls.restartServer', () => c.restart()),
    vscode.commands.registerCommand('tvmls.showOutput', () => c.output.show(true)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('tvmls.server.path') || e.affectsConfiguration('tvmls.server.args') || e.affectsConfiguration('tvmls.python.enable')) {
        void c.restart();
      }
    }),
  );
  void c.start();
  return c.api();
}

export async function deactivate(): Promise<void> {
  await controller?.stop();
}
