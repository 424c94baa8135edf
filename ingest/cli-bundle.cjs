// @ts-check
'use strict';
const { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join, relative, resolve } = require('node:path');

/**
 * The prebuilt processes: `npm run sql` (ingest/sql-cli.ts → dist/sql.cjs), `npm run ingest` (ingest/cli.ts →
 * dist/ingest.cjs), the API server `npm start` (api/main.ts → dist/api.cjs), `npm run keys` (api/keys-cli.ts) and
 * `npm run events` (ingest/events-cli.ts), each bundled by esbuild with what it imports into one CommonJS file
 * under dist/ (gitignored), rebuilt whenever a source it was built from changes;
 * ingest/cli-launch.cjs runs them. Why: through the tsx loader a cold start cost 1.5 s of CPU for the sql CLI
 * against 0.55 s bundled (docs/analyst-sql.md, "Start-up"), 2.4-2.6 s for `ingest --list` (tsx transpiles every
 * dataset module) against 0.56-0.65 s, and the API server's start to listening 2.9 s against 1.2 s (both in
 * docs/architecture.md);
 * CommonJS because an ES module importing the DuckDB binding (CommonJS) runs Node's export scanner over its files:
 * 0.36 s of a 2 s profile.
 *
 * Staleness: next to the bundle, `<name>.inputs.json` records the size, mtime and SHA-256 of every source file
 * esbuild read and of this file (the build options). A file whose size and mtime match is current (a stat each:
 * ~1 ms for the ~40 inputs of the sql CLI, where loading crypto and hashing them costs 15-30 ms of every start;
 * 5-30 ms for the ~250 of the ingest CLI on the shared 2-core machine); one whose mtime moved is compared by hash,
 * so a checkout or a `touch` rebuilds nothing; a changed hash, a missing input or a missing bundle rebuilds. Plain
 * JavaScript because it runs before anything could compile TypeScript.
 *
 * Some modules are found at run time: the ingest registry lists ingest/datasets/ (ingest/pipeline/registry.ts) and
 * the state store lists api/ for each area's migrations.ts (api/core/state-migrations.ts), each from its own
 * `import.meta.url`, importing each file by a computed path. A CommonJS bundle has no `import.meta.url`, and esbuild
 * cannot follow a computed import. So a target names those folders (`modules`): the build lists each folder by
 * discovery's rule (sorted, those holding the file, not `core`), and a generated module hands the module that
 * discovers them one loader per file (`provideDatasetModules`, `provideMigrationModules`: an `import()` of a literal
 * path, which esbuild bundles and evaluates only when called, so a dataset that throws while it loads is skipped and
 * reported as discovery skips it, instead of taking the whole process down); the bundle's entry imports that module
 * before its own entry, so it has run before the entry's `main()`. Nothing is hand-listed: a new folder is in the
 * next build. The stamp records the lists, and a start compares them with the folders now (a readdir, an
 * existsSync per folder): a folder added or removed since the build rebuilds.
 */

const ROOT = resolve(__dirname, '..');

/**
 * Modules found at run time: `<dir>/<folder>/<file>` for each folder, handed to `provide` of the `registry` module.
 * @typedef {{ dir: string, file: string, registry: string, provide: string }} FoundModules
 */
/**
 * `modules`: the run-time discoveries to bundle (one loader per file found at build time).
 * @typedef {{ root: string, entry: string, outFile: string, modules?: FoundModules[] }} BundleTarget
 */
/** @typedef {{ size: number, mtimeMs: number, sha256: string }} Fingerprint */
/**
 * `folders`: per `modules` dir, the folders found when it was built.
 * @typedef {{ builder: Fingerprint | null, inputs: Record<string, Fingerprint | null>, packages: string[], folders?: Record<string, string[]> }} BundleStamp
 */

/** @type {FoundModules} */
const DATASETS = { dir: 'ingest/datasets', file: 'dataset.ts', registry: 'ingest/pipeline/registry.ts', provide: 'provideDatasetModules' };
/** @type {FoundModules} */
const MIGRATIONS = { dir: 'api', file: 'migrations.ts', registry: 'api/core/state-migrations.ts', provide: 'provideMigrationModules' };

/** The processes, by the name `node ingest/cli-launch.cjs <name>` takes. */
const TARGETS = {
  /** @type {BundleTarget} */
  sql: { root: ROOT, entry: 'ingest/sql-cli.ts', outFile: join(ROOT, 'dist', 'sql.cjs') },
  /** @type {BundleTarget} */
  ingest: { root: ROOT, entry: 'ingest/cli.ts', outFile: join(ROOT, 'dist', 'ingest.cjs'), modules: [DATASETS] },
  /** @type {BundleTarget} */
  api: { root: ROOT, entry: 'api/main.ts', outFile: join(ROOT, 'dist', 'api.cjs'), modules: [DATASETS, MIGRATIONS] },
  /** @type {BundleTarget} */
  keys: { root: ROOT, entry: 'api/keys-cli.ts', outFile: join(ROOT, 'dist', 'keys.cjs'), modules: [MIGRATIONS] },
  /** @type {BundleTarget} */
  events: { root: ROOT, entry: 'ingest/events-cli.ts', outFile: join(ROOT, 'dist', 'events.cjs') },
};

/**
 * The folders as discovery finds them (ingest/pipeline/discover.ts): sorted, those holding the file, `core` skipped.
 * @param {FoundModules} found
 * @param {string} root
 * @returns {string[]}
 */
function foundFolders(found, root) {
  const dir = join(root, found.dir);
  return readdirSync(dir)
    .sort()
    .filter((name) => name !== 'core' && existsSync(join(dir, name, found.file)));
}

/**
 * Each `modules` dir's folders now.
 * @param {BundleTarget} target
 * @returns {Record<string, string[]> | undefined}
 */
function folderLists(target) {
  if (!target.modules) return undefined;
  return Object.fromEntries(target.modules.map((found) => [found.dir, foundFolders(found, target.root)]));
}

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
  for (const [dir, now] of Object.entries(folderLists(target) ?? {})) {
    const was = stamp.folders?.[dir] ?? [];
    const added = now.filter((d) => !was.includes(d));
    const removed = was.filter((d) => !now.includes(d));
    if (added.length || removed.length) {
      const change = [...added.map((d) => `+${d}`), ...removed.map((d) => `-${d}`)].join(', ');
      return { reason: `the folders of ${dir} changed (${change})`, touched: false };
    }
  }
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

const FOUND_MODULES = 'bundle:found-modules';

/**
 * A target with `modules`: the entry is generated, importing first a module (virtual, from the plugin below) that
 * hands each discovering module a loader per file found, then the target's entry. ES modules evaluate in import
 * order, so they have them before the entry's top-level code runs; the generated entry's own body would run only
 * after both.
 * @param {BundleTarget} target
 * @param {Record<string, string[]> | undefined} folders
 * @returns {Pick<import('esbuild').BuildOptions, 'entryPoints' | 'stdin' | 'plugins'>}
 */
function entryOf(target, folders) {
  if (!target.modules || !folders) return { entryPoints: [target.entry] };
  const rel = (/** @type {string} */ file) => JSON.stringify(`./${file}`);
  const modules = target.modules
    .flatMap((found, i) => {
      const loaders = folders[found.dir].map((d) => `[${JSON.stringify(d)}, () => import(${rel(`${found.dir}/${d}/${found.file}`)})]`);
      return [`import { ${found.provide} as provide${i} } from ${rel(found.registry)};`, `provide${i}([${loaders.join(', ')}]);`];
    })
    .join('\n');
  /** @type {import('esbuild').Plugin} */
  const plugin = {
    name: 'found-modules',
    setup(b) {
      b.onResolve({ filter: /^bundle:found-modules$/ }, () => ({ path: 'found-modules', namespace: 'bundle' }));
      b.onLoad({ filter: /.*/, namespace: 'bundle' }, () => ({ contents: modules, loader: 'js', resolveDir: target.root }));
    },
  };
  const contents = `import ${JSON.stringify(FOUND_MODULES)};\nimport ${rel(target.entry)};\n`;
  return { stdin: { contents, resolveDir: target.root, sourcefile: '<bundle-entry>', loader: 'js' }, plugins: [plugin] };
}

/**
 * Whether Node loads `file` as CommonJS (by its extension, else the nearest package.json's `type`, as Node decides).
 * @param {string} file
 */
function isCommonJs(file) {
  if (/\.(cjs|json|node)$/.test(file)) return true;
  if (file.endsWith('.mjs')) return false;
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) return JSON.parse(readFileSync(pkg, 'utf8')).type !== 'module';
    if (dirname(dir) === dir) return true;
  }
}

const OWN_RESOLVE = Symbol('cli-bundle');

/**
 * Packages our sources import that are CommonJS under `require` stay require()s of node_modules (the bundle holds
 * our sources, and only they decide staleness). ESM-only packages (p-queue, htmlparser2, entities) are bundled
 * instead, with what they import: Node's require() of an ES module hands back its namespace, and the bundle's
 * CommonJS interop then takes that namespace for the default export (`new PQueue()` failed: "not a constructor").
 * Their files are then inputs like ours.
 * @type {import('esbuild').Plugin}
 */
const externalCommonJs = {
  name: 'external-commonjs',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      // A package's own imports are bundled with it: a nested dependency may not resolve from dist/.
      if (args.pluginData === OWN_RESOLVE || args.importer.includes('/node_modules/')) return undefined;
      const r = await b.resolve(args.path, { kind: 'require-call', resolveDir: args.resolveDir, pluginData: OWN_RESOLVE });
      if (r.errors.length) return undefined; // esbuild's own resolution reports it
      return r.external || isCommonJs(r.path) ? { path: args.path, external: true } : undefined;
    });
  },
};

/** @param {BundleTarget} target */
async function build(target) {
  // Loaded only to build: esbuild's own start is ~0.1 s that a current bundle never pays.
  const esbuild = require('esbuild');
  const folders = folderLists(target);
  const entry = entryOf(target, folders);
  const result = await esbuild.build({
    ...entry,
    plugins: [externalCommonJs, ...(entry.plugins ?? [])],
    absWorkingDir: target.root,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: target.outFile,
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const { isBuiltin } = require('node:module');
  const packages = new Set();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imp of output.imports) if (imp.external && !isBuiltin(imp.path)) packages.add(imp.path);
  }
  mkdirSync(dirname(target.outFile), { recursive: true });
  writeAtomic(target.outFile, result.outputFiles[0].contents);
  // The generated entry and module (`<bundle-entry>`, `bundle:…`) are no files: the folder lists stand for them.
  const files = Object.keys(result.metafile.inputs).filter((file) => !file.startsWith('<') && !file.startsWith('bundle:'));
  writeStamp(target, files, [...packages], folders);
}

/**
 * Records the inputs' fingerprints as they are now (after a build, or after a checkout touched them).
 * @param {BundleTarget} target
 * @param {string[]} files
 * @param {string[]} packages
 * @param {Record<string, string[]>} [folders]
 */
function writeStamp(target, files, packages, folders) {
  /** @type {Record<string, Fingerprint | null>} */
  const inputs = {};
  for (const file of [...files].sort()) inputs[file] = fingerprint(join(target.root, file));
  /** @type {BundleStamp} */
  const stamp = { builder: fingerprint(__filename), inputs, packages: packages.sort(), folders };
  writeAtomic(stampFile(target), `${JSON.stringify(stamp, null, 2)}\n`);
}

/**
 * The bundle's path, built first when missing or stale; `built` says why it was built (null: it was current).
 * Async only to build (esbuild's plugins need its async API); a current bundle is a few stats.
 * @param {BundleTarget} target
 * @returns {Promise<{ file: string, built: string | null }>}
 */
async function ensureBundle(target) {
  const { reason, touched } = staleness(target);
  if (reason) await build(target);
  else if (touched) {
    // Same sources under new mtimes: record them, so the next start is back to a stat per file (best effort: a
    // read-only checkout just keeps hashing the touched files).
    const stamp = /** @type {BundleStamp} */ (readStamp(target));
    try {
      writeStamp(target, Object.keys(stamp.inputs), stamp.packages, stamp.folders);
    } catch {}
  }
  return { file: target.outFile, built: reason };
}

module.exports = { ensureBundle, readStamp, TARGETS };

// `node ingest/cli-bundle.cjs` (make bundles): build them all now rather than on each one's first use.
if (require.main === module) {
  (async () => {
    for (const target of Object.values(TARGETS)) {
      const { file, built } = await ensureBundle(target);
      console.log(`${relative(process.cwd(), file)}: ${built ? `built (${built})` : 'current'}`);
    }
  })().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
