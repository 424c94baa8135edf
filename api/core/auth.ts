import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import { LRUCache } from 'lru-cache';
import { ApiError, unauthorized } from './errors.ts';
import { findKeyByHash, hashKey, isIssuableKey, type KeyRecord } from './keys.ts';
import type { PlanId } from '../../schemas/plans.ts';
import type { StateStore } from './state.ts';

export interface Account {
  accountId: string;
  keyId: string;
  keyName: string | null;
  plan: PlanId;
}

/** How long a known key is trusted without asking the store again (revocation through the server clears it at once). */
const KNOWN_TTL_MS = 5_000;
/** How long an unknown key is refused without asking the store again: a repeated guess costs no query. */
const UNKNOWN_TTL_MS = 30_000;
/**
 * Entries each cache holds at most, least recently used evicted first. Known and unknown keys live in separate caches,
 * so a flood of bogus keys can never push the real tenants' keys out. Before the bound, 120,000 unique bogus keys took
 * the process from 213 to 414 MB (#19).
 */
const KNOWN_MAX = 10_000;
const UNKNOWN_MAX = 10_000;
/**
 * Lookups of keys never seen before that may wait on the state store at once, from every address together; past it
 * such a key is answered 429 (Retry-After: 1) at no cost. Many addresses each within their budget (a botnet) then
 * cannot queue more than this ahead of nothing: those lookups also run behind the tenants' statements (`background`).
 */
const MAX_UNSEEN_LOOKUPS = 32;
/** Client addresses whose failure budget is tracked at once; a full bucket is what an evicted address gets back. */
const ADDRESSES_MAX = 50_000;

/** What the cheap checks read of a request: the raw HTTP request (the address gate) or Express's. */
export type RequestHead = Pick<IncomingMessage, 'headers' | 'socket'>;

/** The 429 of an address whose failed authentications used up its budget: one wording for the gate, the app and the authenticator. */
export function addressExhausted(waitSeconds: number): ApiError {
  return new ApiError('rate_limited', `Too many failed authentications from this address; retry in ${waitSeconds} s`, {
    headers: { 'Retry-After': String(waitSeconds) },
  });
}

export interface AuthLimits {
  /** Failed authentications an address may make at once… */
  failureBurst: number;
  /** …and then per second (token bucket, refilled continuously). */
  failuresPerSecond: number;
}

/**
 * Resolves `Authorization: Bearer <key>` to an account, cheapest refusal first, so unknown keys cannot slow the
 * tenants (#19: 120,000 unique bogus keys took other clients' median latency from 5 ms to 256–316 ms, each costing a
 * query on the state store's single queue):
 * 1. a key cached as known answers at once, whatever its address's failure budget (a tenant behind the NAT of an
 *    attacker keeps working);
 * 2. an address whose failed authentications used up its budget gets 429 with Retry-After, nothing else looked at;
 * 3. a key of a shape we never issue (prefix, length, alphabet) is 401 without touching the store;
 * 4. a key cached as unknown is 401 without touching the store;
 * 5. only then is the store asked, once per key however many requests wait for the same answer, a key never seen
 *    before behind the tenants' statements and at most `MAX_UNSEEN_LOOKUPS` of those at once (429 beyond).
 * Steps 3–5 refusing spend one token of the address's budget (a lookup of a never-seen key spends it up front, given
 * back when the key proves valid, and so does its 429 when the lookups are at their cap). A request without a header is a plain 401 and spends
 * none: it costs nothing, and every client's first call without a key should read the 401 that explains the scheme.
 * `now` is the services' clock (milliseconds), so tests drive the TTLs and the budget's refill.
 */
export function createAuthenticator(state: StateStore, now: () => number, limits: AuthLimits) {
  const known = new LRUCache<string, { rec: KeyRecord; at: number }>({ max: KNOWN_MAX });
  const unknown = new LRUCache<string, { revoked: boolean; at: number }>({ max: UNKNOWN_MAX });
  const inFlight = new Map<string, Promise<KeyRecord | null>>();
  const failures = new LRUCache<string, { tokens: number; at: number }>({ max: ADDRESSES_MAX });

  /** Seconds to wait before the address may fail again; 0 while its budget lasts. */
  function waitOf(address: string): number {
    const t = now();
    const b = failures.get(address);
    if (!b) return 0;
    b.tokens = Math.min(limits.failureBurst, b.tokens + ((t - b.at) / 1000) * limits.failuresPerSecond);
    b.at = t;
    return b.tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - b.tokens) / limits.failuresPerSecond));
  }

  /** Takes one token of the address's budget (`-1` gives one back). */
  function spend(address: string, n = 1): void {
    const t = now();
    const b = failures.get(address) ?? { tokens: limits.failureBurst, at: t };
    b.tokens = Math.min(limits.failureBurst, Math.max(0, b.tokens - n));
    failures.set(address, b);
  }

  function failed(address: string, message: string): ApiError {
    spend(address);
    return unauthorized(message);
  }

  /** Store lookups of keys never seen before, in flight (a stale known key's refresh is not counted). */
  let unseenPending = 0;
  async function lookup(hash: string, seen: boolean): Promise<KeyRecord | null> {
    let pending = inFlight.get(hash);
    if (!pending) {
      if (!seen && unseenPending >= MAX_UNSEEN_LOOKUPS) {
        throw new ApiError('rate_limited', 'Too many authentications in progress; retry in 1 s', { headers: { 'Retry-After': '1' } });
      }
      if (!seen) unseenPending++;
      pending = findKeyByHash(state, hash, { background: !seen }).finally(() => {
        inFlight.delete(hash);
        if (!seen) unseenPending--;
      });
      inFlight.set(hash, pending);
    }
    return pending;
  }

  const bearerKey = (req: RequestHead) => /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  /** A key this process has seen to be valid (in the known cache, whatever its age). */
  const isKnown = (key: string) => isIssuableKey(key) && known.has(hashKey(key));

  return {
    /**
     * Seconds the request's address must wait before its next failed authentication, 0 while it may try (always for
     * a request without a bearer key, or with a key known to be valid). Cheap: the app asks it before any other work.
     */
    retryAfter(req: RequestHead): number {
      const key = bearerKey(req);
      if (!key || isKnown(key)) return 0;
      return waitOf(req.socket.remoteAddress ?? 'unknown');
    },
    /** Seconds the address must wait before its next failed authentication, whatever it sends (asked of a new connection). */
    addressWait(address: string): number {
      return waitOf(address);
    },
    /** Whether the request carries a key known to be valid (the address gate never pauses a socket that did). */
    carriesKnownKey(req: RequestHead): boolean {
      const key = bearerKey(req);
      return key !== undefined && isKnown(key);
    },
    async authenticate(req: Request): Promise<Account> {
      const key = bearerKey(req);
      if (!key) throw unauthorized();
      const hash = isIssuableKey(key) ? hashKey(key) : null;
      const cached = hash ? known.get(hash) : undefined;
      if (cached && now() - cached.at <= KNOWN_TTL_MS) return accountOf(cached.rec);

      const address = req.socket.remoteAddress ?? 'unknown';
      // A key known a few seconds ago is a tenant's, not a guess: it is looked up again whatever the address's budget.
      const wait = cached ? 0 : waitOf(address);
      if (wait > 0) throw addressExhausted(wait);
      if (!hash) throw failed(address, 'Invalid API key');
      const refused = unknown.get(hash);
      if (refused && now() - refused.at <= UNKNOWN_TTL_MS) throw failed(address, refused.revoked ? 'API key revoked' : 'Invalid API key');

      // A key never seen is paid for before it is looked up, and the token given back if it proves valid: the
      // requests an address has in flight at once cannot each take a lookup on a budget none of them has spent yet.
      // A request joining a lookup already in flight for the same key takes no lookup of its own, so it pays only if
      // the key proves invalid (a tenant's first burst of concurrent calls must not drain its address's budget).
      const prepaid = !cached && !inFlight.has(hash);
      if (prepaid) spend(address);
      const rec = await lookup(hash, cached !== undefined);
      if (!rec || rec.revoked_at) {
        unknown.set(hash, { revoked: !!rec, at: now() });
        if (!prepaid) spend(address);
        throw unauthorized(rec ? 'API key revoked' : 'Invalid API key');
      }
      if (prepaid) spend(address, -1);
      known.set(hash, { rec, at: now() });
      return accountOf(rec);
    },
    clearCache(): void {
      known.clear();
      unknown.clear();
    },
  };
}

function accountOf(rec: KeyRecord): Account {
  return { accountId: rec.account_id, keyId: rec.id, keyName: rec.name, plan: rec.plan };
}
