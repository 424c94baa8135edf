import type { Progress } from './contract.ts';

/**
 * Periodic progress lines for long work (rows, bytes, rate), on stderr so stdout stays clean for results.
 */
export function createProgress(
  label: string,
  opts: { intervalMs?: number; quiet?: boolean } = {},
): Progress & { rowsSoFar(): number; bytesSoFar(): number; stop(): void; elapsedMs(): number } {
  const started = Date.now();
  let rows = 0;
  let bytes = 0;
  let phase = '';
  let phaseStarted = started;
  const timer = opts.quiet ? null : setInterval(() => process.stderr.write(`[${label}] ${line()}\n`), opts.intervalMs ?? 2000);
  timer?.unref();
  function line(): string {
    const s = Math.max(0.001, (Date.now() - started) / 1000);
    const counted =
      rows || bytes
        ? `${rows.toLocaleString('en-US')} rows, ${(bytes / 1e6).toFixed(1)} MB read, ${Math.round(rows / s).toLocaleString('en-US')} rows/s, `
        : '';
    const doing = phase ? `${phase}: ${((Date.now() - phaseStarted) / 1000).toFixed(1)} s in this step, ` : '';
    return `${doing}${counted}${s.toFixed(1)} s in all`;
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
      phase = name;
      phaseStarted = Date.now();
    },
    rowsSoFar: () => rows,
    bytesSoFar: () => bytes,
    elapsedMs: () => Date.now() - started,
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
