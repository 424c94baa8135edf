import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createPreloader } from '../../ingest/lake/preload.ts';
import { createTopIndex } from '../../ingest/lake/top-index.ts';
import { holdings13f } from '../../schemas/tables/13f.ts';

/**
 * A lake reader closes its DuckDB instance after its background readers (the preloader, the top index) close. When
 * their close returned before the query they interrupted had ended, the instance was closed under it, and about one
 * run in ten of a test closing its app right after a 13F ingest died of SIGSEGV (test/events/diff-handlers.test.ts,
 * the CI of stop 39). Their close now resolves only once that query has ended and the connection is closed.
 *
 * A stand-in instance holds each query open until the test lets it end, so "in progress" needs no timing.
 */
function heldInstance() {
  const log: string[] = [];
  const held: { sql: string; end: (err?: Error) => void }[] = [];
  const conn = {
    run(sql: string) {
      // The top index's ATTACH and DETACH answer at once; every other statement waits for the test.
      if (sql.startsWith('ATTACH') || sql.startsWith('DETACH')) return Promise.resolve();
      log.push('run');
      return new Promise<void>((resolve, reject) => held.push({ sql, end: (err) => (err ? reject(err) : resolve()) }));
    },
    interrupt() {
      log.push('interrupt');
      for (const h of held.splice(0)) h.end(new Error('INTERRUPT Error: Interrupted!'));
    },
    closeSync() {
      log.push('closeSync');
    },
  };
  const instance = { connect: async () => conn } as unknown as DuckDBInstance;
  const started = async () => {
    for (let i = 0; i < 100 && !held.length; i++) await new Promise((r) => setImmediate(r));
    expect(held).toHaveLength(1);
  };
  /** Takes the query in progress out of the interrupt's reach: it ends only when the test calls its `end`. */
  const deaf = () => held.splice(0)[0];
  return { instance, log, started, deaf };
}

/** Starts `close` and checks that, having interrupted the query in progress, it still waits for that query to end. */
async function closeWaiting(close: () => Promise<void>, log: string[]): Promise<{ closing: Promise<void> }> {
  const closing = close();
  expect(await isSettled(closing)).toBe(false);
  expect(log).toEqual(['run', 'interrupt']);
  return { closing };
}

/** Whether `p` has settled, asked after every callback queued so far ran. */
async function isSettled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.finally(() => {
    done = true;
  });
  await new Promise((r) => setImmediate(r));
  return done;
}

describe('closing a lake reader’s background work', () => {
  it('the preloader’s close interrupts the read in progress and resolves after it ended, then closes its connection', async () => {
    const { instance, log, started } = heldInstance();
    const preloader = createPreloader(instance, 1e9);
    preloader.add([{ alias: 'serving_a', table: 'holdings_13f', partition: '2024Q4', bytes: 1 }], () => true);
    await started();
    const closing = preloader.close();
    await closing;
    expect(log).toEqual(['run', 'interrupt', 'closeSync']);
  });

  it('the preloader’s close waits for a read that does not end at once on interrupt', async () => {
    const { instance, log, started, deaf } = heldInstance();
    const preloader = createPreloader(instance, 1e9);
    preloader.add([{ alias: 'serving_a', table: 'holdings_13f', partition: '2024Q4', bytes: 1 }], () => true);
    await started();
    const read = deaf();
    const { closing } = await closeWaiting(() => preloader.close(), log);
    read.end();
    await closing;
    expect(log).toEqual(['run', 'interrupt', 'closeSync']);
  });

  it('the top index’s close waits for the build in progress, and reports no error for the build it interrupted', async () => {
    const { instance, log, started, deaf } = heldInstance();
    const errors: Error[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'top-close-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const index = await createTopIndex(instance, 'close-probe', { dir, onError: (err) => errors.push(err) });
    index.update({ ...holdings13f, name: 'close_probe' }, new Map([['2024Q4', { alias: 'serving_probe', top: true, fingerprint: 'f1' }]]), '');
    await started();
    const build = deaf();
    const { closing } = await closeWaiting(() => index.close(), log);
    build.end(new Error('INTERRUPT Error: Interrupted!'));
    await closing;
    expect(log).toEqual(['run', 'interrupt', 'closeSync']);
    expect(errors).toEqual([]);
    // Closed: a later update builds nothing.
    index.update({ ...holdings13f, name: 'close_probe' }, new Map([['2024Q3', { alias: 'serving_other', top: true, fingerprint: 'f2' }]]), '');
    await index.settled();
    expect(log).toEqual(['run', 'interrupt', 'closeSync']);
  });
});
