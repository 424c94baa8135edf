import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createKey } from './core/keys.ts';
import { openLake } from './core/lake.ts';
import { openStateStore } from './core/state.ts';
import { curlOf, demoCommands } from './demo/commands.ts';
import { pickDemoFilings } from './demo/pick-filings.ts';
import { demoArchiveDir, type DemoRun, writeDemoRun } from './demo/demo-run.ts';
import { selfSignedCert } from './demo/self-signed.ts';
import { createMonitor } from './monitors/monitor-service.ts';
import { ROUTES } from './routes.ts';
import { createEndpoint } from './webhooks/endpoint-service.ts';
import { ingestSamples } from '../ingest/pipeline/index.ts';
import { writeSampleArchive } from '../ingest/samples/filing-archive/index.ts';
import { loadSettings } from '../schemas/settings.ts';
import { readCatalog } from '../ingest/lake/index.ts';

/**
 * `make demo`: every dataset writes its sample (our own files, in the regulator's real formats) and the real
 * ingester reads it back; a sample filing archive is written for filings of the demo's filing index (the server
 * serves it on loopback, so the live endpoints work offline); then a fresh state store gets a demo key on a paid
 * plan, a webhook endpoint on the demo's receiver and a monitor, and the example requests are printed.
 * No network: samples are read with --from.
 */
const settings = loadSettings();
// Each dataset after the ones it reads (13F resolves issuers against the entity directory, and so on).
let rows = 0;
const outcomes = await ingestSamples(settings, {
  onOutcome(o) {
    if ('error' in o) {
      console.error(`${o.dataset.name}: demo ingest failed: ${o.error.message}`);
      return;
    }
    const s = o.summary;
    rows += s.rowsWritten;
    console.log(
      `${o.dataset.name.padEnd(26)} ${String(s.rowsWritten).padStart(8)} rows  ` +
        `${s.tables.map((t) => t.table).join(', ')}` +
        `${s.events.appended ? `  (+${s.events.appended} events)` : ''}`,
    );
  },
});
const failures = outcomes.filter((o) => 'error' in o).length;
console.log(`${'total'.padEnd(26)} ${String(rows).padStart(8)} rows`);

const lake = await openLake(settings.lakeDir);
const filings = await pickDemoFilings(lake).finally(() => lake.close());
const archive = await writeSampleArchive(demoArchiveDir(settings.dataDir), filings.all);
console.log(`sample filing archive: ${archive.filings} filings, ${archive.files} files in ${demoArchiveDir(settings.dataDir)}`);

// The feed was rebuilt (new event ids), so monitors, alerts and the worker's position in the old feed mean nothing:
// the demo starts a fresh state store and keeps the previous one beside it.
const statePath = join(settings.dataDir, 'state.duckdb');
await (await openStateStore(statePath)).close(); // fails, naming the cause, while a server holds the store
if (existsSync(statePath)) {
  await rename(statePath, `${statePath}.prev`);
  await rm(`${statePath}.wal`, { force: true });
}
const state = await openStateStore(statePath);
const { key, account_id: accountId } = await createKey(state, { plan: 'pro', name: 'demo' });
const receiverPort = settings.DEMO_RECEIVER_PORT;
let webhook: DemoRun['webhook'] = null;
if (selfSignedCert()) {
  const now = new Date();
  const endpoint = await createEndpoint(state, accountId, { url: `https://localhost:${receiverPort}/hook`, description: 'make demo receiver' }, now);
  const monitor = await createMonitor(
    state,
    accountId,
    { name: 'Cyber incidents (demo)', target_type: 'event_type', target_value: 'sec.8k.cybersecurity_incident', webhook_endpoint_id: endpoint.id },
    now,
  );
  webhook = { endpoint_id: endpoint.id, secret: String(endpoint.secret), monitor_id: monitor.id };
}
await state.close();

const filled = new Set((await readCatalog(settings.lakeDir)).filter((c) => c.record_count > 0).map((c) => c.table));
const run: DemoRun = {
  key,
  receiver_port: receiverPort,
  webhook,
  filings: { cyber_8k: filings.cyber8k.accession, ten_k: filings.tenK.accession, form_4: filings.form4.accession, all: filings.all.map((f) => f.accession) },
  entity_cik: filings.tenK.ciks[0]!,
  list_paths: ROUTES.filter((e) => e.kind === 'list' && filled.has(e.table.name)).map((e) => e.path),
};
await writeDemoRun(settings.dataDir, run);

const base = `http://localhost:${settings.PORT}`;
const receiverUrl = `https://localhost:${receiverPort}`;
const commands = demoCommands(run, base, webhook ? receiverUrl : null);
const lines: string[] = [];
commands.forEach((c, i) => {
  if (c.family !== commands[i - 1]?.family) lines.push(`  # ${c.family}`);
  lines.push(`  ${curlOf(c, key)}`);
});
console.log(`
Demo key (plan pro, new with every \`make demo\`): ${key}

The server below stays in the foreground; Ctrl-C stops it, \`DEMO=on make serve\` restarts it on the same data
(same key, nothing rebuilt). Once it is listening, try (\`npm run demo:check\` runs them all):
${lines.join('\n')}
${
  webhook
    ? `
Monitor "Cyber incidents (demo)" sends signed deliveries to the demo receiver ${receiverUrl}/hook; what it received,
with each signature's verification result: curl -sk ${receiverUrl}/deliveries`
    : '\n(no webhook receiver: `openssl` is needed for its certificate)'
}

Docs: ${base}/docs   OpenAPI: ${base}/openapi.json   SQL: npm run sql -- "SELECT count(*) FROM events"
`);
if (failures) process.exitCode = 1;
