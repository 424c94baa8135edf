import { request as httpsRequest } from 'node:https';
import type { DemoCommand } from './commands.ts';

/** One demo command's outcome: it passes with a 200 and a non-empty `data` array (or just a 200 when `statusOnly`). */
export interface CommandResult {
  command: DemoCommand;
  ok: boolean;
  status: number;
  rows: number;
  /** The answer's `data` (empty when it had none). */
  data: unknown[];
  detail: string;
}

/** GET over https without verifying the certificate: only for the demo's own self-signed receiver (`insecure`). */
function getInsecure(url: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function runCommand(c: DemoCommand, key: string): Promise<CommandResult> {
  let status = 0;
  let text = '';
  try {
    if (c.insecure) ({ status, text } = await getInsecure(c.url));
    else {
      const res = await fetch(c.url, { headers: c.auth ? { Authorization: `Bearer ${key}` } : {} });
      status = res.status;
      text = await res.text();
    }
  } catch (err) {
    return { command: c, ok: false, status, rows: 0, data: [], detail: (err as Error).message };
  }
  let body: { data?: unknown; error?: { code?: string; message?: string } } = {};
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: judged by its status below */
  }
  const data = Array.isArray(body.data) ? body.data : [];
  const rows = data.length;
  const ok = status === 200 && (c.statusOnly || rows > 0);
  const detail = body.error ? `${body.error.code}: ${body.error.message}` : ok ? `${rows} row(s)` : `no data: ${text.slice(0, 200)}`;
  return { command: c, ok, status, rows, data, detail };
}

/**
 * Runs the commands in order; an `eventually` command (filled by the monitoring worker after the server starts) is
 * retried `retries` times, `waitBetween` apart, before it counts as failed.
 */
export async function runCommands(
  commands: DemoCommand[],
  key: string,
  opts: { retries?: number; waitBetween?: () => Promise<void> } = {},
): Promise<CommandResult[]> {
  const results: CommandResult[] = [];
  for (const c of commands) {
    let r = await runCommand(c, key);
    for (let i = 0; c.eventually && !r.ok && i < (opts.retries ?? 0); i++) {
      await opts.waitBetween?.();
      r = await runCommand(c, key);
    }
    results.push(r);
  }
  return results;
}
