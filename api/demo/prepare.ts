import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readCatalog } from '../../ingest/lake/index.ts';
import { writeSampleArchive } from '../../ingest/samples/filing-archive/index.ts';
import type { Settings } from '../../schemas/settings.ts';
import { createKey } from '../core/keys.ts';
import { openLake } from '../core/lake.ts';
import { openStateStore } from '../core/state.ts';
import { createMonitor } from '../monitors/monitor-service.ts';
import { ROUTES } from '../routes.ts';
import { createEndpoint } from '../webhooks/endpoint-service.ts';
import { demoArchiveDir, type DemoRun, demoReceivedFile, writeDemoRun } from './demo-run.ts';
import { pickDemoFilings } from './pick-filings.ts';

export const DEMO_MONITOR_NAME = 'Cyber incidents (demo)';

/**
 * What `make demo` does once the lake is built: writes the sample filing archive for filings of the demo's filing
 * index, starts a fresh state store (the previous one is kept as `state.duckdb.prev`) with a demo key on the `pro`
 * plan, a webhook endpoint on the demo receiver and a monitor on 8-K cyber incidents (when `withWebhook`: the
 * receiver needs `openssl` for its certificate), and records it all in `DATA_DIR/demo/run.json`.
 */
export async function prepareDemo(settings: Settings, opts: { withWebhook: boolean; now?: Date }): Promise<DemoRun & { archiveFiles: number }> {
  const lake = await openLake(settings.lakeDir);
  const filings = await pickDemoFilings(lake).finally(() => lake.close());
  const archive = await writeSampleArchive(demoArchiveDir(settings.dataDir), filings.all);

  // The feed was just rebuilt (new event ids), so monitors, alerts and the worker's position in the old feed mean
  // nothing any more: a fresh state store.
  if (settings.STATE_DATABASE_URL) {
    throw new Error('make demo builds a fresh embedded state store (DATA_DIR/state.duckdb): unset STATE_DATABASE_URL for the demo');
  }
  const statePath = join(settings.dataDir, 'state.duckdb');
  await (await openStateStore(statePath)).close(); // fails, naming the cause, while a server holds the store
  if (existsSync(statePath)) await rename(statePath, `${statePath}.prev`);
  await rm(`${statePath}.wal`, { force: true });
  const state = await openStateStore(statePath);
  const now = opts.now ?? new Date();
  let run: DemoRun;
  try {
    const { key, account_id: accountId } = await createKey(state, { plan: 'pro', name: 'demo' });
    let webhook: DemoRun['webhook'] = null;
    if (opts.withWebhook) {
      const url = `https://localhost:${settings.DEMO_RECEIVER_PORT}/hook`;
      const endpoint = await createEndpoint(state, accountId, { url, description: 'make demo receiver' }, now);
      const monitor = await createMonitor(
        state,
        accountId,
        { name: DEMO_MONITOR_NAME, target_type: 'event_type', target_value: 'sec.8k.cybersecurity_incident', webhook_endpoint_id: endpoint.id },
        now,
      );
      webhook = { endpoint_id: endpoint.id, secret: String(endpoint.secret), monitor_id: monitor.id };
    }
    const filled = new Set((await readCatalog(settings.lakeDir)).filter((c) => c.record_count > 0).map((c) => c.table));
    run = {
      key,
      receiver_port: settings.DEMO_RECEIVER_PORT,
      webhook,
      filings: {
        cyber_8k: filings.cyber8k.accession,
        ten_k: filings.tenK.accession,
        form_4: filings.form4.accession,
        all: filings.all.map((f) => f.accession),
      },
      entity_cik: filings.tenK.ciks[0]!,
      list_paths: ROUTES.filter((e) => e.kind === 'list' && filled.has(e.table.name)).map((e) => e.path),
    };
  } finally {
    await state.close();
  }
  await writeDemoRun(settings.dataDir, run);
  await rm(demoReceivedFile(settings.dataDir), { force: true });
  return { ...run, archiveFiles: archive.files };
}
