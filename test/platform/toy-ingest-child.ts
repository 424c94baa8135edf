import { runIngest } from '../../ingest/pipeline/runner.ts';
import { loadSettings } from '../../schemas/settings.ts';
import { toyIngester } from './toy-dataset.ts';

/** Runs the toy ingest in its own process (as `npm run ingest` would) against DATA_DIR. */
const s = await runIngest(toyIngester(), { from: process.argv[2] }, loadSettings(), { quiet: true });
console.log(JSON.stringify({ rows: s.rowsWritten }));
