/** The public surface of `ingest/sources/common` for the API (and other layers above): import from here, not from its files. */
export { createHttpClient, type HttpClient, NotConfiguredError, UpstreamError } from './http.ts';
export { normalizeAccession, padCik, quarterOf, toIsoDate } from './normalize.ts';
export { normalizePersonName } from './person-names.ts';
