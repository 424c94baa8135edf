import cron from 'node-cron';
import { dependencyOrder, loadIngesters } from '../../ingest/pipeline/index.ts';
import { runIngest } from '../../ingest/pipeline/index.ts';
import type { Settings } from '../../schemas/settings.ts';

type Log = (m: string) => void;

/** Every dataset's default run, each after the datasets it reads (registry dependency order). */
export async function runNightly(settings: Settings, log: Log, run: typeof runIngest = runIngest): Promise<void> {
  for (const d of dependencyOrder(await loadIngesters())) {
    try {
      const s = await run(d, {}, settings, { quiet: true });
      log(`nightly ${d.name}: ${s.rowsWritten} rows, ${s.events.appended} events`);
    } catch (err) {
      log(`nightly ${d.name} failed: ${(err as Error).message}`);
    }
  }
}

/** The daily lane: the filing index's daily file for `date` (YYYY-MM-DD). */
export async function runDaily(settings: Settings, date: string, log: Log, run: typeof runIngest = runIngest): Promise<void> {
  for (const d of (await loadIngesters()).filter((x) => x.name === 'filings')) {
    try {
      const s = await run(d, { date }, settings, { quiet: true });
      log(`daily ${d.name} ${date}: ${s.rowsWritten} rows, ${s.events.appended} events`);
    } catch (err) {
      log(`daily ${d.name} ${date} failed: ${(err as Error).message}`);
    }
  }
}

/**
 * The nightly schedule inside the server (off unless SCHEDULE=true; always off in tests): every dataset's
 * default run at NIGHTLY_CRON, and the daily lane at DAILY_CRON, which picks up the day's new filings from the
 * daily index between the quarterly bulk releases. Runs are sequential, so they share the one request budget.
 */
export function startScheduler(
  settings: Settings,
  log: Log = (m) => console.log(`[schedule] ${m}`),
  run: typeof runIngest = runIngest,
  now: () => Date = () => new Date(),
) {
  if (!settings.SCHEDULE) return { stop() {} };
  let busy = false;
  const lane = (label: string, job: () => Promise<void>) => async () => {
    if (busy) {
      log(`${label}: previous run still going, skipped`);
      return;
    }
    busy = true;
    try {
      await job();
    } finally {
      busy = false;
    }
  };
  const nightly = cron.schedule(
    settings.NIGHTLY_CRON,
    lane('nightly', () => runNightly(settings, log, run)),
  );
  const daily = cron.schedule(
    settings.DAILY_CRON,
    lane('daily', () => runDaily(settings, now().toISOString().slice(0, 10), log, run)),
  );
  return {
    stop() {
      void nightly.stop();
      void daily.stop();
    },
  };
}
