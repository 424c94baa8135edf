import { parseArgs } from 'node:util';
import { toIsoDate } from './sources/common/normalize.ts';
import { diffHandlers } from './events/diff.ts';
import { loadSettings } from '../schemas/settings.ts';
import { backfillEvents } from './events/backfill.ts';
import { backfillEventKeyFilters } from './events/key-filters.ts';

/**
 * `npm run events -- backfill --from YYYY-MM-DD --to YYYY-MM-DD [--only filings,13f]`, `npm run events -- handlers`,
 * `npm run events -- key-filters [--quiet]`.
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { from: { type: 'string' }, to: { type: 'string' }, only: { type: 'string' }, quiet: { type: 'boolean' } },
});

async function main(): Promise<number> {
  const [cmd] = positionals;
  if (cmd === 'handlers') {
    for (const h of diffHandlers) console.log(`${h.name.padEnd(16)} reads ${h.tables.join(', ')}`);
    return 0;
  }
  if (cmd === 'key-filters') {
    let shown = 0;
    const s = await backfillEventKeyFilters(loadSettings(), (done, of) => {
      // A line every 500 files and at the end: 3,650 days took 18 s (make bench BENCH=event-filters).
      if (!values.quiet && (done - shown >= 500 || done === of)) {
        shown = done;
        process.stderr.write(`[key-filters] ${done}/${of} file(s)\n`);
      }
    });
    console.log(`${s.written} key filter(s) written; ${s.files} events file(s) in all; ${s.skipped} removed meanwhile`);
    return 0;
  }
  if (cmd !== 'backfill') {
    console.error('usage: npm run events -- backfill --from YYYY-MM-DD --to YYYY-MM-DD [--only handler,…] | handlers | key-filters [--quiet]');
    return 2;
  }
  const from = values.from && /^\d{4}-\d{2}-\d{2}$/.test(values.from) ? toIsoDate(values.from) : null;
  const to = values.to && /^\d{4}-\d{2}-\d{2}$/.test(values.to) ? toIsoDate(values.to) : null;
  if (!from || !to || from > to) {
    console.error('--from and --to must be valid dates YYYY-MM-DD with from <= to');
    return 2;
  }
  const only = values.only
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const s = await backfillEvents(loadSettings(), from, to, { only, quiet: values.quiet });
  for (const p of s.partitions) console.log(`  ${p.table}: ${p.partitions.join(', ')}`);
  console.log(`${s.handlers} handler(s) ran; ${s.appended} new event(s) appended`);
  return 0;
}

// No top-level await: `npm run events` runs this as a CommonJS bundle (ingest/cli-bundle.cjs).
main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  },
);
