import { createHmac, randomBytes } from 'node:crypto';

/** Prefix of generated endpoint secrets, so a leaked one is recognizable in logs and secret scanners. */
const SECRET_PREFIX = 'whsec_';

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url');
}

/** Hex HMAC-SHA256 of `<timestamp>.<raw body>` keyed by the secret (docs/api-contract.md: Webhooks). */
export function signatureHex(secret: string, timestamp: string, rawBody: Buffer | string): string {
  const h = createHmac('sha256', secret);
  h.update(`${timestamp}.`, 'utf8');
  h.update(rawBody);
  return h.digest('hex');
}

/**
 * The `Svc-Signature` header value. Normally one `sha256=<hex>`; during a secret rotation's overlap the
 * previous secret signs too, comma-separated after the current one, so a receiver still configured with the
 * old secret keeps verifying until it switches.
 */
export function signatureHeader(secrets: string[], timestamp: string, rawBody: Buffer | string): string {
  return secrets.map((s) => `sha256=${signatureHex(s, timestamp, rawBody)}`).join(',');
}
