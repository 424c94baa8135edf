import { parseArgs } from 'node:util';
import { loadIngesters } from './pipeline/registry.ts';
import { runIngest } from './pipeline/runner.ts';
import { IngestRefused } from './pipeline/validate.ts';
import { loadSettings } from '../schemas/settings.ts';
import { dropOutputOnceReaderGone } from './cli-stdout.ts';

/**
 * `npm run ingest -- <dataset> [--period 2024Q3 | --date YYYY-MM-DD] [--from <dir|file> [--accession <acc>]] [--force]`, `--list`.
 * Exit codes: 0 written, 1 failed, 2 usage, 3 refused by validation (the lake left as it was; `--force` overrides).
 *
 * `npm run ingest` runs this file bundled (ingest/cli-launch.cjs → dist/ingest.cjs, ingest/cli-bundle.cjs), so it has
 * no top-level await (the bundle is CommonJS).
 */
dropOutputOnceReaderGone();
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    list: { type: 'boolean' },
    period: { type: 'string' },
    date: { type: 'string' },
    from: { type: 'string' },
    accession: { type: 'string' },
    quiet: { type: 'boolean' },
    force: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<number> {
  const ingesters = await loadIngesters();
  if (values.list || values.help || positionals.length === 0) {
    console.log(
      'usage: npm run ingest -- <dataset> [--period 2024Q3] [--date YYYY-MM-DD] [--from <dir|file>] [--accession cik/acc,…] [--force]\n' +
        '  --accession with --from <one filing>: the accession of a bare document whose file name has none (insider, ownership, form144, raises)\n' +
        '  --from files with another extension are read by content (a .raw full submission) or listed as skipped\n\ndatasets:',
    );
    for (const d of ingesters) {
      console.log(`  ${d.name.padEnd(24)} ${d.description}`);
      const after = d.dependsOn.length ? `; run after: ${d.dependsOn.join(', ')}` : '';
      console.log(`  ${''.padEnd(24)} tables: ${d.tables.map((t) => t.name).join(', ')}${after}; args: ${d.argsHelp}`);
    }
    return values.list || values.help ? 0 : 2;
  }
  if (values.period && !/^\d{4}Q[1-4]$/.test(values.period)) {
    console.error(`--period must look like 2024Q3 (got '${values.period}')`);
    return 2;
  }
  if (values.date && !/^\d{4}-\d{2}-\d{2}$/.test(values.date)) {
    console.error(`--date must be YYYY-MM-DD (got '${values.date}')`);
    return 2;
  }
  const settings = loadSettings();
  let failed = 0;
  let refused = 0;
  for (const name of positionals) {
    try {
      const s = await runIngest(name, { period: values.period, date: values.date, from: values.from, accession: values.accession }, settings, {
        quiet: values.quiet,
        force: values.force,
      });
      console.log(
        `${s.dataset}: ${s.rowsWritten.toLocaleString('en-US')} rows written ` +
          `in ${(s.elapsedMs / 1000).toFixed(1)} s (${s.rowsPerSecond.toLocaleString('en-US')} rows/s)`,
      );
      for (const t of s.tables) console.log(`  ${t.table}: ${t.partitions.map((p) => `${p.value} (${p.rows.toLocaleString('en-US')} rows)`).join(', ')}`);
      if (s.rederived.length) console.log(`  re-derived from the raw cache: ${s.rederived.join(', ')}`);
      if (s.badRows) {
        console.log(`  ${s.badRows} bad row(s) skipped:`);
        for (const b of s.badRowSamples.slice(0, 20)) console.log(`    ${b.file}${b.line != null ? `:${b.line}` : ''}: ${b.reason}`);
        if (s.badRows > 20) console.log(`    … and ${s.badRows - 20} more (see _catalog.json last_run)`);
      }
      if (s.events.handlers) console.log(`  events: ${s.events.appended} new of ${s.events.drafted} drafted`);
      for (const r of s.forced) console.log(`  replaced despite (--force): ${r}`);
      console.log(`  time by step (wall / CPU of all threads): ${s.steps.map((t) => `${t.name} ${seconds(t.ms)} / ${seconds(t.cpuMs)}`).join(', ')}`);
      // Benches read each step's CPU from these lines (test/bench/support.ts).
      if (process.env.REPORT_PEAK_RSS === '1') for (const t of s.steps) console.log(`step_cpu_ms[${t.name}]=${Math.round(t.cpuMs)}`);
    } catch (err) {
      if (err instanceof IngestRefused) {
        refused++;
        console.error(err.message);
        continue;
      }
      failed++;
      console.error(`${name}: ingest failed: ${(err as Error).message}`);
    }
  }
  return failed ? 1 : refused ? 3 : 0;
}

void main().then((code) => {
  process.exitCode = code;
  // Benches read the peak resident memory and the CPU time (every thread, DuckDB's included) of a whole ingest process from these lines.
  if (process.env.REPORT_PEAK_RSS === '1') {
    const cpu = process.cpuUsage();
    console.log(`peak_rss_mb=${Math.round(process.resourceUsage().maxRSS / 1024)}`);
    console.log(`cpu_ms=${Math.round((cpu.user + cpu.system) / 1000)}`);
  }
});
