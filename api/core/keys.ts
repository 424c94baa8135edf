import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { PLANS, type PlanId } from '../../schemas/plans.ts';
import type { StateStore } from './state.ts';

/** Live keys: a fixed prefix plus 32 random base62 characters. Only the SHA-256 of a key is stored. */
const KEY_PREFIX = 'sk_live_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const SECRET_LENGTH = 32;
const ISSUABLE = new RegExp(`^${KEY_PREFIX}[${ALPHABET}]{${SECRET_LENGTH}}$`);

/** Whether `key` has the shape of the keys `createKey` issues: anything else is refused without a store lookup. */
export function isIssuableKey(key: string): boolean {
  return ISSUABLE.test(key);
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function randomSecret(n = SECRET_LENGTH): string {
  // Rejection sampling keeps the characters uniform (256 is not a multiple of 62).
  let out = '';
  while (out.length < n) {
    for (const b of randomBytes(n * 2)) {
      if (b < 248 && out.length < n) out += ALPHABET[b % 62];
    }
  }
  return out;
}

export interface KeyRecord {
  id: string;
  account_id: string;
  name: string | null;
  plan: PlanId;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

export async function createKey(state: StateStore, opts: { plan: PlanId; name?: string; accountId?: string }): Promise<KeyRecord & { key: string }> {
  if (!(opts.plan in PLANS)) throw new Error(`unknown plan '${opts.plan}' (one of ${Object.keys(PLANS).join(', ')})`);
  const key = `${KEY_PREFIX}${randomSecret()}`;
  const rec: KeyRecord = {
    id: randomUUID(),
    account_id: opts.accountId ?? randomUUID(),
    name: opts.name ?? null,
    plan: opts.plan,
    prefix: key.slice(0, KEY_PREFIX.length + 4),
    created_at: new Date().toISOString(),
    revoked_at: null,
  };
  await state.run('INSERT INTO api_keys (id, account_id, name, plan, prefix, key_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7::TIMESTAMP)', [
    rec.id,
    rec.account_id,
    rec.name,
    rec.plan,
    rec.prefix,
    hashKey(key),
    rec.created_at.replace('Z', ''),
  ]);
  return { ...rec, key };
}

export async function listKeys(state: StateStore): Promise<KeyRecord[]> {
  return (await state.all('SELECT id, account_id, name, plan, prefix, created_at, revoked_at FROM api_keys ORDER BY created_at, id')) as unknown as KeyRecord[];
}

/** Revokes by key id or by the full key. Returns whether a live key was revoked. */
export async function revokeKey(state: StateStore, idOrKey: string): Promise<boolean> {
  const rows = await state.all('UPDATE api_keys SET revoked_at = now() WHERE revoked_at IS NULL AND (id = $1 OR key_hash = $2) RETURNING id', [
    idOrKey,
    hashKey(idOrKey),
  ]);
  return rows.length > 0;
}

/** The key of this hash; `background` for a key never seen before (see `StateStore.all`). */
export async function findKeyByHash(state: StateStore, hash: string, opts: { background?: boolean } = {}): Promise<KeyRecord | null> {
  const rows = await state.all('SELECT id, account_id, name, plan, prefix, created_at, revoked_at FROM api_keys WHERE key_hash = $1', [hash], opts);
  return (rows[0] as unknown as KeyRecord) ?? null;
}
