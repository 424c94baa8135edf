import { tmpdir } from 'node:os';
import { openTopIndexFiles } from '../../ingest/lake/top-index-files.ts';

/**
 * Once the whole suite has ended (vitest `globalSetup`'s teardown): the top indexes its API lakes kept in the system's
 * temp folder at close (ingest/lake/top-index-files.ts: kept for a restart while their lake is there) are removed, as
 * any later reader's opening would remove them, their test lakes being gone by now.
 */
export function teardown(): void {
  openTopIndexFiles(tmpdir());
}
