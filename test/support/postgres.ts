import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** A throw-away PostgreSQL cluster on a unix socket in a temp folder (no TCP port, nothing outside the machine). */
export interface TestPostgres {
  /** A fresh, empty database of the cluster; returns its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** The folder holding initdb and pg_ctl: on PATH, else the newest /usr/lib/postgresql/<version>/bin (Debian's layout). */
function findBinDir(): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : null;
}

/**
 * PostgreSQL refuses to run as root: as root, the cluster runs as the `postgres` system user (the package creates it)
 * through runuser; as anyone else, as the current user.
 */
function asUser(): { uid: number; gid: number; wrap: (cmd: string, args: string[]) => [string, string[]] } | null {
  if (process.getuid?.() !== 0) return null;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid, wrap: (cmd, args) => ['runuser', ['-u', 'postgres', '--', cmd, ...args]] };
}

/**
 * Starts a cluster for one test file (initdb, then pg_ctl start; about 2 s), or returns why it cannot, for the test
 * to skip loudly. fsync off: the cluster is thrown away, durability is not under test.
 */
export async function startTestPostgres(): Promise<TestPostgres | { skipped: string }> {
  const bin = findBinDir();
  if (!bin) return { skipped: 'PostgreSQL binaries (initdb, pg_ctl) not found: `make test` installs the postgresql package' };
  let user: ReturnType<typeof asUser>;
  try {
    user = asUser();
  } catch {
    return { skipped: 'running as root and no `postgres` system user to run PostgreSQL as' };
  }
  const dir = await mkdtemp(join(tmpdir(), 'filings-pg-'));
  const data = join(dir, 'data');
  if (user) await chown(dir, user.uid, user.gid);
  const exec = (cmd: string, args: string[]) => {
    const [c, a] = user ? user.wrap(join(bin, cmd), args) : [join(bin, cmd), args];
    return run(c, a, { timeout: 60_000 });
  };
  const options = [`-k ${dir}`, "-c listen_addresses=''", '-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'];
  options.push('-c max_connections=200', '-c shared_buffers=32MB');
  const stopCluster = () => exec('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined);
  try {
    await exec('initdb', ['-D', data, '-U', 'filings', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
    await exec('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-o', options.join(' '), 'start']);
  } catch (err) {
    await stopCluster();
    await rm(dir, { recursive: true, force: true });
    return { skipped: `PostgreSQL did not start: ${(err as Error).message.split('\n').slice(0, 3).join(' ')}` };
  }
  // A test run killed midway must not leave a server behind.
  const onExit = () => {
    try {
      const [c, a] = user
        ? user.wrap(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop'])
        : [join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']];
      execFileSync(c, a, { stdio: 'ignore' });
    } catch {
      /* already stopped */
    }
  };
  process.once('exit', onExit);
  const url = (db: string) => `postgres://filings@${encodeURIComponent(dir)}/${db}`;
  return {
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`test database name ${name}: lowercase letters, digits and _ only`);
      const admin = new pg.Client({ connectionString: url('postgres') });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${name}`);
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
    async stop() {
      process.removeListener('exit', onExit);
      await stopCluster();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
