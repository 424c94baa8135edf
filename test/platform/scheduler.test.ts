import { describe, expect, it, vi } from 'vitest';
import { startScheduler } from '../../api/core/scheduler.ts';
import { loadIngesters } from '../../ingest/pipeline/registry.ts';
import { loadSettings } from '../../schemas/settings.ts';

describe('in-server schedule', () => {
  it('is off unless SCHEDULE=true', () => {
    const calls: unknown[] = [];
    const s = startScheduler(loadSettings({ DATA_DIR: '/tmp/none' }), () => {}, (async (...a: unknown[]) => { calls.push(a); }) as never);
    s.stop();
    expect(calls).toEqual([]);
  });

  it('runs every dataset nightly and the filing index daily lane for the day', async () => {
    const names = (await loadIngesters()).map((d) => d.name);
    const calls: { name: string; args: Record<string, unknown> }[] = [];
    const fake = async (d: { name: string }, args: Record<string, unknown>) => {
      calls.push({ name: d.name, args });
      return { rowsWritten: 0, events: { appended: 0 } };
    };
    // Fake timers and clock: the every-second schedules fire three times in 3.2 s of fake time, on a known day.
    vi.useFakeTimers({ now: new Date('2026-03-02T10:00:00.500Z') });
    try {
      const s = startScheduler(
        loadSettings({ DATA_DIR: '/tmp/none', SCHEDULE: 'true', NIGHTLY_CRON: '* * * * * *', DAILY_CRON: '* * * * * *' }),
        () => {},
        fake as never,
      );
      await vi.advanceTimersByTimeAsync(3200);
      s.stop();
    } finally {
      vi.useRealTimers();
    }
    const nightly = calls.filter((c) => !c.args.date).map((c) => c.name);
    for (const n of names) expect(nightly).toContain(n);
    const daily = calls.filter((c) => c.args.date);
    expect(daily.length).toBeGreaterThan(0);
    expect(daily[0]).toEqual({ name: 'filings', args: { date: '2026-03-02' } });
  });
});
