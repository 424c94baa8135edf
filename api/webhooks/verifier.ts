import { timingSafeEqual } from 'node:crypto';
import { signatureHex } from './signer.ts';

/** Age beyond which a receiver should reject a delivery's timestamp (replay window), in seconds. */
const DEFAULT_TOLERANCE_SECONDS = 300;

export interface VerifyInput {
  /** The endpoint secret (or several, e.g. while the receiver itself is mid-rotation). */
  secret: string | string[];
  /** `Svc-Timestamp` header value. */
  timestamp: string | undefined;
  /** `Svc-Signature` header value. */
  signature: string | undefined;
  /** The request body exactly as received (before any JSON parsing). */
  rawBody: Buffer | string;
  toleranceSeconds?: number;
  now?: Date;
}

export type VerifyResult = { ok: true } | { ok: false; reason: 'missing_header' | 'bad_timestamp' | 'stale_timestamp' | 'bad_signature' };

/**
 * Receiver-side check of a delivery: recomputes the HMAC, compares it in constant time with each
 * `sha256=` entry of the header, and rejects timestamps outside the tolerance (either side, for clock skew).
 */
export function verifyWebhookSignature(input: VerifyInput): VerifyResult {
  const { timestamp, signature } = input;
  if (!timestamp || !signature) return { ok: false, reason: 'missing_header' };
  const t = Date.parse(timestamp);
  if (!Number.isFinite(t) || !/^\d{4}-\d{2}-\d{2}T/.test(timestamp)) return { ok: false, reason: 'bad_timestamp' };
  const tolerance = (input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS) * 1000;
  const now = (input.now ?? new Date()).getTime();
  if (Math.abs(now - t) > tolerance) return { ok: false, reason: 'stale_timestamp' };

  const given = signature
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.startsWith('sha256='))
    .map((part) => Buffer.from(part.slice('sha256='.length), 'utf8'));
  const secrets = Array.isArray(input.secret) ? input.secret : [input.secret];
  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(signatureHex(secret, timestamp, input.rawBody), 'utf8');
    for (const g of given) {
      // Lengths are public (always 64 hex chars); only equal-length buffers reach the constant-time compare.
      if (g.length === expected.length && timingSafeEqual(g, expected)) matched = true;
    }
  }
  return matched ? { ok: true } : { ok: false, reason: 'bad_signature' };
}
