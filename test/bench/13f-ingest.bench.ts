import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDuck, queryRows, sqlString } from '../../ingest/lake/duck.ts';
import { write13fWindows, SAMPLE_PREVIOUS_WINDOW, SAMPLE_WINDOW } from '../../ingest/datasets/13f/sample.ts';
import { bareCopyInChild, ingestInChild, ingestTargetFigures, ratio, type BenchResult } from './support.ts';
import { holdings13f, holdings13fByManager } from '../../schemas/tables/13f.ts';

/**
 * 13F ingest of one data set window against the bare engine on the same INFOTABLE file: DuckDB's `read_csv`
 * straight into a zstd Parquet file (`bare-copy-child.ts`, its own process, the ingest's 2 threads). Both figures
 * come from the same run: CPU time (all threads) and peak RSS of each process. The ingest's CPU is the whole CLI
 * process (Node start and module loading of the prebuilt bundle included); the baseline's is the COPY alone, so the ratio is the strict one.
 * BENCH_SCALE=1: ≈300k lines; BENCH_SCALE=10: the issue's ≈3M-line quarter (BENCH_SCALE=3.4: ≈1M).
 */
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
/** Distinct securities held (BENCH_13F_SECURITIES): ≈ the SEC's list of 13(f) securities (docs/formats/04-form-13f.md). */
const BENCH_SECURITIES = Number(process.env.BENCH_13F_SECURITIES ?? 24_000);

export async function ingest13fBench(root: string, scale = SCALE): Promise<BenchResult[]> {
  const src = join(root, 'src');
  // A real quarter's breadth of securities (the issuer lookups, the CUSIP summaries and top tables grow with it).
  // Both windows: the quarter before is ingested second, which diffs the two quarters (the events step).
  await write13fWindows(src, { seed: 11, scale: Math.round(15 * scale) }, ['current', 'previous'], BENCH_SECURITIES);
  const infotable = join(src, SAMPLE_WINDOW, 'INFOTABLE.tsv');
  const { conn, instance } = await openDuck();
  const [{ n }] = await queryRows(
    conn,
    `SELECT count(*)::BIGINT AS n FROM read_csv(${sqlString(infotable)}, delim='\t', header=true, quote='', all_varchar=true)`,
  );
  conn.closeSync();
  instance.closeSync();
  const rows = Number(n);
  const bare = await bareCopyInChild([[infotable, join(root, 'baseline.parquet')]]);
  const run = await ingestInChild(['13f', '--from', join(src, SAMPLE_WINDOW)], { DATA_DIR: join(root, 'data') });
  const cpuRatio = ratio(run.cpuMs, bare.cpuMs);
  // The quarter before, into the same lake: a late quarter's ingest diffs it against the next one (the same pair a
  // new quarter's ingest diffs), so this run's events step drafts a real quarter pair's events (docs/events.md).
  const second = await ingestInChild(['13f', '--from', join(src, SAMPLE_PREVIOUS_WINDOW)], { DATA_DIR: join(root, 'data') });
  const events = Number(second.stdout.match(/events: (\d+) new/)?.[1] ?? NaN);
  const mb = (await stat(infotable)).size / 1e6;
  // The lines' four outputs (two sorted Parquet files, a serving copy of each with its lookup and top tables): the
  // steps writing the two holdings tables. What they cost against the bare COPY bounds the whole run's ratio from below.
  const lineOutputsMs = [holdings13f, holdings13fByManager].reduce((a, t) => a + (run.stepCpuMs.get(`writing ${t.name}`) ?? NaN), 0);
  const readMs = ['checking inputs are whole', 'reading inputs', 'staging rows', 'checking primary keys'].reduce((a, s) => a + (run.stepCpuMs.get(s) ?? 0), 0);
  return [
    {
      name: `13f: ingest data set window (${rows.toLocaleString('en-US')} INFOTABLE lines, ${mb.toFixed(0)} MB)`,
      figures: {
        cpu_s: Math.round(run.cpuMs / 100) / 10,
        bare_copy_cpu_s: Math.round(bare.cpuMs / 100) / 10,
        cpu_ratio: cpuRatio,
        // Where the CPU goes (steps of the run's summary): reading and resolving the lines into staging; writing the
        // lines' four outputs, alone already this many times the bare COPY; the rest is Node's start, the small
        // tables, the commit.
        read_resolve_stage_cpu_s: Math.round(readMs / 100) / 10,
        line_outputs_cpu_s: Math.round(lineOutputsMs / 100) / 10,
        line_outputs_vs_bare_copy: Math.round((lineOutputsMs / bare.cpuMs) * 100) / 100,
        peak_rss_mb: run.peakRssMb,
        bare_copy_peak_rss_mb: bare.peakRssMb,
        // Issue #20 item 3's targets and whether this run holds them; earlier rounds' ratios are in docs/13f-funds.md.
        ...ingestTargetFigures(cpuRatio, run.peakRssMb),
        wall_s: Math.round(run.ms / 100) / 10,
        rows_per_s: Math.round(rows / (run.ms / 1000)),
      },
    },
    {
      name: '13f: the quarter before, ingested second (its events step diffs the two quarters)',
      figures: {
        events,
        cpu_s: Math.round(second.cpuMs / 100) / 10,
        events_step_cpu_s: Math.round((second.stepCpuMs.get('writing events') ?? NaN) / 100) / 10,
        // The whole process, the events step included: bounded by the same limit as the ingest (docs/events.md).
        peak_rss_mb: second.peakRssMb,
        bare_copy_peak_rss_mb: bare.peakRssMb,
        ...ingestTargetFigures(null, second.peakRssMb),
      },
    },
  ];
}

export default async function (): Promise<BenchResult[]> {
  const root = await mkdtemp(join(tmpdir(), 'bench-13f-ingest-'));
  try {
    return await ingest13fBench(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
