import { basename } from 'node:path';
import type { RawInput } from '../sources/common/context.ts';

const DUCKDB_ERROR = /^(Binder|Conversion|Invalid Input|Parser|Catalog|Invalid) Error: ?/;

/**
 * A DuckDB error raised while a loader read its files (`read_csv` on a file whose columns changed, a value that does
 * not convert) says nothing of which file or what was expected: the same failure rewritten in those terms. Other
 * errors pass through unchanged (the dataset's own messages already name the file).
 */
export function explainLoadError(err: unknown, dataset: string, inputs: RawInput[]): unknown {
  if (!(err instanceof Error) || !DUCKDB_ERROR.test(err.message)) return err;
  const detail = err.message.replace(DUCKDB_ERROR, '').split('\n')[0].trim();
  // DuckDB names the file it was reading in most reader errors; otherwise every file of the batch is a suspect.
  const named = inputs.filter((i) => err.message.includes(i.path) || err.message.includes(basename(i.path)));
  const suspects = (named.length ? named : inputs).map((i) => basename(i.path));
  const files = suspects.length > 3 ? `${suspects.slice(0, 3).join(', ')} and ${suspects.length - 3} more` : suspects.join(', ') || '(no input files)';
  const column = /Referenced column "([^"]+)" not found/.exec(err.message)?.[1];
  const expected = column
    ? `the ${dataset} loader expects a column "${column}" that the file does not have: a changed or wrong file layout`
    : `not in the layout the ${dataset} loader expects (${detail})`;
  return new Error(`${dataset}: ${files}: ${expected}`, { cause: err });
}
