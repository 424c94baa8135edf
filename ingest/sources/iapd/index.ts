/** The public surface of `ingest/sources/iapd` for the API (and other layers above): import from here, not from its files. */
export { bdSecNumber } from './bd-list.ts';
