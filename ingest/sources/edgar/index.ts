/** The public surface of `ingest/sources/edgar` for the API (and other layers above): import from here, not from its files. */
export { acceptanceToIso } from './archive/acceptance-time.ts';
export { classify8kItems, excerptOf } from './archive/classify-8k.ts';
export { parseCoverPage } from './archive/cover.ts';
export { EFTS_WINDOW, type EftsHit, toFullTextHit, walkEfts } from './archive/efts.ts';
export { parseExhibit21 } from './archive/ex21.ts';
export { extractItem, findItemSections } from './archive/extract.ts';
export {
  createFilingStore,
  type FilingDocument,
  type FilingManifest,
  FilingNotFoundError,
  type FilingStore,
  formFromCover,
  primaryDocument,
} from './archive/filing-store.ts';
export { itemFormOf, parseItemParam, validItemKeys } from './archive/items.ts';
export { serveLocalArchive } from './archive/local-archive.ts';
export { cikBucket } from './bulk/local-files.ts';
export { pickRange } from './bulk/ticker-history.ts';
export { PROVIDER_ROLES } from './funds/ncen-xml.ts';
export { normalizeBrokerName } from './ownership/broker.ts';
export { type OwnershipRow, OwnershipXmlError, parseOwnershipXml } from './ownership/form4-xml.ts';
export { CONFIDENCE_FLOOR } from './proxy/extract.ts';
