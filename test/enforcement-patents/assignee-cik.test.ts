import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assigneeResolver } from '../../ingest/datasets/patents/assignee-cik.ts';
import { openDuck, queryRows, sqlString } from '../../ingest/lake/duck.ts';
import { partitionDir } from '../../ingest/lake/layout.ts';
import type { LoadContext } from '../../ingest/sources/common/context.ts';
import { coreName, entityNamesTable, normalizeName } from '../../schemas/tables/entities.ts';

/**
 * Assignee → CIK through the entity directory as the lake holds it (`entity_names`, read through `tableRelation` like
 * every ingest that reads the lake's earlier rows). Only a name that points at one CIK links.
 */
describe('patent assignees linked to the entity directory', () => {
  let root: string;
  let duck: Awaited<ReturnType<typeof openDuck>>;
  const conn = () => duck.conn;
  const logs: string[] = [];
  const ctx = (lakeDir: string) =>
    ({ settings: { lakeDir }, sql: (q: string, p: unknown[] = []) => queryRows(conn(), q, p), log: (m: string) => logs.push(m) }) as unknown as LoadContext;

  async function writeNames(file: string, rows: [string, string][]): Promise<void> {
    const values = rows
      .map(([cik, name]) => `(${sqlString(cik)}, ${sqlString(name)}, ${sqlString(normalizeName(name))}, ${sqlString(coreName(name))})`)
      .join(', ');
    await conn().run(
      `COPY (SELECT cik, name, name_norm, name_core, NULL::DATE AS valid_from, NULL::DATE AS valid_to, true AS is_current, 1 AS parser_version
             FROM (VALUES ${values}) t(cik, name, name_norm, name_core)) TO ${sqlString(file)} (FORMAT parquet)`,
    );
  }

  beforeAll(async () => {
    duck = await openDuck();
    root = await mkdtemp(join(tmpdir(), 'assignee-cik-'));
    const dir = partitionDir(join(root, 'lake'), entityNamesTable, '00003');
    await mkdir(dir, { recursive: true });
    await writeNames(join(dir, 'data.parquet'), [
      ['0000320193', 'Apple Inc.'],
      ['0000350000', 'Northbridge Robotics LLC'],
      ['0000360000', 'Northbridge Robotics Corp'],
    ]);
  });
  afterAll(async () => {
    duck?.conn.closeSync();
    duck?.instance.closeSync();
    await rm(root, { recursive: true, force: true });
  });

  it('links a name to its one CIK, and leaves an ambiguous or unknown name null', async () => {
    const resolve = await assigneeResolver(ctx(join(root, 'lake')));
    expect(await resolve('APPLE INC')).toBe('0000320193');
    // Exact on the full name, where the name without its suffix would name two CIKs.
    expect(await resolve('Northbridge Robotics LLC')).toBe('0000350000');
    expect(await resolve('Northbridge Robotics')).toBeNull();
    expect(await resolve('Unknown Widgets Co')).toBeNull();
  });

  it('without a directory in the lake, every assignee stays null and the run says why', async () => {
    const resolve = await assigneeResolver(ctx(join(root, 'no-lake')));
    expect(await resolve('Apple Inc.')).toBeNull();
    expect(logs.some((m) => /entity directory \(entity_names\) not in the lake/.test(m))).toBe(true);
  });
});
