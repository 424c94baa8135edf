import { runIngest } from '../../ingest/pipeline/runner.ts';
import { loadSettings } from '../../schemas/settings.ts';
import { twoTableIngester } from './toy-two-tables.ts';

/** Runs the two-table toy ingest and kills its own process (SIGKILL, no cleanup) right after the commit's first rename. */
await runIngest(twoTableIngester, { from: process.argv[2] }, loadSettings(), {
  quiet: true,
  afterRename: (done) => {
    if (done === 1) process.kill(process.pid, 'SIGKILL');
  },
});
