import { rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { serveLocalArchive } from '../../ingest/sources/edgar/index.ts';
import type { Settings } from '../../schemas/settings.ts';
import type { MonitoringOptions } from '../monitors/runtime.ts';
import { demoArchiveDir, demoReceivedFile, readDemoRun } from './demo-run.ts';
import { startDemoReceiver } from './receiver.ts';
import { selfSignedCert } from './self-signed.ts';

/** Sent to the loopback archive only: the regulator's real hosts still need the user's own SEC_USER_AGENT. */
const DEMO_USER_AGENT = 'filings-lake demo (loopback sample archive) demo@localhost';

export interface DemoMode {
  /** The settings with the base URLs pointed at the loopback archive (those the user did not set). */
  settings: Settings;
  monitoring: MonitoringOptions;
  /** What to tell the user (addresses, or why a part is missing). */
  notes: string[];
  close(): Promise<void>;
}

/**
 * The server's side of `make demo` (`DEMO=on`): serves the sample archive `api/demo.ts` wrote on an ephemeral
 * loopback port and points SEC_BASE_URL / SEC_EFTS_BASE_URL at it unless the environment sets them (with a demo
 * SEC_USER_AGENT when both point there), so the live endpoints answer offline; and starts the HTTPS webhook receiver
 * the demo monitor delivers to, trusted through its self-signed certificate and allowed past the loopback guard.
 */
export async function startDemoMode(settings: Settings, env: Record<string, string | undefined> = process.env): Promise<DemoMode> {
  const notes: string[] = [];
  const closers: (() => Promise<void>)[] = [];
  const s: Settings = { ...settings };
  const monitoring: MonitoringOptions = {};
  const run = await readDemoRun(settings.dataDir);
  const archiveDir = demoArchiveDir(settings.dataDir);
  if (!run || !existsSync(archiveDir)) {
    notes.push(`demo: no sample archive in ${archiveDir} (run \`make demo\`): the live endpoints call the configured hosts`);
    return { settings: s, monitoring, notes, close: async () => {} };
  }

  const archive = await serveLocalArchive(archiveDir);
  closers.push(archive.close);
  const userSet = (k: string) => !!env[k];
  if (!userSet('SEC_BASE_URL')) s.SEC_BASE_URL = archive.url;
  if (!userSet('SEC_EFTS_BASE_URL')) s.SEC_EFTS_BASE_URL = archive.url;
  if (!s.SEC_USER_AGENT && !userSet('SEC_BASE_URL') && !userSet('SEC_EFTS_BASE_URL')) s.SEC_USER_AGENT = DEMO_USER_AGENT;
  // The filing cache keeps each document's URL, which names the archive's port of the run that fetched it: the
  // archive's filings are fetched afresh from this run's port.
  for (const acc of run.filings.all) await rm(join(settings.dataDir, 'filings', acc), { recursive: true, force: true });
  notes.push(`demo: sample filing archive served at ${archive.url} (SEC_BASE_URL=${s.SEC_BASE_URL}, SEC_EFTS_BASE_URL=${s.SEC_EFTS_BASE_URL})`);

  const tls = run.webhook ? selfSignedCert() : null;
  if (run.webhook && tls) {
    const secret = run.webhook.secret;
    const receiver = await startDemoReceiver({
      tls,
      port: run.receiver_port,
      secret: () => secret,
      listingFile: demoReceivedFile(settings.dataDir),
    }).catch((err: Error) => {
      notes.push(`demo: no webhook receiver on port ${run.receiver_port} (${err.message}); set DEMO_RECEIVER_PORT and rerun \`make demo\``);
      return null;
    });
    if (!receiver) return { settings: s, monitoring, notes, close: () => closeAll(closers) };
    closers.push(receiver.close);
    // Loopback is refused by the webhook address guard unless allowed; the receiver's certificate is trusted beside
    // the public roots (a CA list replaces Node's default one).
    const allowed = new Set(s.WEBHOOK_ALLOW_HOSTS.split(',').filter(Boolean));
    allowed.add('localhost');
    s.WEBHOOK_ALLOW_HOSTS = [...allowed].join(',');
    monitoring.ca = [...rootCertificates, tls.cert];
    notes.push(`demo: webhook receiver at ${receiver.url}/hook; signed deliveries it received: curl -sk ${receiver.url}/deliveries`);
  } else if (run.webhook) {
    notes.push('demo: `openssl` not found: no webhook receiver (webhook URLs must be https); the monitor still records alerts');
  }
  return {
    settings: s,
    monitoring,
    notes,
    close: () => closeAll(closers),
  };
}

async function closeAll(closers: (() => Promise<void>)[]): Promise<void> {
  for (const c of closers.reverse()) await c();
}
