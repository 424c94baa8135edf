import { ApiError, badRequest, notFound } from '../core/errors.ts';

/** 404 for a resource of another account or none: the two are indistinguishable by design. */
export const notOwned = (what: string, id: string) => notFound(`No ${what} with id ${id} under this account.`);
/** 400 invalid_param naming the offending body member (the API contract's status for monitor and webhook bodies). */
export const invalid = (param: string, message: string) => badRequest(message, param);
/** 409: the request is valid but the resource's state forbids it (redelivering a pending delivery…). */
export const conflict = (message: string) => new ApiError('conflict', message);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids are UUIDs; anything else cannot name a resource, so it is simply not found (never a SQL error). */
export function isUuid(s: unknown): s is string {
  return typeof s === 'string' && UUID.test(s);
}
