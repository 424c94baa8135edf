import { describe, expect, it } from 'vitest';
import { runDaily, runNightly, startScheduler } from '../../api/core/scheduler.ts';
import { dependencyOrder, loadIngesters } from '../../ingest/pipeline/registry.ts';
import { loadSettings } from '../../schemas/settings.ts';

/** The jobs are called directly (no cron tick is awaited), so nothing here depends on the wall clock. */
describe('in-server schedule', () => {
  const settings = loadSettings({ DATA_DIR: '/tmp/none' });

  function fakeRun(fail: string[] = []) {
    const calls: { name: string; args: Record<string, unknown> }[] = [];
    const run = async (d: { name: string }, args: Record<string, unknown>) => {
      calls.push({ name: d.name, args });
      if (fail.includes(d.name)) throw new Error('upstream down');
      return { rowsWritten: 0, events: { appended: 0 } };
    };
    return { calls, run: run as never };
  }

  it('is off unless SCHEDULE=true', () => {
    const { calls, run } = fakeRun();
    const s = startScheduler(settings, () => {}, run);
    s.stop();
    expect(calls).toEqual([]);
  });

  it('the nightly job runs every dataset once, in dependency order (13F after the entity directory)', async () => {
    const { calls, run } = fakeRun();
    await runNightly(settings, () => {}, run);
    const expected = dependencyOrder(await loadIngesters()).map((d) => d.name);
    expect(calls.map((c) => c.name)).toEqual(expected);
    expect(calls.every((c) => Object.keys(c.args).length === 0)).toBe(true);
    const names = calls.map((c) => c.name);
    expect(names.indexOf('entities')).toBeLessThan(names.indexOf('13f'));
  });

  it('a failing dataset is logged and the night goes on', async () => {
    const { calls, run } = fakeRun(['entities']);
    const log: string[] = [];
    await runNightly(settings, (m) => log.push(m), run);
    expect(calls).toHaveLength((await loadIngesters()).length);
    expect(log).toContain('nightly entities failed: upstream down');
  });

  it('the daily lane runs the filing index for the given day', async () => {
    const { calls, run } = fakeRun();
    await runDaily(settings, '2026-03-04', () => {}, run);
    expect(calls).toEqual([{ name: 'filings', args: { date: '2026-03-04' } }]);
  });
});
