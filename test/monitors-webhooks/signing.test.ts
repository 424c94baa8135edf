import { describe, expect, it } from 'vitest';
import { signatureHeader, signatureHex, generateSecret } from '../../api/webhooks/signer.ts';
import { verifyWebhookSignature } from '../../api/webhooks/verifier.ts';

const now = new Date('2025-03-03T12:00:00.000Z');
const ts = '2025-03-03T11:59:30.000Z';
const body = Buffer.from('{"type":"sec.8k.auditor_change","monitor_id":"m","delivery_id":"d","event":{"summary":"caf\u00e9"}}');

describe('webhook signature', () => {
  it('is the hex HMAC-SHA256 of "<timestamp>.<raw body>" (known vector)', () => {
    // Computed independently: printf '%s' '2025-03-03T11:59:30.000Z.hello' | openssl dgst -sha256 -hmac whsec_test
    expect(signatureHex('whsec_test', ts, 'hello')).toBe('936ff9de1f9db5a6619ff74e596f6c344981ee5cac0e41f81bef49f9d8bda2e3');
    expect(signatureHeader(['k'], ts, body)).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('verifies what the signer produced, in constant time over the raw bytes', () => {
    const secret = generateSecret();
    const sig = signatureHeader([secret], ts, body);
    expect(verifyWebhookSignature({ secret, timestamp: ts, signature: sig, rawBody: body, now })).toEqual({ ok: true });
  });

  it('rejects a changed body, a changed timestamp, a wrong secret', () => {
    const secret = generateSecret();
    const sig = signatureHeader([secret], ts, body);
    const tampered = Buffer.from(body.toString().replace('caf', 'cof'));
    expect(verifyWebhookSignature({ secret, timestamp: ts, signature: sig, rawBody: tampered, now })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyWebhookSignature({ secret, timestamp: '2025-03-03T11:59:31.000Z', signature: sig, rawBody: body, now })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    expect(verifyWebhookSignature({ secret: generateSecret(), timestamp: ts, signature: sig, rawBody: body, now })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    expect(verifyWebhookSignature({ secret, timestamp: ts, signature: 'sha256=abc', rawBody: body, now })).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('rejects stale or future timestamps beyond the tolerance, and missing headers', () => {
    const secret = 'whsec_x';
    const old = '2025-03-03T11:54:59.000Z'; // 5 min 1 s before now
    expect(verifyWebhookSignature({ secret, timestamp: old, signature: signatureHeader([secret], old, body), rawBody: body, now })).toEqual({
      ok: false,
      reason: 'stale_timestamp',
    });
    const future = '2025-03-03T12:05:01.000Z';
    expect(verifyWebhookSignature({ secret, timestamp: future, signature: signatureHeader([secret], future, body), rawBody: body, now }).ok).toBe(false);
    expect(
      verifyWebhookSignature({ secret, timestamp: old, signature: signatureHeader([secret], old, body), rawBody: body, now, toleranceSeconds: 600 }),
    ).toEqual({ ok: true });
    expect(verifyWebhookSignature({ secret, timestamp: undefined, signature: 'sha256=00', rawBody: body, now })).toEqual({
      ok: false,
      reason: 'missing_header',
    });
    expect(verifyWebhookSignature({ secret, timestamp: 'yesterday', signature: 'sha256=00', rawBody: body, now })).toEqual({
      ok: false,
      reason: 'bad_timestamp',
    });
  });

  it('during a rotation overlap either secret verifies the two-entry header', () => {
    const oldSecret = generateSecret();
    const newSecret = generateSecret();
    const header = signatureHeader([newSecret, oldSecret], ts, body);
    expect(header.split(',')).toHaveLength(2);
    expect(verifyWebhookSignature({ secret: oldSecret, timestamp: ts, signature: header, rawBody: body, now }).ok).toBe(true);
    expect(verifyWebhookSignature({ secret: newSecret, timestamp: ts, signature: header, rawBody: body, now }).ok).toBe(true);
    expect(verifyWebhookSignature({ secret: generateSecret(), timestamp: ts, signature: header, rawBody: body, now }).ok).toBe(false);
  });
});
