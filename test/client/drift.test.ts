import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, clientTypesSource } from '../../api/client-types.ts';

/**
 * The checked-in client types are what the current routes generate: the document is built in-process and run
 * through openapi-typescript in memory, and the result must equal client/generated/api.d.ts byte for byte.
 */
describe('the typed client is generated from the current document', () => {
  it(`${CLIENT_TYPES_FILE} is up to date`, async () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const checkedIn = readFileSync(join(root, CLIENT_TYPES_FILE), 'utf8');
    const fresh = await clientTypesSource();
    const stale = fresh !== checkedIn;
    expect(stale, `${CLIENT_TYPES_FILE} differs from what the current routes generate: run \`npm run client:generate\` and commit the result`).toBe(false);
  });
});
