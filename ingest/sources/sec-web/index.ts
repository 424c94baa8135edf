/** The public surface of `ingest/sources/sec-web` for the API (and other layers above): import from here, not from its files. */
export { ACTION_TYPES } from './action-type.ts';
