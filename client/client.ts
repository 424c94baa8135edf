import createClient, { type Client, type ClientPathsWithMethod, type MaybeOptionalInit, type MethodResponse } from 'openapi-fetch';
import { FilingsApiError } from './errors.ts';
import { type RetryOptions, retryingFetch } from './retry.ts';
import type { paths } from './generated/api.d.ts';

/**
 * The typed client: every path, parameter and body comes from the generated `paths` (never from component names,
 * which the document may rename), so a call the API would refuse for its shape does not compile.
 */
export type RawClient = Client<paths>;
type Method = 'get' | 'post' | 'patch' | 'delete';
export type PathsWith<M extends Method> = ClientPathsWithMethod<RawClient, M>;
type InitOf<M extends Method, P extends PathsWith<M>> = MaybeOptionalInit<paths[P], M>;
/** The init argument, optional exactly when the operation has no required parameter or body. */
type InitArgs<M extends Method, P extends PathsWith<M>> = undefined extends InitOf<M, P> ? [init?: InitOf<M, P>] : [init: InitOf<M, P>];
/** The success body of an operation. */
export type ResponseOf<M extends Method, P extends PathsWith<M>> = MethodResponse<RawClient, M, P>;

type QueryOf<P extends PathsWith<'get'>> = NonNullable<paths[P]['get'] extends { parameters: { query?: infer Q } } ? Q : never>;
/** The list operations: GET paths that take a `cursor`. */
export type ListPath = { [P in PathsWith<'get'>]: [QueryOf<P>] extends [never] ? never : 'cursor' extends keyof QueryOf<P> ? P : never }[PathsWith<'get'>];
/** One record of a list operation. */
export type ItemOf<P extends ListPath> = ResponseOf<'get', P> extends { data: (infer I)[] } ? I : never;

export interface FilingsClientOptions {
  /** The API's address, e.g. `http://localhost:8080` (the paths carry `/v1`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`; leave out for the public endpoints only. */
  apiKey?: string;
  retry?: RetryOptions;
  /** The fetch to send requests with (default: the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
  headers?: Record<string, string>;
}

export interface FilingsClient {
  /** The underlying openapi-fetch client (auth and 429 retries applied; answers `{data, error, response}`, never throws). */
  raw: RawClient;
  /** Calls an operation: resolves to its success body, throws FilingsApiError on any other status. */
  get<P extends PathsWith<'get'>>(path: P, ...init: InitArgs<'get', P>): Promise<ResponseOf<'get', P>>;
  post<P extends PathsWith<'post'>>(path: P, ...init: InitArgs<'post', P>): Promise<ResponseOf<'post', P>>;
  patch<P extends PathsWith<'patch'>>(path: P, ...init: InitArgs<'patch', P>): Promise<ResponseOf<'patch', P>>;
  delete<P extends PathsWith<'delete'>>(path: P, ...init: InitArgs<'delete', P>): Promise<ResponseOf<'delete', P>>;
  /** Every page of a list operation, following `page.next_cursor` from the given query to the last page. */
  pages<P extends ListPath>(path: P, ...init: InitArgs<'get', P>): AsyncGenerator<ResponseOf<'get', P>>;
  /** Every record of a list operation, across all its pages. */
  items<P extends ListPath>(path: P, ...init: InitArgs<'get', P>): AsyncGenerator<ItemOf<P>>;
}

interface LooseInit {
  params?: { query?: Record<string, unknown>; path?: Record<string, unknown> };
  [key: string]: unknown;
}

export function createFilingsClient(options: FilingsClientOptions): FilingsClient {
  const base = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const raw = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch(base, options.retry),
    headers: { ...options.headers, ...(options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {}) },
  });

  // The typed signatures are on FilingsClient; inside, one untyped path serves every method.
  const call = async (method: Method, path: string, init?: LooseInit): Promise<never> => {
    const { data, error, response } = await (
      raw.request as (m: Method, p: string, i?: LooseInit) => Promise<{ data?: unknown; error?: unknown; response: Response }>
    )(method, path, init);
    if (!response.ok) throw new FilingsApiError(response, error);
    return data as never;
  };

  async function* pages(path: string, init?: LooseInit): AsyncGenerator<never> {
    let cursor = init?.params?.query?.cursor as string | undefined;
    for (;;) {
      const query = { ...init?.params?.query, ...(cursor ? { cursor } : {}) };
      const body: { page?: { next_cursor: string | null } } = await call('get', path, { ...init, params: { ...init?.params, query } });
      yield body as never;
      const next = body.page?.next_cursor ?? null;
      if (next === null) return;
      // A server that handed back the cursor it was given would page forever.
      if (next === cursor) throw new Error(`${path}: the server returned the same next_cursor twice`);
      cursor = next;
    }
  }

  async function* items(path: string, init?: LooseInit): AsyncGenerator<never> {
    for await (const page of pages(path, init)) yield* (page as { data: never[] }).data;
  }

  return {
    raw,
    get: (path, ...init) => call('get', path, init[0] as LooseInit),
    post: (path, ...init) => call('post', path, init[0] as LooseInit),
    patch: (path, ...init) => call('patch', path, init[0] as LooseInit),
    delete: (path, ...init) => call('delete', path, init[0] as LooseInit),
    pages: (path, ...init) => pages(path, init[0] as LooseInit),
    items: (path, ...init) => items(path, init[0] as LooseInit),
  };
}
