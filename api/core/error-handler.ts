import type { NextFunction, Request, Response } from 'express';
import { NotConfiguredError, UpstreamError } from '../../ingest/sources/common/index.ts';
import { ERROR_STATUS } from '../../schemas/errors.ts';
import { callOf } from './call.ts';
import { ApiError, ValidationError } from './errors.ts';

/** Any path no endpoint serves. */
export function noRoute(req: Request, res: Response): void {
  res.status(404).json({ error: { code: 'not_found', message: `No route ${req.method} ${req.path}` } });
}

/**
 * Errors as docs/api-contract.md words them: 422 `{"detail":[…]}` for validation, `{"error":{code,message}}` otherwise. Only an
 * unexpected error is logged (with its stack); its answer names the request id to quote.
 */
export function errorHandler() {
  // Express recognizes an error handler by its four parameters.
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof ValidationError) {
      res.status(err.status).json({ detail: err.detail });
      return;
    }
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
      res.status(err.status).json({ error: { code: err.code, message: err.message, ...err.extra } });
      return;
    }
    if (err instanceof NotConfiguredError) {
      // No request was made: a missing setting is this deployment's configuration, not the regulator's outage (502).
      res.status(ERROR_STATUS.not_configured).json({ error: { code: 'not_configured', message: err.message, setting: err.setting } });
      return;
    }
    if (err instanceof UpstreamError) {
      const status = err.kind === 'not_found' ? 404 : err.kind === 'timeout' ? 504 : 502;
      const code = err.kind === 'not_found' ? 'not_found' : err.kind === 'timeout' ? 'upstream_timeout' : 'upstream_unavailable';
      res.status(status).json({ error: { code, message: err.kind === 'not_found' ? err.message : `The regulator's service did not answer: ${err.message}` } });
      return;
    }
    const e = err as { type?: string; status?: number; message?: string };
    if (e?.type === 'entity.parse.failed' || e?.type === 'entity.too.large') {
      res
        .status(e.status ?? 400)
        .json({ error: { code: 'invalid_param', message: e.type === 'entity.too.large' ? 'Request body too large' : 'Malformed JSON body' } });
      return;
    }
    const call = callOf(res);
    call.log.error({ err, method: req.method, url: req.originalUrl }, 'unhandled error');
    res.status(500).json({ error: { code: 'internal_error', message: `Internal server error (request id ${call.requestId})` } });
  };
}
