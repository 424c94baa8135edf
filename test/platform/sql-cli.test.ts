import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import whistleblower from '../../ingest/datasets/whistleblower/dataset.ts';
import { runIngest } from '../../ingest/pipeline/runner.ts';
import { ensureBundle, readStamp, TARGETS } from '../../ingest/cli-bundle.cjs';
import { loadSettings } from '../../schemas/settings.ts';
import { commandOutcome as outcome, outcomeWithoutReader } from '../support/processes.ts';

/**
 * The prebuilt bundle behind `npm run sql` (ingest/cli-bundle.cjs; how a bundle is built and kept current:
 * cli-bundle.test.ts) is free of packages the CLI does not need (zod, Express: their load is most of a cold start).
 */
describe('sql bundle: only the DuckDB binding', () => {
  it('the sql CLI bundle requires the DuckDB binding and no other package (no zod, no Express)', async () => {
    await ensureBundle(TARGETS.sql);
    const stamp = readStamp(TARGETS.sql);
    expect(stamp?.packages).toEqual(['@duckdb/node-api']);
    expect(Object.keys(stamp?.inputs ?? {})).toContain('ingest/lake/sql-session.ts');
    expect(Object.keys(stamp?.inputs ?? {})).not.toContain('schemas/settings.ts');
  });
});

/**
 * `npm run sql` end to end on a lake holding the whistleblower sample: the launcher (what the npm script runs),
 * output formats, refusals, `--out`, `--tables` and the prompt fed on stdin.
 */
describe('npm run sql: answers, refusals and files through the bundle', () => {
  let dataDir: string;
  let rows: number;
  const sql = (args: string[], input?: string) => outcome(process.execPath, ['ingest/cli-launch.cjs', 'sql', ...args], { env: { DATA_DIR: dataDir }, input });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sql-cli-'));
    const settings = loadSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const samples = join(dataDir, 'samples', 'whistleblower');
    await whistleblower.sample?.(samples, { seed: 42, scale: 1 });
    rows = (await runIngest(whistleblower, { from: samples }, settings, { quiet: true })).rowsWritten;
    expect(rows).toBeGreaterThan(0);
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('answers a query over a lake view in CSV, and the npm script runs the same launcher', async () => {
    const r = await sql(['--format', 'csv', 'SELECT count(*) AS n FROM whistleblower_orders']);
    expect(r).toMatchObject({ code: 0, stdout: `n\n${rows}\n` });
    const viaNpm = await outcome('npm', ['run', '-s', 'sql', '--', '--format', 'json', 'SELECT 41 + 1 AS answer'], { env: { DATA_DIR: dataDir } });
    expect(viaNpm.code).toBe(0);
    expect(JSON.parse(viaNpm.stdout)).toEqual([{ answer: 42 }]);
  });

  it('refuses COPY before it runs (exit 1), and --out inside the data folder', async () => {
    const copy = await sql([`COPY (SELECT 1) TO '${join(dataDir, 'lake', 'x.csv')}'`]);
    expect(copy.code).toBe(1);
    expect(copy.stderr).toContain('COPY is refused');
    const inside = await sql(['--out', join(dataDir, 'out.csv'), 'SELECT 1 AS one']);
    expect(inside.code).toBe(1);
    expect(inside.stderr).toContain('refused inside the data folder');
  });

  it('--out writes the result outside the data folder; --tables lists every table', async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'sql-out-'));
    try {
      const file = join(outDir, 'orders.csv');
      const r = await sql(['--out', file, 'SELECT award_order_no FROM whistleblower_orders ORDER BY 1']);
      expect(r).toMatchObject({ code: 0, stdout: `${rows} rows written to ${file}\n` });
      expect((await readFile(file, 'utf8')).split('\n')[0]).toBe('award_order_no');
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
    const tables = await sql(['--tables']);
    expect(tables.code).toBe(0);
    expect(tables.stdout).toMatch(/^whistleblower_orders\s+SEC whistleblower/m);
  });

  it('a reader gone before the output (`| head`) ends nothing early: no stack trace, the command finishes', async () => {
    const launch = (args: string[]) => outcomeWithoutReader(process.execPath, ['ingest/cli-launch.cjs', ...args], { env: { DATA_DIR: dataDir } });
    // From the sources (tsx: the launcher's fallback), before the CLIs took EPIPE: exit 1 and the stack trace of an
    // unhandled 'error' event on stdout.
    const fromSources = (cli: string, args: string[]) =>
      outcomeWithoutReader(process.execPath, ['--import', 'tsx', `ingest/${cli}`, ...args], { env: { DATA_DIR: dataDir } });
    expect(await fromSources('cli.ts', ['--list'])).toEqual({ code: 0, stderr: '' });
    expect(await fromSources('sql-cli.ts', ['--format', 'csv', 'SELECT range AS n FROM range(100000)'])).toEqual({ code: 0, stderr: '' });
    expect(await launch(['sql', '--format', 'csv', 'SELECT range AS n FROM range(100000)'])).toEqual({ code: 0, stderr: '' });
    expect(await launch(['ingest', '--list'])).toEqual({ code: 0, stderr: '' });
    const outDir = await mkdtemp(join(tmpdir(), 'sql-out-'));
    try {
      const file = join(outDir, 'orders.csv');
      expect(await launch(['sql', '--out', file, 'SELECT award_order_no FROM whistleblower_orders'])).toEqual({ code: 0, stderr: '' });
      expect((await readFile(file, 'utf8')).trim().split('\n')).toHaveLength(rows + 1);
      // A refusal keeps its own exit code.
      expect((await launch(['sql', `COPY (SELECT 1) TO '${join(outDir, 'x.csv')}'`])).code).toBe(1);
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  });

  it('without a query reads statements from stdin (the prompt, piped)', async () => {
    const r = await sql(['--format', 'csv'], 'SELECT 6 * 7 AS answer;\nSELECT count(*) AS n\n  FROM whistleblower_orders;\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('answer\n42');
    expect(r.stdout).toContain(`n\n${rows}`);
  });
});
