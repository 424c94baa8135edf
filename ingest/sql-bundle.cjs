// @ts-check
'use strict';
const { createHash } = require('node:crypto');
const { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { dirname, join, relative, resolve } = require('node:path');

/**
 * The prebuilt `npm run sql`: ingest/sql-cli.ts and what it imports, bundled by esbuild into one CommonJS file
 * under dist/ (gitignored), rebuilt whenever a source it was built from changes. Why: through the tsx loader a cold
 * start cost 1.7 s of CPU against 0.7 s bundled (docs/analyst-sql.md, "Start-up"); CommonJS because an ES module
 * importing the DuckDB binding (CommonJS) runs Node's export scanner over its files: 0.36 s of a 2 s profile.
 *
 * Staleness: next to the bundle, `<name>.inputs.json` records a SHA-256 of every source file esbuild read and of
 * this file (the build options); any difference, a missing file or a missing bundle means a rebuild. Hashing the
 * ~40 inputs takes a few milliseconds, and unlike mtimes it survives checkouts, clock skew and copies. Plain
 * JavaScript because it runs before anything could compile TypeScript.
 */

const ROOT = resolve(__dirname, '..');

/** @typedef {{ root: string, entry: string, outFile: string }} BundleTarget */
/** @typedef {{ builder: string, inputs: Record<string, string | null>, packages: string[] }} BundleStamp */

/** @type {BundleTarget} */
const SQL_CLI = { root: ROOT, entry: 'ingest/sql-cli.ts', outFile: join(ROOT, 'dist', 'sql.cjs') };

/** @param {string} file */
function digest(file) {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return null;
  }
}

/** @param {BundleTarget} target */
const stampFile = (target) => `${target.outFile.replace(/\.c?js$/, '')}.inputs.json`;

/**
 * @param {BundleTarget} target
 * @returns {BundleStamp | null}
 */
function readStamp(target) {
  try {
    return JSON.parse(readFileSync(stampFile(target), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Why the bundle must be built, or null when it is current.
 * @param {BundleTarget} target
 * @returns {string | null}
 */
function staleReason(target) {
  const stamp = readStamp(target);
  if (!stamp || !existsSync(target.outFile)) return 'no bundle yet';
  if (stamp.builder !== digest(__filename)) return 'the build options changed';
  for (const [file, hash] of Object.entries(stamp.inputs)) {
    if (digest(join(target.root, file)) !== hash) return `${file} changed`;
  }
  return null;
}

/**
 * Writes under a per-process temp name, then renames: two processes building at once each leave a whole file.
 * @param {string} file
 * @param {string | Uint8Array} body
 */
function writeAtomic(file, body) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, body);
  renameSync(tmp, file);
}

/** @param {BundleTarget} target */
function build(target) {
  // Loaded only to build: esbuild's own start is ~0.1 s that a current bundle never pays.
  const esbuild = require('esbuild');
  const result = esbuild.buildSync({
    absWorkingDir: target.root,
    entryPoints: [target.entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Packages stay require()s of node_modules: the bundle holds our sources only, so only they decide staleness.
    packages: 'external',
    outfile: target.outFile,
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  /** @type {Record<string, string | null>} */
  const inputs = {};
  for (const file of Object.keys(result.metafile.inputs).sort()) inputs[file] = digest(join(target.root, file));
  const packages = new Set();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imp of output.imports) if (imp.external && !imp.path.startsWith('node:')) packages.add(imp.path);
  }
  /** @type {BundleStamp} */
  const stamp = { builder: digest(__filename) ?? '', inputs, packages: [...packages].sort() };
  mkdirSync(dirname(target.outFile), { recursive: true });
  writeAtomic(target.outFile, result.outputFiles[0].contents);
  writeAtomic(stampFile(target), `${JSON.stringify(stamp, null, 2)}\n`);
}

/**
 * The bundle's path, built first when missing or stale; `built` says why it was built (null: it was current).
 * @param {BundleTarget} [target]
 * @returns {{ file: string, built: string | null }}
 */
function ensureBundle(target = SQL_CLI) {
  const reason = staleReason(target);
  if (reason) build(target);
  return { file: target.outFile, built: reason };
}

module.exports = { ensureBundle, readStamp, SQL_CLI };

// `node ingest/sql-bundle.cjs` (make sql-bundle): build now rather than on the first `npm run sql`.
if (require.main === module) {
  const { file, built } = ensureBundle();
  console.log(`${relative(process.cwd(), file)}: ${built ? `built (${built})` : 'current'}`);
}
