import { copyFile, mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBundle, readStamp, TARGETS } from '../../ingest/cli-bundle.cjs';
import { commandOutcome as outcome } from '../support/processes.ts';

const DISCOVER = fileURLToPath(new URL('../../ingest/pipeline/discover.ts', import.meta.url));

/** The prebuilt CLIs (ingest/cli-bundle.cjs): built when missing, current until one of their inputs changes. */
describe('cli bundles: built on first use, rebuilt when a source changes', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'cli-bundle-'));
    await writeFile(join(root, 'main.ts'), "import { greeting } from './dep.ts';\nconsole.log(greeting);\n");
    await writeFile(join(root, 'dep.ts'), "export const greeting: string = 'one';\n");
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('builds once, then is current; an edited input or a removed bundle rebuilds it, a touched one does not', async () => {
    const target = { root, entry: 'main.ts', outFile: join(root, 'dist', 'main.cjs') };
    expect((await ensureBundle(target)).built).toBe('no bundle yet');
    expect((await outcome(process.execPath, [target.outFile])).stdout).toBe('one\n');
    expect((await ensureBundle(target)).built).toBeNull();
    expect(Object.keys(readStamp(target)?.inputs ?? {})).toEqual(['dep.ts', 'main.ts']);

    await utimes(join(root, 'dep.ts'), new Date('2030-01-01'), new Date('2030-01-01'));
    expect((await ensureBundle(target)).built).toBeNull();
    expect(readStamp(target)?.inputs['dep.ts']?.mtimeMs).toBe(Date.parse('2030-01-01'));

    await writeFile(join(root, 'dep.ts'), "export const greeting: string = 'two';\n");
    expect((await ensureBundle(target)).built).toBe('dep.ts changed');
    expect((await outcome(process.execPath, [target.outFile])).stdout).toBe('two\n');
    expect((await ensureBundle(target)).built).toBeNull();

    await rm(target.outFile);
    expect((await ensureBundle(target)).built).toBe('no bundle yet');
  });
});

/**
 * A target with a datasets folder (the ingest CLI's): a loader per `<folder>/dataset.ts` is handed to the registry
 * before the entry runs; a folder added or removed after the build rebuilds. A toy root: a registry
 * recording what it was given, an entry printing it at its top level (so the hand-over ran first).
 */
describe('cli bundles: the dataset folders are found at build time, and a change to them rebuilds', () => {
  let root: string;
  const dataset = async (name: string, value: string) => {
    await mkdir(join(root, 'datasets', name), { recursive: true });
    await writeFile(join(root, 'datasets', name, 'dataset.ts'), `export default ${JSON.stringify(value)};\n`);
  };
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'cli-bundle-datasets-'));
    // The toy registry loads what it is given through the real loader (skip and report a module that throws).
    await writeFile(
      join(root, 'registry.ts'),
      `import { loadModules, type ModuleLoader } from ${JSON.stringify(DISCOVER)};\n` +
        'let given: ModuleLoader<string>[] = [];\n' +
        'export function provideDatasetModules(modules: [string, () => Promise<{ default?: string }>][]): void {\n' +
        "  given = modules.map(([dir, load]) => ({ dir, file: 'datasets/' + dir + '/dataset.ts', load }));\n}\n" +
        "export const loaded = async () => (await loadModules(given)).map((m) => m.dir + '=' + m.value);\n",
    );
    await writeFile(join(root, 'main.ts'), "import { loaded } from './registry.ts';\nloaded().then((l) => console.log(l.join(' ')));\n");
    await dataset('b', 'B');
    await dataset('a', 'A');
    await dataset('core', 'not a dataset'); // skipped, as discovery skips it
    await mkdir(join(root, 'datasets', 'notes')); // no dataset.ts: not a dataset
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('imports the folders in order; a dataset folder added or removed rebuilds the bundle', async () => {
    const target = {
      root,
      entry: 'main.ts',
      outFile: join(root, 'dist', 'main.cjs'),
      modules: [{ dir: 'datasets', file: 'dataset.ts', registry: 'registry.ts', provide: 'provideDatasetModules' }],
    };
    const printed = async () => (await outcome(process.execPath, [target.outFile])).stdout;
    expect((await ensureBundle(target)).built).toBe('no bundle yet');
    expect(await printed()).toBe('a=A b=B\n');
    expect((await ensureBundle(target)).built).toBeNull();
    expect(readStamp(target)?.folders).toEqual({ datasets: ['a', 'b'] });
    // Besides the toy files, the real loader the toy registry imports (a path outside the root).
    const inputs = Object.keys(readStamp(target)?.inputs ?? {});
    expect(inputs.filter((f) => !f.endsWith('/ingest/pipeline/discover.ts'))).toEqual([
      'datasets/a/dataset.ts',
      'datasets/b/dataset.ts',
      'main.ts',
      'registry.ts',
    ]);
    expect(inputs).toHaveLength(5);

    await dataset('c', 'C');
    expect((await ensureBundle(target)).built).toBe('the folders of datasets changed (+c)');
    expect(await printed()).toBe('a=A b=B c=C\n');
    // A dataset that throws while it loads is skipped and reported; the others still load (they used to be imported
    // statically, so one such module stopped the whole bundled CLI before it started).
    await mkdir(join(root, 'datasets', 'd'));
    await writeFile(join(root, 'datasets', 'd', 'dataset.ts'), "throw new Error('d is broken');\n");
    expect((await ensureBundle(target)).built).toBe('the folders of datasets changed (+d)');
    const withBroken = await outcome(process.execPath, [target.outFile], { env: { LOG_LEVEL: 'info' } });
    expect(withBroken).toEqual({ code: 0, stdout: 'a=A b=B c=C\n', stderr: '[discover] skipped datasets/d/dataset.ts: d is broken\n' });
    await rm(join(root, 'datasets', 'd'), { recursive: true });
    await rm(join(root, 'datasets', 'a'), { recursive: true });
    expect((await ensureBundle(target)).built).toBe('the folders of datasets changed (-a, -d)');
    expect(await printed()).toBe('b=B c=C\n');
    expect((await ensureBundle(target)).built).toBeNull();
  });
});

/** `npm run ingest` through its bundle lists what the sources list through tsx (a real ingest: ingest-cli.test.ts). */
describe('ingest bundle: the same CLI as the sources', () => {
  it('is current on a second call, and `--list` prints the same as through tsx', async () => {
    await ensureBundle(TARGETS.ingest);
    expect((await ensureBundle(TARGETS.ingest)).built).toBeNull();
    const bundled = await outcome(process.execPath, ['ingest/cli-launch.cjs', 'ingest', '--list']);
    const viaTsx = await outcome(process.execPath, ['--import', 'tsx', 'ingest/cli.ts', '--list']);
    expect(bundled).toEqual({ code: 0, stdout: viaTsx.stdout, stderr: '' });
    expect(viaTsx.code).toBe(0);
    expect(bundled.stdout).toMatch(/^ {2}13f +/m);
    expect(readStamp(TARGETS.ingest)?.folders?.['ingest/datasets']).toContain('whistleblower');
  });
});

/**
 * Where the bundle cannot be built (esbuild is a development dependency: an install without them has none), the
 * launcher says so on stderr and runs the sources through tsx: the same arguments, output and exit code. A copy of the
 * launcher and the bundler in a folder with no node_modules above it cannot load esbuild, as such an install.
 */
describe('cli launcher: without esbuild, the sources through tsx', () => {
  it('runs the entry with its arguments and exit code, after one line on stderr, and passes the stop signals on', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cli-launch-no-esbuild-'));
    try {
      await mkdir(join(root, 'ingest'));
      for (const file of ['cli-launch.cjs', 'cli-bundle.cjs']) await copyFile(join('ingest', file), join(root, 'ingest', file));
      await writeFile(
        join(root, 'ingest', 'sql-cli.ts'),
        'const args: string[] = process.argv.slice(2);\nconsole.log(JSON.stringify(args));\nprocess.exitCode = 3;\n',
      );
      const run = await outcome(process.execPath, [join(root, 'ingest', 'cli-launch.cjs'), 'sql', 'SELECT 1', '--json']);
      expect(run.code).toBe(3);
      expect(run.stdout).toBe('["SELECT 1","--json"]\n');
      expect(run.stderr).toMatch(/^sql: could not build the bundle \(Cannot find module 'esbuild'.*\); running the sources through tsx\n$/);

      // A server stopped through the launcher stops gracefully: the launcher passes SIGTERM on and exits with its code.
      await writeFile(
        join(root, 'ingest', 'sql-cli.ts'),
        "const timer = setInterval(() => {}, 1000);\nprocess.on('SIGTERM', () => { clearInterval(timer); console.log('stopped'); });\nconsole.log('ready');\n",
      );
      const child = spawn(process.execPath, [join(root, 'ingest', 'cli-launch.cjs'), 'sql'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      await new Promise<void>((ready) =>
        child.stdout.on('data', (c) => {
          stdout += c;
          if (stdout.includes('ready')) ready();
        }),
      );
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stdout).toBe('ready\nstopped\n');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
