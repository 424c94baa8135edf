import { type ChildProcess, fork } from 'node:child_process';
import { openSync } from 'node:fs';
import { type Agent, request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** A server started by `startServerChild`: its port, its `pro` key, and its own CPU time asked over IPC. */
export interface ServerChild {
  port: number;
  key: string;
  cpuMs(): Promise<number>;
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
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ op: 'stop' });
      await exited;
    },
  };
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
