import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { type Agent, request } from 'node:http';
import { promisify } from 'node:util';

/** How a command ended: a non-zero exit is an outcome, not a throw. */
export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** A command's environment: ours with `env` added, LOG_LEVEL=silent unless given. */
const commandEnv = (env: Record<string, string> = {}) => ({ ...process.env, LOG_LEVEL: 'silent', ...env });

/** Runs a command to its exit with `env` added (LOG_LEVEL=silent unless given), `input` fed on stdin. */
export async function commandOutcome(cmd: string, args: string[], opts: { env?: Record<string, string>; input?: string } = {}): Promise<Outcome> {
  const child = promisify(execFile)(cmd, args, { env: commandEnv(opts.env) });
  if (opts.input !== undefined) child.child.stdin?.end(opts.input);
  return child.then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

/**
 * Runs a command whose reader is gone before it writes (`… | head` once head has its lines): its stdout pipe is
 * closed at once, so every write it makes fails with EPIPE. Its exit code and stderr.
 */
export function outcomeWithoutReader(cmd: string, args: string[], opts: { env?: Record<string, string> } = {}): Promise<Omit<Outcome, 'stdout'>> {
  const child = spawn(cmd, args, { env: commandEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, stderr }));
  });
}

/** An API server in its own process (test/platform/scale-out-child.ts), and how to stop it. */
export interface ApiProcess {
  port: number;
  pid: number;
  /** Stops it as an operator does (SIGTERM: it closes what it holds); resolves when it has exited. */
  stop(): Promise<void>;
  /** Kills it as a crash does (SIGKILL: nothing closed); resolves when it has exited and is reaped. */
  kill(): Promise<void>;
  /** What it has written to stderr so far (its log, at the LOG_LEVEL given). */
  stderr(): string;
}

/** Starts the real server in a child process with `env` added; resolves once it listens. */
export function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'test/platform/scale-out-child.ts'], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c) => (stderr += c));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c) => {
      out += c;
      const line = out.split('\n').find((l) => l.startsWith('{"port"'));
      if (!line) return;
      const { port } = JSON.parse(line) as { port: number };
      const end = (signal: NodeJS.Signals) =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once('exit', () => done());
          child.kill(signal);
        });
      resolve({ port, pid: child.pid!, stop: () => end('SIGTERM'), kill: () => end('SIGKILL'), stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`API process exited (${code}) before listening: ${stderr.slice(-800)}`)));
  });
}

/** GETs `path` from a loopback port through `agent` (bounded sockets); resolves to the status. */
export function getStatus(agent: Agent, port: number, path: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}
