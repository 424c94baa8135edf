import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A plain clone must hold every document its code and docs cite. The `../shared` folder beside the checkout (format
 * notes, engine notes, the API contract, fixtures) is not part of a clone, so a comment citing it points nowhere; the
 * facts it relied on are written up under `docs/`. Tests (under `test/`) may read the recorded fixtures there and are
 * not scanned.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SCANNED_DIRS = ['api', 'ingest', 'schemas', 'docs'];
const SCANNED_FILES = ['README.md', 'Makefile'];

/** Files in scope that git tracks or would track (a new page counts before its commit); a plain walk outside git. */
function scannedFiles(): string[] {
  let files: string[];
  try {
    const args = ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...SCANNED_DIRS, ...SCANNED_FILES];
    files = execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  } catch {
    const walk = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
    files = [...SCANNED_DIRS.filter((d) => existsSync(join(root, d))).flatMap(walk), ...SCANNED_FILES];
  }
  const binary = /\.(parquet|zip|gz|png|ico)$/i;
  return files.filter((f) => existsSync(join(root, f)) && statSync(join(root, f)).isFile() && !binary.test(f));
}

interface Offence {
  at: string;
  problem: string;
}

/** `shared/…` (with or without `../`), except the recorded fixtures, which only tests read. */
const SHARED_PATH = /(?<![\w-])(?:\.\.\/)?shared\/(?!fixtures\/)[\w./§-]*/g;
/** The names of the documents that lived in `../shared`, cited without their folder. */
const SHARED_DOCS = /\b(?:duckdb-lake|style-by-example|filings-api-spec)(?:\.md)?\b/g;
/** A path into `docs/` as written in a comment or a page: `docs/formats/04-form-13f.md`, `docs/engine-notes.md`. */
const DOCS_PATH = /(?<![\w/.-])docs\/[\w./-]*/g;
/** Any path to a Markdown file: it must resolve from the repository root or from the citing file's folder. */
const MD_PATH = /(?<![\w/.:-])(?:\.\.?\/)*[\w.-]+(?:\/[\w.-]+)+\.md\b/g;
/** Relative Markdown links in pages: `[text](formats/01-edgar-indexes.md#section)`. */
const MD_LINK = /\]\(([^)\s]+)\)/g;

function resolves(file: string, target: string): boolean {
  const path = target.replace(/[#?].*$/, '').replace(/[.,;:]+$/, '');
  if (!path) return true;
  return existsSync(join(root, path)) || existsSync(join(root, dirname(file), path));
}

/** What is wrong with one line of `file` (relative to the repository root); empty when nothing is. */
function lineProblems(file: string, line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(SHARED_PATH)) out.push(`cites ${m[0]} (outside the repository: write the fact up under docs/)`);
  if (!out.length) for (const m of line.matchAll(SHARED_DOCS)) out.push(`cites ${m[0]} (a document outside the repository)`);
  if (/\bformat notes?\b/i.test(line) && !/docs\/formats\/|\]\((?:\.\.\/)?formats\//.test(line)) {
    out.push('cites "the format notes" without naming a docs/formats/ page');
  }
  for (const m of line.matchAll(DOCS_PATH)) {
    const path = m[0].replace(/[.,;:]+$/, '');
    // A page or a folder (`docs/x.md`, `docs/formats/`); prose such as "12,000 docs/s" is neither.
    if (!/\/$|\.[a-z0-9]+$/i.test(path)) continue;
    if (!existsSync(join(root, path))) out.push(`cites ${path}, which does not exist`);
  }
  for (const m of line.matchAll(MD_PATH)) {
    if (m[0].startsWith('docs/') || m[0].includes('shared/') || resolves(file, m[0])) continue;
    out.push(`cites ${m[0]}, which resolves neither from the repository root nor from ${dirname(file)}/`);
  }
  if (file.endsWith('.md')) {
    for (const m of line.matchAll(MD_LINK)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('/')) continue;
      if (!existsSync(join(root, dirname(file), target.replace(/#.*$/, '')))) {
        out.push(`links ${target}, which does not exist relative to ${dirname(file)}/`);
      }
    }
  }
  return out;
}

function offences(): Offence[] {
  const out: Offence[] = [];
  for (const file of scannedFiles()) {
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const problem of lineProblems(file, line)) out.push({ at: `${file}:${i + 1}`, problem });
      });
  }
  return out;
}

describe('self-contained clone', () => {
  it('scans the source and documentation files', () => {
    const files = scannedFiles();
    expect(files).toContain('README.md');
    expect(files.some((f) => f.startsWith('docs/formats/'))).toBe(true);
    expect(files.some((f) => f.startsWith('ingest/') && f.endsWith('.ts'))).toBe(true);
    expect(files.some((f) => f.startsWith('test/'))).toBe(false);
  });

  it('no source or docs file cites a document outside the repository or a docs page that does not exist', () => {
    expect(offences().map((o) => `${o.at}: ${o.problem}`)).toEqual([]);
  });

  it('catches the citations it is meant to catch, and lets fixtures and real pages through', () => {
    const code = 'ingest/sources/edgar/archive/items.ts';
    const bad = [
      '// Parquet footers cached (shared/notes/duckdb-lake.md).',
      ' * see ../shared/formats/08-form-adv.md §4',
      ' * the layout of the duckdb-lake notes',
      '/** captions unverified in the format notes */',
      ' * (docs/formats/99-no-such-page.md)',
      ' * (formats/12-form-items-8k-10k-10q.md): relative to nothing in a code file',
    ];
    expect(bad.filter((line) => lineProblems(code, line).length === 0)).toEqual([]);
    const good = [
      'Parser tests read the real public filings in `../shared/fixtures/` (beside the checkout in CI).',
      ' * (docs/formats/12-form-items-8k-10k-10q.md §1, docs/engine-notes.md)',
      "import { DocumentLink } from '../enforcement/shared.ts';",
      'const shared: string[] = []; // sharedStrings.xml',
      'Ownership XML: 9,306 docs/s on one core.',
    ];
    expect(good.flatMap((line) => lineProblems(code, line))).toEqual([]);
    expect(lineProblems('docs/13f-funds.md', 'See [formats/04-form-13f.md](formats/04-form-13f.md).')).toEqual([]);
    expect(lineProblems('docs/13f-funds.md', 'See [the notes](notes/duckdb-lake.md).').length).toBeGreaterThan(0);
  });
});
