/** The public surface of `ingest/sources/sec-web` for the API (and other layers above): import from here, not from its files. */
export { ACTION_TYPES } from './action-type.ts';
/** The calendar year the ingest partitions a release's date by (the lists' walk bounds use the same). */
export { yearOf } from './record-fields.ts';
