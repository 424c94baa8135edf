// @ts-check
'use strict';
const { join } = require('node:path');
const { ensureBundle } = require('./sql-bundle.cjs');

/**
 * `npm run sql`: runs the prebuilt bundle of ingest/sql-cli.ts (built on first use, rebuilt when a source changed:
 * ingest/sql-bundle.cjs), so a query starts as plain Node with the DuckDB binding, no TypeScript loader. Should the
 * bundle not build (no esbuild, a read-only checkout), the sources run through tsx instead: slower, same answers.
 */
/** @returns {string | null} */
function builtBundle() {
  try {
    return ensureBundle().file;
  } catch (err) {
    console.error(`sql: could not build the bundle (${String(err instanceof Error ? err.message : err).split('\n')[0]}); running the sources through tsx`);
    return null;
  }
}

const bundle = builtBundle();
if (bundle) require(bundle);
else {
  const { spawnSync } = require('node:child_process');
  const child = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, 'sql-cli.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exitCode = child.status ?? 1;
}
