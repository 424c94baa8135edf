import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { appendFile, chmod, chown, mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

/**
 * A throw-away PostgreSQL cluster for the peer bench: the system's binaries (installed with apt-get when missing),
 * `initdb` into a temp folder, a postmaster on a free loopback port (its unix socket in the same folder, never
 * /var/run), and `stop()` that shuts it down and deletes the folder. Postgres refuses to run as root, so as root
 * every server command runs as the `postgres` system user (created by the package) through `runuser`.
 */
export interface PgCluster {
  host: string;
  port: number;
  user: string;
  /** The server's major version and binaries folder, for the printed figures. */
  version: string;
  /** Shuts the server down and removes its folder; safe to call twice. */
  stop(): Promise<void>;
  /** The same at once and synchronously (immediate shutdown), for a signal handler that exits right after. */
  killNow(): void;
}

const SERVER_USER = 'postgres';
const BENCH_ROLE = 'bench';

/** The folder holding initdb, pg_ctl and postgres: on PATH (a source build), else Debian's versioned folders, newest first. */
function findBinDir(): string | null {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  const candidates = onPath ? [dirname(onPath)] : [];
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(debian, v, 'bin')));
  }
  return candidates.find((d) => ['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(join(d, b)))) ?? null;
}

/** `apt-get install postgresql` (through sudo when not root); throws with the reason when it cannot. */
function installFromSystemPackages(): void {
  const asRoot = process.getuid?.() === 0;
  const sudo = asRoot ? [] : ['sudo', '-n'];
  process.stdout.write('  peer: PostgreSQL binaries not found; installing the system package (apt-get install postgresql)\n');
  for (const args of [
    ['apt-get', 'update', '-qq'],
    ['apt-get', 'install', '-y', '-qq', 'postgresql'],
  ]) {
    const cmd = [...sudo, ...args];
    const r = spawnSync(cmd[0], cmd.slice(1), { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.status !== 0) throw new Error(`\`${cmd.join(' ')}\` failed (exit ${r.status}): install PostgreSQL 12 or newer and rerun`);
  }
}

function locateOrInstall(): string {
  const found = findBinDir();
  if (found) return found;
  installFromSystemPackages();
  const after = findBinDir();
  if (!after) throw new Error('apt-get installed postgresql but initdb/pg_ctl/postgres are still not found');
  return after;
}

/** Runs a server binary, as the `postgres` user when this process is root; returns its stdout, throws with its stderr. */
function serverCommand(asUser: string | null, bin: string, args: string[]): string {
  const [cmd, argv] = wrap(asUser, bin, args);
  try {
    return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${bin} ${args.join(' ')}: ${e.stderr || e.stdout || e.message}`);
  }
}

function idOf(user: string, flag: '-u' | '-g'): number {
  const r = spawnSync('id', [flag, user], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`running as root, and there is no \`${user}\` system user to run PostgreSQL as (the postgresql package creates it)`);
  return Number(r.stdout.trim());
}

async function freeLoopbackPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/**
 * Starts a cluster under `root` (which must be a fresh temp folder: it is made world-traversable so the server user
 * can reach the data folder and files handed to COPY). `settings` are appended to postgresql.conf.
 */
export async function startThrowawayCluster(root: string, settings: Record<string, string>): Promise<PgCluster> {
  const bin = locateOrInstall();
  const asUser = process.getuid?.() === 0 ? SERVER_USER : null;
  const dataDir = join(root, 'pgdata');
  await chmod(root, 0o755);
  await mkdir(dataDir, { mode: 0o700 });
  if (asUser) await chown(dataDir, idOf(asUser, '-u'), idOf(asUser, '-g'));
  const version = serverCommand(asUser, join(bin, 'postgres'), ['--version']).trim();
  // Trust auth is safe here: the server listens on loopback only and lives for one bench run.
  serverCommand(asUser, join(bin, 'initdb'), ['-D', dataDir, '-U', BENCH_ROLE, '--auth=trust', '--no-locale', '-E', 'UTF8', '--no-sync']);
  const port = await freeLoopbackPort();
  const conf = { listen_addresses: "'127.0.0.1'", port: String(port), unix_socket_directories: `'${dataDir}'`, ...settings };
  await appendFile(
    join(dataDir, 'postgresql.conf'),
    `\n${Object.entries(conf)
      .map(([k, v]) => `${k} = ${v}`)
      .join('\n')}\n`,
  );

  let running = false;
  const killNow = (): void => {
    if (running) spawnSync(...wrap(asUser, join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']), { stdio: 'ignore' });
    running = false;
    rmSync(dataDir, { recursive: true, force: true });
  };
  // Running from the attempt on: a start that timed out may still leave a postmaster behind.
  running = true;
  try {
    serverCommand(asUser, join(bin, 'pg_ctl'), ['-D', dataDir, '-l', join(dataDir, 'server.log'), '-w', '-t', '60', 'start']);
  } catch (err) {
    killNow();
    throw err;
  }
  return {
    host: '127.0.0.1',
    port,
    user: BENCH_ROLE,
    version: `${version} (${bin})`,
    async stop() {
      try {
        if (running) serverCommand(asUser, join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
        running = false;
      } finally {
        killNow();
      }
    },
    killNow,
  };
}

function wrap(asUser: string | null, bin: string, args: string[]): [string, string[]] {
  return asUser ? ['runuser', ['-u', asUser, '--', bin, ...args]] : [bin, args];
}
