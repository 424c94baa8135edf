import { execFile, spawn } from 'node:child_process';
import { type Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
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

/** An API server in its own process, started as `npm start` starts it, and how to stop it. */
export interface ApiProcess {
  port: number;
  pid: number;
  /** Stops it as an operator does (SIGTERM: it closes what it holds); resolves with its exit code once it has exited. */
  stop(): Promise<number | null>;
  /** Kills it as a crash does (SIGKILL: nothing closed); resolves when it has exited and is reaped. */
  kill(): Promise<number | null>;
  /** What it has written to stderr so far (its log, at the LOG_LEVEL given). */
  stderr(): string;
}

/** A loopback port free now (for a server whose address must be known before it starts). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/**
 * Starts the real server as `npm start` does (api/main.ts from its bundle, through ingest/cli-launch.cjs) with `env`
 * added, on a free loopback port; resolves once it answers `/healthz`. Its log is silent unless `env` sets LOG_LEVEL,
 * so the port is chosen here rather than read from its "listening" line.
 */
export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['ingest/cli-launch.cjs', 'api'], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  // Polled (the caller's timeout bounds it): a server starting answers nothing, or a refused connection, until it listens.
  for (;;) {
    if (ended()) throw new Error(`API process exited (${child.exitCode ?? child.signalCode}) before it answered: ${stderr.slice(-800)}`);
    const status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    await sleep(50);
  }
  const end = (signal: NodeJS.Signals) =>
    new Promise<number | null>((done) => {
      if (ended()) return done(child.exitCode);
      child.once('exit', (code) => done(code));
      child.kill(signal);
    });
  return { port, pid: child.pid!, stop: () => end('SIGTERM'), kill: () => end('SIGKILL'), stderr: () => stderr };
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
