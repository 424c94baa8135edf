// @ts-check
'use strict';
const { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join, relative, resolve } = require('node:path');

/**
 * The prebuilt `npm run sql`: ingest/sql-cli.ts and what it imports, bundled by esbuild into one CommonJS file
 * under dist/ (gitignored), rebuilt whenever a source it was built from changes. Why: through the tsx loader a cold
 * start cost 1.5 s of CPU against 0.55 s bundled (docs/analyst-sql.md, "Start-up"); CommonJS because an ES module
 * importing the DuckDB binding (CommonJS) runs Node's export scanner over its files: 0.36 s of a 2 s profile.
 *
 * Staleness: next to the bundle, `<name>.inputs.json` records the size, mtime and SHA-256 of every source file
 * esbuild read and of this file (the build options). A file whose size and mtime match is current (a stat each:
 * ~1 ms for the ~40 inputs, where loading crypto and hashing them costs 15-30 ms of every start); one whose
 * mtime moved is compared by hash, so a checkout or a `touch` rebuilds nothing; a changed hash, a missing input or
 * a missing bundle rebuilds. Plain JavaScript because it runs before anything could compile TypeScript.
 */

const ROOT = resolve(__dirname, '..');

/** @typedef {{ root: string, entry: string, outFile: string }} BundleTarget */
/** @typedef {{ size: number, mtimeMs: number, sha256: string }} Fingerprint */
/** @typedef {{ builder: Fingerprint | null, inputs: Record<string, Fingerprint | null>, packages: string[] }} BundleStamp */

/** @type {BundleTarget} */
const SQL_CLI = { root: ROOT, entry: 'ingest/sql-cli.ts', outFile: join(ROOT, 'dist', 'sql.cjs') };

/** @param {string} file */
function sha256(file) {
  return require('node:crypto').createHash('sha256').update(readFileSync(file)).digest('hex');
}

/**
 * @param {string} file
 * @returns {Fingerprint | null}
 */
function fingerprint(file) {
  try {
    const { size, mtimeMs } = statSync(file);
    return { size, mtimeMs, sha256: sha256(file) };
  } catch {
    return null;
  }
}

/**
 * How `file` compares with what `was` recorded: the same size and mtime, the same content under a new mtime, or
 * changed (or gone).
 * @param {string} file
 * @param {Fingerprint | null} was
 * @returns {'same' | 'touched' | 'changed'}
 */
function compare(file, was) {
  if (!was) return 'changed';
  try {
    const { size, mtimeMs } = statSync(file);
    if (size !== was.size) return 'changed';
    if (mtimeMs === was.mtimeMs) return 'same';
    return sha256(file) === was.sha256 ? 'touched' : 'changed';
  } catch {
    return 'changed';
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
 * Why the bundle must be built (null when it is current), and whether an input was only touched.
 * @param {BundleTarget} target
 * @returns {{ reason: string | null, touched: boolean }}
 */
function staleness(target) {
  const stamp = readStamp(target);
  if (!stamp || !existsSync(target.outFile)) return { reason: 'no bundle yet', touched: false };
  /** @type {[string, string, Fingerprint | null][]} */
  const checks = [['the build options', __filename, stamp.builder]];
  for (const [file, was] of Object.entries(stamp.inputs)) checks.push([file, join(target.root, file), was]);
  let touched = false;
  for (const [name, file, was] of checks) {
    const state = compare(file, was);
    if (state === 'changed') return { reason: `${name} changed`, touched };
    touched ||= state === 'touched';
  }
  return { reason: null, touched };
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
  const packages = new Set();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imp of output.imports) if (imp.external && !imp.path.startsWith('node:')) packages.add(imp.path);
  }
  mkdirSync(dirname(target.outFile), { recursive: true });
  writeAtomic(target.outFile, result.outputFiles[0].contents);
  writeStamp(target, Object.keys(result.metafile.inputs), [...packages]);
}

/**
 * Records the inputs' fingerprints as they are now (after a build, or after a checkout touched them).
 * @param {BundleTarget} target
 * @param {string[]} files
 * @param {string[]} packages
 */
function writeStamp(target, files, packages) {
  /** @type {Record<string, Fingerprint | null>} */
  const inputs = {};
  for (const file of [...files].sort()) inputs[file] = fingerprint(join(target.root, file));
  /** @type {BundleStamp} */
  const stamp = { builder: fingerprint(__filename), inputs, packages: packages.sort() };
  writeAtomic(stampFile(target), `${JSON.stringify(stamp, null, 2)}\n`);
}

/**
 * The bundle's path, built first when missing or stale; `built` says why it was built (null: it was current).
 * @param {BundleTarget} [target]
 * @returns {{ file: string, built: string | null }}
 */
function ensureBundle(target = SQL_CLI) {
  const { reason, touched } = staleness(target);
  if (reason) build(target);
  else if (touched) {
    // Same sources under new mtimes: record them, so the next start is back to a stat per file (best effort: a
    // read-only checkout just keeps hashing the touched files).
    const stamp = /** @type {BundleStamp} */ (readStamp(target));
    try {
      writeStamp(target, Object.keys(stamp.inputs), stamp.packages);
    } catch {}
  }
  return { file: target.outFile, built: reason };
}

module.exports = { ensureBundle, readStamp, SQL_CLI };

// `node ingest/sql-bundle.cjs` (make sql-bundle): build now rather than on the first `npm run sql`.
if (require.main === module) {
  const { file, built } = ensureBundle();
  console.log(`${relative(process.cwd(), file)}: ${built ? `built (${built})` : 'current'}`);
}
