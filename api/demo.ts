import { curlOf, demoCommands } from './demo/commands.ts';
import { demoArchiveDir } from './demo/demo-run.ts';
import { DEMO_MONITOR_NAME, prepareDemo } from './demo/prepare.ts';
import { selfSignedCert } from './demo/self-signed.ts';
import { ingestSamples } from '../ingest/pipeline/index.ts';
import { loadSettings } from '../schemas/settings.ts';

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

const run = await prepareDemo(settings, { withWebhook: selfSignedCert() !== null });
console.log(`sample filing archive: ${run.filings.all.length} filings, ${run.archiveFiles} files in ${demoArchiveDir(settings.dataDir)}`);
const { key, webhook } = run;
const receiverPort = run.receiver_port;

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
Monitor "${DEMO_MONITOR_NAME}" sends signed deliveries to the demo receiver ${receiverUrl}/hook; what it received,
with each signature's verification result: curl -sk ${receiverUrl}/deliveries`
    : '\n(no webhook receiver: `openssl` is needed for its certificate)'
}

Docs: ${base}/docs   OpenAPI: ${base}/openapi.json   SQL: npm run sql -- "SELECT count(*) FROM events"
`);
if (failures) process.exitCode = 1;
