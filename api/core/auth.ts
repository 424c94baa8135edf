import type { Request } from 'express';
import { unauthorized } from './errors.ts';
import { findKeyByHash, hashKey, KEY_PREFIX, type KeyRecord } from './keys.ts';
import type { PlanId } from '../../schemas/plans.ts';
import type { StateStore } from './state.ts';

export interface Account {
  accountId: string;
  keyId: string;
  keyName: string | null;
  plan: PlanId;
}

const CACHE_MS = 5_000;

/**
 * Resolves `Authorization: Bearer <key>` to an account. Lookups are cached a few seconds (hash → key) so a
 * hot key costs no state-store round trip; revocation through the server clears the cache at once. `now` is the
 * services' clock (milliseconds).
 */
export function createAuthenticator(state: StateStore, now: () => number) {
  const cache = new Map<string, { rec: KeyRecord | null; at: number }>();
  return {
    async authenticate(req: Request): Promise<Account> {
      const header = req.headers.authorization ?? '';
      const m = header.match(/^Bearer\s+(\S+)\s*$/i);
      if (!m) throw unauthorized();
      const key = m[1];
      if (!key.startsWith(KEY_PREFIX) || key.length > 200) throw unauthorized('Invalid API key');
      const hash = hashKey(key);
      let hit = cache.get(hash);
      if (!hit || now() - hit.at > CACHE_MS) {
        hit = { rec: await findKeyByHash(state, hash), at: now() };
        cache.set(hash, hit);
      }
      const rec = hit.rec;
      if (!rec || rec.revoked_at) throw unauthorized(rec ? 'API key revoked' : 'Invalid API key');
      return { accountId: rec.account_id, keyId: rec.id, keyName: rec.name, plan: rec.plan };
    },
    clearCache(): void {
      cache.clear();
    },
  };
}
