import { join } from 'node:path';
import { createKey } from './core/keys.ts';
import { openStateStore } from './core/state.ts';
import { ROUTES } from './routes.ts';
import { ingestSamples } from '../ingest/pipeline/index.ts';
import { loadSettings } from '../schemas/settings.ts';
import { readCatalog } from '../ingest/lake/index.ts';

/**
 * `make demo`: every dataset writes its sample (our own files, in the regulator's real formats) and the real
 * ingester reads it back; then a demo key on a paid plan is created and example requests are printed.
 * No network: samples are read with --from.
 */
const settings = loadSettings();
// Each dataset after the ones it reads (13F resolves issuers against the entity directory, and so on).
const outcomes = await ingestSamples(settings, {
  onOutcome(o) {
    if ('error' in o) {
      console.error(`${o.dataset.name}: demo ingest failed: ${o.error.message}`);
      return;
    }
    const s = o.summary;
    console.log(
      `${o.dataset.name.padEnd(26)} ${String(s.rowsWritten).padStart(8)} rows  ` +
        `${s.tables.map((t) => t.table).join(', ')}` +
        `${s.events.appended ? `  (+${s.events.appended} events)` : ''}`,
    );
  },
});
const failures = outcomes.filter((o) => 'error' in o).length;

const state = await openStateStore(join(settings.dataDir, 'state.duckdb'));
const { key } = await createKey(state, { plan: 'pro', name: 'demo' });
await state.close();

const base = `http://localhost:${settings.PORT}`;
const auth = `-H "Authorization: Bearer ${key}"`;
const filled = new Set((await readCatalog(settings.lakeDir)).filter((c) => c.record_count > 0).map((c) => c.table));
const examples = ROUTES.filter((e) => e.kind === 'list' && filled.has(e.table.name)).map((e) => `curl -s ${auth} "${base}${e.path}?limit=3"`);
console.log(`
Demo key (plan pro): ${key}

Try, once the server below is listening:
  curl -s ${base}/healthz
  curl -s ${base}/v1/sources
  curl -s ${auth} ${base}/v1/account
${examples.map((x) => `  ${x}`).join('\n')}
  curl -s ${auth} "${base}/v1/events?limit=5"

Docs: ${base}/docs   OpenAPI: ${base}/openapi.json   SQL: npm run sql -- "SELECT count(*) FROM events"
`);
if (failures) process.exitCode = 1;
