// kept for ingest/13f etc. until migrated: new code imports ../core/sgml.ts.
export { readSubmissionHeader } from '../core/sgml.ts';
export { extractXmlDocuments } from '../core/sgml.ts';
export { isSubmissionContainer } from '../core/sgml.ts';
