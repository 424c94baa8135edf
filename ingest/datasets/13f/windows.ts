import { quarterBounds } from '../../sources/common/normalize.ts';

/**
 * Which data set zip holds the reports of a reporting quarter. Zips cover FILING dates: `2023q4_form13f.zip`
 * (calendar quarter, until 2023) and since 2024 three-month windows such as `01mar2024-31may2024_form13f.zip`.
 * Reports are due 45 days after the quarter end, so the zip whose window contains that deadline is the one.
 */
const MON: Record<string, string> = {
  jan: '01',
  feb: '02',
  mar: '03',
  apr: '04',
  may: '05',
  jun: '06',
  jul: '07',
  aug: '08',
  sep: '09',
  oct: '10',
  nov: '11',
  dec: '12',
};

function windowOfZip(url: string): { start: string; end: string } | null {
  const name = (url.split('/').pop() ?? '').toLowerCase();
  let m = name.match(/^(\d{4})q([1-4])_form13f\.zip$/);
  if (m) {
    const b = quarterBounds(`${m[1]}Q${m[2]}`)!;
    return { start: b.start, end: b.end };
  }
  m = name.match(/^(\d{2})([a-z]{3})(\d{4})-(\d{2})([a-z]{3})(\d{4})_form13f\.zip$/);
  if (m && MON[m[2]] && MON[m[5]]) return { start: `${m[3]}-${MON[m[2]]}-${m[1]}`, end: `${m[6]}-${MON[m[5]]}-${m[4]}` };
  return null;
}

function deadlineOf(period: string): string | null {
  const b = quarterBounds(period);
  if (!b) return null;
  const d = new Date(`${b.end}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 45);
  return d.toISOString().slice(0, 10);
}

export function pickZipForPeriod(urls: string[], period: string): string | null {
  const deadline = deadlineOf(period);
  if (!deadline) return null;
  return (
    urls.find((u) => {
      const w = windowOfZip(u);
      return w != null && w.start <= deadline && deadline <= w.end;
    }) ?? null
  );
}
