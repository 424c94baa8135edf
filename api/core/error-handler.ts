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
      res.status(err.status).json(err.body());
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
    const refused = bodyRefusal(err);
    if (refused) {
      res.status(refused.status).json({ error: { code: refused.code, message: refused.message } });
      return;
    }
    const call = callOf(res);
    call.log.error({ err, method: req.method, url: req.originalUrl }, 'unhandled error');
    res.status(500).json({ error: { code: 'internal_error', message: `Internal server error (request id ${call.requestId})` } });
  };
}

/** The JSON body's size limit (express.json's `limit`), named in the 413 message. */
export const BODY_LIMIT = '256kb';

/**
 * What body-parser refuses (an http-errors error with a 4xx status and a `type`) is the client's fault, never a 500:
 * a body that is not valid JSON or not readable (a corrupt gzip stream, a body cut short) is 400, one over the limit
 * 413, a charset other than UTF-8 or an unknown Content-Encoding 415.
 */
function bodyRefusal(err: unknown): ApiError | null {
  const e = err as { type?: string; status?: number; expose?: boolean; charset?: string; encoding?: string };
  if (!e || typeof e.status !== 'number' || e.status < 400 || e.status > 499 || e.expose !== true) return null;
  switch (e.type) {
    case 'entity.parse.failed':
      return new ApiError('invalid_param', 'Malformed JSON body');
    case 'entity.too.large':
      return new ApiError('payload_too_large', `Request body too large: at most ${BODY_LIMIT}`);
    case 'charset.unsupported':
      return new ApiError('unsupported_media_type', `Unsupported body charset '${e.charset ?? '?'}': send the JSON body as UTF-8`);
    case 'encoding.unsupported':
      return new ApiError('unsupported_media_type', `Unsupported Content-Encoding '${e.encoding ?? '?'}': send identity, gzip, deflate or br`);
    case 'request.aborted':
      return new ApiError('invalid_param', 'The request body ended before its declared length');
    case 'request.size.invalid':
      return new ApiError('invalid_param', 'The request body does not match its Content-Length');
    default:
      if (e.status === 413) return new ApiError('payload_too_large', `Request body too large: at most ${BODY_LIMIT}`);
      if (e.status === 415) return new ApiError('unsupported_media_type', 'Unsupported request body encoding');
      // A decompression error (zlib's Z_DATA_ERROR, Z_BUF_ERROR) has no type of its own.
      return new ApiError('invalid_param', 'The request body could not be read (corrupt or truncated Content-Encoding?)');
  }
}
