import type { z } from 'zod';
import { invalid } from './errors.ts';

/**
 * A zod failure as the 400 the API contract asks for on monitor and webhook bodies, naming the first offending member.
 * Shared by the monitor and webhook services (monitors import it from here; webhooks import nothing of monitors).
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const member = issue.path.join('.') || (issue.code === 'unrecognized_keys' ? ((issue as { keys?: string[] }).keys?.join(', ') ?? 'body') : 'body');
  throw invalid(member, `Invalid ${member}: ${issue.message}`);
}
