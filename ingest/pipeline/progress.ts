import type { Progress } from '../sources/common/context.ts';

/** Time one step of a run took, summed over its entries (a step of each batch shares its name). */
export interface StepTime {
  name: string;
  /** Wall time. */
  ms: number;
  /** Process CPU time (every thread: DuckDB's workers included). */
  cpuMs: number;
}

/** Where a progress reporter reads the time; tests pass their own. */
export interface ProgressClock {
  now(): number;
  cpuMs(): number;
}

const processClock: ProgressClock = {
  now: () => Date.now(),
  cpuMs: () => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  },
};

/**
 * Periodic progress lines for long work (rows, bytes, rate), on stderr so stdout stays clean for results; and the
 * wall and CPU time of each step (`steps`), which the run's summary reports.
 */
export function createProgress(
  label: string,
  opts: { intervalMs?: number; quiet?: boolean; clock?: ProgressClock } = {},
): Progress & { rowsSoFar(): number; bytesSoFar(): number; stop(): void; elapsedMs(): number; steps(): StepTime[] } {
  const clock = opts.clock ?? processClock;
  const started = clock.now();
  let rows = 0;
  let bytes = 0;
  let phase = '';
  let phaseStarted = started;
  let phaseCpu = clock.cpuMs();
  const spent = new Map<string, StepTime>();
  const timer = opts.quiet ? null : setInterval(() => process.stderr.write(`[${label}] ${line()}\n`), opts.intervalMs ?? 2000);
  timer?.unref();
  function line(): string {
    const now = clock.now();
    const s = Math.max(0.001, (now - started) / 1000);
    const counted =
      rows || bytes
        ? `${rows.toLocaleString('en-US')} rows, ${(bytes / 1e6).toFixed(1)} MB read, ${Math.round(rows / s).toLocaleString('en-US')} rows/s, `
        : '';
    const doing = phase ? `${phase}: ${((now - phaseStarted) / 1000).toFixed(1)} s in this step, ` : '';
    return `${doing}${counted}${s.toFixed(1)} s in all`;
  }
  /** Books the current step's time so far and starts its clock again. */
  function book(): void {
    const [now, cpu] = [clock.now(), clock.cpuMs()];
    if (phase) {
      const s = spent.get(phase) ?? spent.set(phase, { name: phase, ms: 0, cpuMs: 0 }).get(phase)!;
      s.ms += now - phaseStarted;
      s.cpuMs += cpu - phaseCpu;
    }
    [phaseStarted, phaseCpu] = [now, cpu];
  }
  return {
    rows(n = 1) {
      rows += n;
    },
    bytes(n) {
      bytes += n;
    },
    note(message) {
      if (!opts.quiet) process.stderr.write(`[${label}] ${message}\n`);
    },
    phase(name) {
      book();
      phase = name;
    },
    rowsSoFar: () => rows,
    bytesSoFar: () => bytes,
    elapsedMs: () => clock.now() - started,
    steps() {
      book();
      return [...spent.values()].map((s) => ({ ...s }));
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
