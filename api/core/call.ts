import type { Response } from 'express';
import type { Logger } from '../../ingest/lake/index.ts';
import type { Account } from './auth.ts';
import type { Charge } from './credits.ts';
import type { EnvelopeInput } from './endpoint.ts';

/**
 * What the middlewares of one request hand each other (kept in `res.locals.call`): the request id and its logger,
 * the caller's account once authenticated, the credits the call holds, and the handler's answer.
 */
export interface Call {
  requestId: string;
  log: Logger;
  account: Account | null;
  charge: Charge | null;
  result: { body: EnvelopeInput | Record<string, unknown>; cost: number | null } | null;
}

export function callOf(res: Response): Call {
  return res.locals.call as Call;
}
