import { basename } from 'node:path';
import type { CatalogEntry } from '../lake/catalog.ts';
import type { BadRow } from '../lake/staging.ts';
import type { TableSpec } from '../../schemas/table.ts';

/**
 * The checks that decide whether a run may replace what the lake holds. Each names the file, the line where there
 * is one, and the reason in plain words; the runner collects them all and refuses the run (the lake stays as it
 * was, the CLI exits 3) unless `--force`.
 */
export class IngestRefused extends Error {
  constructor(
    readonly dataset: string,
    readonly reasons: string[],
  ) {
    super(`${dataset}: not replacing the lake (it is left as it was; --force replaces anyway):\n  - ${reasons.join('\n  - ')}`);
  }
}

const where = (b: BadRow) => `${b.file}${b.line != null ? `:${b.line}` : ''}: ${b.reason}`;

/**
 * Rows rejected against rows kept, per batch: every row rejected (a wrong file or a changed layout), or more than
 * the allowed share of them, means the run did not read what it was meant to.
 */
export function checkRejections(staged: number, bad: number, firstBad: BadRow | undefined, maxDrop: number): string | null {
  if (bad === 0) return null;
  const first = firstBad ? `; the first: ${where(firstBad)}` : '';
  if (staged === 0) return `every row was rejected (${bad} bad row(s))${first}`;
  if (bad > maxDrop * (staged + bad)) {
    return `${bad} of ${staged + bad} rows were rejected, more than INGEST_MAX_DROP=${maxDrop} of them${first}`;
  }
  return null;
}

/** One partition the run is about to write, with the raw files its rows came from. */
export interface PlannedPartition {
  table: TableSpec;
  value: string;
  rows: number;
  inputs: string[];
}

/**
 * Against the partition a run would replace (replace-mode tables only: a merge keeps every existing row):
 * a drop of more than `maxDrop` of its rows, or a snapshot built from several files re-built from only some of them.
 */
export function checkReplacement(dataset: string, plan: PlannedPartition, prior: CatalogEntry | null, maxDrop: number): string[] {
  if (plan.table.writeMode === 'merge' || !prior) return [];
  const before = prior.partitions.find((p) => p.value === plan.value && (!p.dataset || p.dataset === dataset));
  if (!before) return [];
  const out: string[] = [];
  const name = `${plan.table.name}/${plan.table.partitionBy}=${plan.value}`;
  if (before.rows > 0 && plan.rows < before.rows * (1 - maxDrop)) {
    const share = Math.round((1 - plan.rows / before.rows) * 100);
    out.push(`${name}: would replace ${before.rows} rows with ${plan.rows} (a drop of ${share}%, more than INGEST_MAX_DROP=${maxDrop})`);
  }
  // A partial set is this run's files all among the snapshot's, some missing; new file names (a newer download) are a
  // new set, not a partial one.
  const have = new Set(plan.inputs.map((p) => basename(p)));
  const had = new Set(before.inputs.map((i) => basename(i.path)));
  const missing = [...had].filter((n) => !have.has(n));
  if (missing.length && have.size > 0 && [...have].every((n) => had.has(n))) {
    out.push(`${name}: the snapshot was built from ${before.inputs.length} files and this run lacks ${missing.join(', ')} (pass the full set)`);
  }
  return out;
}

/**
 * Which raw inputs a row's `where.file` came from: the input itself, or a member of it (`file.zip!member.csv`).
 * Null when it names no input (the caller then attributes the partition to all of the batch's inputs).
 */
export function inputOfRow(file: string | undefined, inputs: string[]): string | null {
  if (!file) return null;
  const name = basename(file);
  for (const p of inputs) {
    const b = basename(p);
    if (file === p || name === b || file.startsWith(`${b}!`) || name.startsWith(`${b}!`)) return p;
  }
  return null;
}
