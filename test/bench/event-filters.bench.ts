import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import eventsRoutes from '../../api/events/routes.ts';
import { openDuck, queryRows, sqlString } from '../../ingest/lake/duck.ts';
import { writeMissingKeyFilters } from '../../ingest/lake/key-filter.ts';
import { eventsTable } from '../../schemas/tables/events.ts';
import { writeEventDays } from '../support/event-days.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { measure, ratio, type BenchResult } from './support.ts';

/**
 * A company's and a filing's events over ten years of day folders (BENCH_EVENT_FILTER_DAYS, 3,650, of
 * BENCH_EVENT_FILTER_PER_DAY events, 500, drawn from 200,000 companies): `/v1/events?cik=` and `?accession=` pages
 * through HTTP in this process (p50/p99, CPU per call, BENCH_EVENT_FILTER_RUNS calls, 10) with each file's key filters
 * (TableSpec.keyFilters) beside the same files without them, served by a second app in the same run; and each app's
 * first listing (where the filters are read).
 */
const DAYS = Number(process.env.BENCH_EVENT_FILTER_DAYS ?? 3650);
const PER_DAY = Number(process.env.BENCH_EVENT_FILTER_PER_DAY ?? 500);
const RUNS = Number(process.env.BENCH_EVENT_FILTER_RUNS ?? 10);

export default async function eventFiltersBench(): Promise<BenchResult[]> {
  const env = { METERING: 'off', RATE_LIMIT_RPS: '1000000' };
  const app = await createTestApp({ routes: eventsRoutes, env });
  const bare = await createTestApp({ routes: eventsRoutes, env });
  const { instance, conn } = await openDuck(':memory:', { threads: '2' });
  try {
    const cik = `lpad(CAST(hash(i) % 200000 AS VARCHAR), 10, '0')`;
    await writeEventDays(bare.settings.lakeDir, DAYS, PER_DAY, {
      entity_cik: cik,
      accession: `${cik} || '-25-' || lpad(CAST(i % 1000000 AS VARCHAR), 6, '0')`,
    });
    const dir = join(bare.settings.lakeDir, eventsTable.name);
    // The same files, each with the filters the events writer puts beside it, written as `npm run events -- key-filters`
    // writes those an older lake lacks.
    const filtered = join(app.settings.lakeDir, eventsTable.name);
    await cp(dir, filtered, { recursive: true });
    const t0 = process.cpuUsage();
    const w0 = performance.now();
    await writeMissingKeyFilters(conn, app.settings.lakeDir, eventsTable);
    const backfillS = (performance.now() - w0) / 1000;
    const written = process.cpuUsage(t0);
    const listing = async (on: TestApp) => {
      const c0 = process.cpuUsage();
      await on.services.lake.refresh();
      const c = process.cpuUsage(c0);
      return Math.round((c.user + c.system) / 1000);
    };
    const out: BenchResult[] = [
      {
        name: `event-filters: ${(DAYS * PER_DAY).toLocaleString('en-US')} events in ${DAYS} day folders`,
        figures: {
          filters_written_cpu_ms_per_file: Math.round((written.user + written.system) / 1000 / DAYS),
          key_filters_backfill_s: Math.round(backfillS * 10) / 10,
          first_listing_cpu_ms: await listing(app),
          without_filters_first_listing_cpu_ms: await listing(bare),
        },
      },
    ];
    // A company and a filing of the newest day, so their pages start there and walk back.
    const all = `read_parquet(${sqlString(join(dir, '*', '*.parquet'))}, hive_partitioning = true)`;
    const [{ c, a }] = await queryRows(
      conn,
      `SELECT entity_cik AS c, min(accession) AS a FROM ${all} WHERE detected_date = (SELECT max(detected_date) FROM ${all}) GROUP BY 1 LIMIT 1`,
    );
    const pages = [
      ['first page, no filter', ''],
      [`?cik= (a company in ≈ ${Math.round((DAYS * PER_DAY) / 200_000)} events)`, `cik=${c}`],
      ['?cik= (no event)', 'cik=0000999999'],
      ['?accession= (a filing of the newest day)', `accession=${a}`],
      ['?accession= (no event)', 'accession=0000320193-24-000001'],
    ];
    // Both apps warmed alike (the first measured page of a process pays for its compilation).
    for (const on of [app, bare]) for (let i = 0; i < 20; i++) await on.get('/v1/events?limit=25');
    for (const [name, qs] of pages) {
      const served = (on: TestApp) =>
        measure(async () => {
          const r = await on.get(`/v1/events?limit=25&${qs}`);
          if (r.status !== 200) throw new Error(`${name}: ${r.status}`);
        }, RUNS);
      const api = await served(app);
      const without = await served(bare);
      out.push({
        name: `event-filters: /v1/events ${name}`,
        figures: { ...api, without_filters_p50_ms: without.p50_ms, without_filters_cpu_ms: without.cpu_ms, cpu_ratio: ratio(api.cpu_ms, without.cpu_ms) },
      });
    }
    return out;
  } finally {
    conn.closeSync();
    instance.closeSync();
    await app.close();
    await bare.close();
  }
}
