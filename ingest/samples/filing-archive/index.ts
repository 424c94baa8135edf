/** The public surface of `ingest/samples/filing-archive` for `make demo` (api/demo.ts): import from here, not from its files. */
export type { SampleArchiveFiling } from './filing.ts';
export { writeSampleArchive } from './write-archive.ts';
