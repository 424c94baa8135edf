// @ts-check
'use strict';
const { join } = require('node:path');
const { ensureBundle, TARGETS } = require('./cli-bundle.cjs');

/**
 * `npm run sql`, `npm run ingest`, `npm start`, `npm run keys` and `npm run events` (`node ingest/cli-launch.cjs
 * <sql|ingest|api|keys|events> [arguments]`): runs the process's prebuilt bundle (built on first use, rebuilt when a
 * source changed: ingest/cli-bundle.cjs), so it starts as plain Node with the DuckDB binding, no TypeScript loader.
 * Should the bundle not build (no esbuild, a read-only checkout), the sources run through tsx instead: slower, same
 * output and exit codes.
 */
const name = process.argv[2] ?? '';
if (!Object.hasOwn(TARGETS, name)) {
  console.error(`usage: node ingest/cli-launch.cjs <${Object.keys(TARGETS).join('|')}> [arguments]`);
  process.exitCode = 2;
} else {
  const target = TARGETS[/** @type {keyof typeof TARGETS} */ (name)];
  // The CLI reads its own arguments from process.argv.slice(2): drop the target's name.
  process.argv.splice(2, 1);
  ensureBundle(target).then(
    ({ file }) => require(file),
    (err) => {
      console.error(
        `${name}: could not build the bundle (${String(err instanceof Error ? err.message : err).split('\n')[0]}); running the sources through tsx`,
      );
      const { spawn } = require('node:child_process');
      const child = spawn(process.execPath, ['--import', 'tsx', join(target.root, target.entry), ...process.argv.slice(2)], { stdio: 'inherit' });
      // The stop signals reach the sources as they reach a bundle run in this process: an operator's SIGTERM (or a
      // container's, this being its first process) stops the server gracefully instead of leaving it orphaned.
      /** @type {NodeJS.Signals[]} */
      const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
      for (const signal of signals) process.on(signal, () => child.kill(signal));
      child.on('exit', (code, signal) => {
        process.exitCode = code ?? (signal ? 128 + require('node:os').constants.signals[signal] : 1);
        for (const s of signals) process.removeAllListeners(s);
      });
    },
  );
}
