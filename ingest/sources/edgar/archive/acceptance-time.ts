/**
 * EDGAR stamps a filing's acceptance in the regulator's local time (US Eastern, with daylight saving), written as
 * `20240308120145` in submission headers and `2023-03-06 17:29:21` on filing index pages. This turns either into
 * an ISO 8601 UTC timestamp; a bare filing date (`2024-03-08` / `20240308`) becomes that day at 00:00 UTC.
 */
const EASTERN = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** Milliseconds by which Eastern wall-clock time is ahead of UTC at the instant `utcMs` (negative: −4 h or −5 h). */
function easternOffsetMs(utcMs: number): number {
  const part = Object.fromEntries(EASTERN.formatToParts(new Date(utcMs)).map((p) => [p.type, p.value]));
  const wall = Date.UTC(Number(part.year), Number(part.month) - 1, Number(part.day), Number(part.hour), Number(part.minute), Number(part.second));
  return wall - utcMs;
}

function easternToUtc(y: number, mo: number, d: number, h: number, mi: number, s: number): string {
  const wallAsUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  // The offset at the guessed instant, then once more at the corrected one: right on both sides of a DST switch.
  let utc = wallAsUtc - easternOffsetMs(wallAsUtc);
  utc = wallAsUtc - easternOffsetMs(utc);
  return new Date(utc).toISOString().replace('.000Z', 'Z');
}

export function acceptanceToIso(raw: string | null | undefined): string | null {
  const s = raw?.trim();
  if (!s) return null;
  const stamp = s.match(/^(\d{4})-?(\d{2})-?(\d{2})[ T]?(\d{2}):?(\d{2}):?(\d{2})$/);
  if (stamp) {
    const [y, mo, d, h, mi, sec] = stamp.slice(1).map(Number);
    return easternToUtc(y, mo, d, h, mi, sec);
  }
  const day = s.match(/^(\d{4})-?(\d{2})-?(\d{2})$/);
  return day ? `${day[1]}-${day[2]}-${day[3]}T00:00:00Z` : null;
}
