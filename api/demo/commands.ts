import type { DemoRun } from './demo-run.ts';

/**
 * The demo's example requests: one list, printed by `make demo` as curl commands, run by `npm run demo:check`
 * against the running server and by test/platform/demo-commands.test.ts in process. One call of every endpoint
 * family: the lists with data, a lookup, each per-filing parser, full-text search, cyber incidents, the events
 * feed, and the monitor → webhook flow down to the receiver's own listing of verified deliveries.
 */
export interface DemoCommand {
  family: string;
  /** Absolute URL. */
  url: string;
  /** Sends the demo key. */
  auth: boolean;
  /** 200 is enough (`/healthz` has no `data`); otherwise `data` must be a non-empty array. */
  statusOnly?: boolean;
  /** The receiver's self-signed certificate: curl needs `-k`. */
  insecure?: boolean;
  /** Filled by the server's monitoring worker a few seconds after start: the check retries it for a while. */
  eventually?: boolean;
}

export function demoCommands(run: DemoRun, base: string, receiverUrl: string | null): DemoCommand[] {
  const api = (family: string, path: string, more: Partial<DemoCommand> = {}): DemoCommand => ({ family, url: `${base}${path}`, auth: true, ...more });
  const f = run.filings;
  const commands: DemoCommand[] = [
    { family: 'service', url: `${base}/healthz`, auth: false, statusOnly: true },
    { family: 'service', url: `${base}/v1/sources`, auth: false },
    api('service', '/v1/account'),
    ...run.list_paths.map((p) => api('list', `${p}?limit=3`)),
    api('lookup', `/v1/entities/${run.entity_cik}`),
    api('per-filing: documents', `/v1/filings/${f.ten_k}/documents`),
    api('per-filing: extract', `/v1/filings/${f.ten_k}/extract?item=1A`),
    api('per-filing: extract', `/v1/filings/${f.ten_k}/extract?item=7`),
    api('per-filing: subsidiaries', `/v1/filings/${f.ten_k}/subsidiaries`),
    api('per-filing: events', `/v1/filings/${f.cyber_8k}/events`),
    api('per-filing: insiders', `/v1/filings/${f.form_4}/insiders`),
    api('full-text', `/v1/full-text?q=${encodeURIComponent('"cybersecurity incident"')}&forms=8-K`),
    api('cyber incidents', '/v1/cyber-incidents'),
    api('events', '/v1/events?limit=5'),
  ];
  if (run.webhook) {
    commands.push(
      api('monitors', '/v1/monitors'),
      api('monitors', `/v1/alerts?monitor_id=${run.webhook.monitor_id}&limit=3`, { eventually: true }),
      api('webhooks', '/v1/webhooks/endpoints'),
      api('webhooks', `/v1/webhooks/deliveries?status=success&limit=3`, { eventually: true }),
    );
    if (receiverUrl) commands.push({ family: 'webhook receiver', url: `${receiverUrl}/deliveries`, auth: false, insecure: true, eventually: true });
  }
  return commands;
}

export function curlOf(c: DemoCommand, key: string): string {
  return ['curl -s', c.insecure ? '-k' : '', c.auth ? `-H "Authorization: Bearer ${key}"` : '', `"${c.url}"`].filter(Boolean).join(' ');
}
