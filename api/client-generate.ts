import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENT_TYPES_FILE, clientTypesSource } from './client-types.ts';

/** `npm run client:generate`: rewrites the typed client's generated types from the current routes. */
const root = fileURLToPath(new URL('..', import.meta.url));
await writeFile(join(root, CLIENT_TYPES_FILE), await clientTypesSource());
console.log(`wrote ${CLIENT_TYPES_FILE}`);
