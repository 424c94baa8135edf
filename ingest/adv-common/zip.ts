// kept for ingest/13f etc. until migrated: new code imports ../core/zip.ts.
export { zipMembers } from '../core/zip.ts';
export { writeZip } from '../core/zip.ts';
