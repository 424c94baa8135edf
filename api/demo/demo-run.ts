import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What `make demo` set up, kept in `DATA_DIR/demo/run.json` for the server (the receiver's secret, the archive's
 * filings) and `npm run demo:check` (the key and the command list's ids). It holds the demo key and the webhook
 * secret in clear text, like the state store holds the secret: the file is readable by its owner only.
 */
export interface DemoRun {
  key: string;
  /** The port of the demo's HTTPS webhook receiver (DEMO_RECEIVER_PORT when the demo was built). */
  receiver_port: number;
  /** The demo monitor and the receiver's endpoint; null when no receiver could be set up (no `openssl`). */
  webhook: { endpoint_id: string; secret: string; monitor_id: string } | null;
  /** Accessions in the sample archive: the ones the commands use, then all of them. */
  filings: { cyber_8k: string; ten_k: string; form_4: string; all: string[] };
  /** A CIK for the lookup command (the 10-K's filer). */
  entity_cik: string;
  /** Paths of the list endpoints whose tables hold rows. */
  list_paths: string[];
}

const demoDir = (dataDir: string) => join(dataDir, 'demo');
export const demoArchiveDir = (dataDir: string) => join(demoDir(dataDir), 'archive');
const runFile = (dataDir: string) => join(demoDir(dataDir), 'run.json');
/** The demo receiver's listing of the deliveries it got (kept across server restarts, cleared by `make demo`). */
export const demoReceivedFile = (dataDir: string) => join(demoDir(dataDir), 'received.json');

export async function writeDemoRun(dataDir: string, run: DemoRun): Promise<void> {
  await mkdir(demoDir(dataDir), { recursive: true });
  await writeFile(runFile(dataDir), JSON.stringify(run, null, 2), { mode: 0o600 });
  await chmod(runFile(dataDir), 0o600);
}

export async function readDemoRun(dataDir: string): Promise<DemoRun | null> {
  if (!existsSync(runFile(dataDir))) return null;
  return JSON.parse(await readFile(runFile(dataDir), 'utf8')) as DemoRun;
}
