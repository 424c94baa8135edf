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
