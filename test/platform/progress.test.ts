import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgress } from '../../ingest/pipeline/progress.ts';

/** Long ingests print a line every interval: the step they are in, and the row/byte counters once they move. */
describe('ingest progress lines', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  async function linesDuring(work: (p: ReturnType<typeof createProgress>) => void, quiet = false): Promise<string[]> {
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => {
      lines.push(String(chunk));
      return true;
    });
    // Fake timers: three 20 ms intervals pass at once, however busy the machine.
    vi.useFakeTimers({ now: new Date('2026-03-02T10:00:00Z') });
    const p = createProgress('toy', { intervalMs: 20, quiet });
    work(p);
    await vi.advanceTimersByTimeAsync(70);
    p.stop();
    return lines;
  }

  it('names the current step when SQL work moves no counter', async () => {
    const lines = await linesDuring((p) => p.phase('writing holdings_13f'));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^\[toy\] writing holdings_13f: \d+\.\d s in this step, \d+\.\d s in all\n$/);
  });

  it('shows rows, bytes and rate once rows are counted', async () => {
    const lines = await linesDuring((p) => {
      p.rows(1500);
      p.bytes(2_500_000);
    });
    expect(lines[0]).toMatch(/^\[toy\] 1,500 rows, 2\.5 MB read, [\d,]+ rows\/s, \d+\.\d s in all\n$/);
  });

  it('prints nothing when quiet', async () => {
    expect(
      await linesDuring((p) => {
        p.phase('x');
        p.note('y');
      }, true),
    ).toEqual([]);
  });
});

/** The run's summary reports each step's wall and CPU time, from the reporter's clock (injected here). */
describe('ingest step times', () => {
  it('sums each step over its entries and books the current step when read', () => {
    let [now, cpu] = [1_000, 50];
    const p = createProgress('toy', { quiet: true, clock: { now: () => now, cpuMs: () => cpu } });
    [now, cpu] = [1_100, 60]; // before any step: booked to none
    p.phase('reading inputs');
    [now, cpu] = [1_400, 460];
    p.phase('writing holdings_13f');
    [now, cpu] = [2_400, 2_460];
    p.phase('reading inputs');
    [now, cpu] = [2_500, 2_480];
    expect(p.steps()).toEqual([
      { name: 'reading inputs', ms: 400, cpuMs: 420 },
      { name: 'writing holdings_13f', ms: 1_000, cpuMs: 2_000 },
    ]);
    // Read again later: only the time since the last read is added.
    [now, cpu] = [2_600, 2_500];
    expect(p.steps()[0]).toEqual({ name: 'reading inputs', ms: 500, cpuMs: 440 });
    expect(p.elapsedMs()).toBe(1_600);
  });
});
