import type { RequestHandler } from 'express';
import { ValidationError } from './errors.ts';

/**
 * A path segment that is not valid percent-encoding (`/v1/advisers/%zz`, a lone `%E0%A4`) makes Express's router
 * throw while it decodes the route's parameters, which reached the error handler as a 500. This runs first and
 * answers such a path as the router would have matched it: a 422 naming the path parameter of the first endpoint
 * whose template fits the segments; a path no template fits goes on to the 404 of an unknown route.
 */
export function rejectMalformedPathParams(templates: readonly string[]): RequestHandler {
  const routes = templates.map((t) => t.split('/'));
  return (req, _res, next) => {
    if (!req.path.includes('%')) return next();
    const segments = req.path.split('/');
    const bad = segments.findIndex((s) => !decodes(s));
    if (bad < 0) return next();
    for (const route of routes) {
      if (route.length !== segments.length) continue;
      const param = /^\{(\w+)\}$/.exec(route[bad])?.[1];
      if (!param) continue;
      if (route.every((part, i) => part.startsWith('{') || part === segments[i])) {
        const detail = { loc: ['path', param], msg: 'Input should be a valid percent-encoded UTF-8 string', type: 'url_decoding', input: segments[bad] };
        return next(new ValidationError([detail]));
      }
    }
    next();
  };
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}
