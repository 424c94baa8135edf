import { type ChildProcess, fork } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** A server started by `startServerChild`: its port, its `pro` key, and its own CPU time asked over IPC. */
export interface ServerChild {
  port: number;
  key: string;
  cpuMs(): Promise<number>;
  /** Whether the server process is still running (else its exit code or signal) and its log's last lines. */
  diagnosis(): string;
  stop(): Promise<void>;
}

/**
 * Starts request-overhead-child.ts in `mode` (`api`: the real server over the lake in `env.DATA_DIR`; `bare`: a bare
 * `http.createServer`) in its own process, so that its CPU per request is its own; its stderr (the request log)
 * goes to `logFile`. BENCH_OVERHEAD_PROF=<dir> writes the child's CPU profile there.
 */
export async function startServerChild(mode: 'api' | 'bare', env: Record<string, string>, logFile: string): Promise<ServerChild> {
  const child: ChildProcess = fork(join(here, 'request-overhead-child.ts'), [], {
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_OVERHEAD_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_OVERHEAD_PROF}`] : [])],
    env: { ...process.env, ...env, BENCH_SERVER: mode },
    stdio: ['ignore', 'ignore', openSync(logFile, 'a'), 'ipc'],
  });
  let exit: string | null = null;
  child.once('exit', (code, signal) => {
    exit = signal ?? `code ${code}`;
  });
  // One message awaited at a time; the exit listener goes with it (one per call would pile up over a run's calls).
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`${mode} server exited ${code} (log: ${logFile})`));
      child.once('exit', exited);
      child.once('message', (m) => {
        child.off('exit', exited);
        resolve(m as T);
      });
    });
  const ready = await next<{ port: number; key: string }>();
  return {
    ...ready,
    async cpuMs() {
      const got = next<{ cpu: { user: number; system: number } }>();
      child.send({ op: 'cpu' });
      const { cpu } = await got;
      return (cpu.user + cpu.system) / 1000;
    },
    diagnosis() {
      const log = readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-5).join('\n');
      return `${mode} server ${exit === null ? 'still running' : `exited (${exit})`}; its log ends:\n${log}`;
    },
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ op: 'stop' });
      await exited;
    },
  };
}

/**
 * A keep-alive agent for `sockets` concurrent callers that drops an idle socket before the server does. Node's server
 * closes a keep-alive socket after 5 s idle and says so (`Keep-Alive: timeout=5`), and an agent without a `timeout`
 * of its own ignores that hint, so a request sent on the socket as the server closes it would fail. The benches idle
 * their API socket about that long while they measure raw DuckDB. (Two flatness runs failed with a dropped connection
 * before this; a test of the race did not reproduce it, and a failing call now says whether the server was alive.)
 */
export function keepAliveAgent(sockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: sockets, timeout: 5_000 });
}

/** A GET on a keep-alive socket; resolves with the status and body once the body is read. */
export function httpGet(agent: Agent, port: number, path: string, key: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers: key ? { Authorization: `Bearer ${key}` } : {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
