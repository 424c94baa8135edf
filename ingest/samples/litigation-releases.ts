import { Rng } from './random.ts';
import { sampleDates, type SampleRelease } from './sec-web-pages.ts';
import { civilActionNumber, COMPANIES, DISTRICTS, PEOPLE, sampleAmount } from './sec-web-text.ts';

/** Demo litigation releases: listing pages, release pages with sanctions in prose, and the RSS feed. */
export function sampleLitigationReleases(seed: number, count: number, end = '2024-07-01', firstNumber = 26040): SampleRelease[] {
  const r = new Rng(seed);
  return sampleDates(r, count, end).map((date, i) => {
    const n = firstNumber - i;
    const company = r.pick(COMPANIES);
    const people = [r.pick(PEOPLE), r.pick(PEOPLE)].filter((p, j, a) => a.indexOf(p) === j);
    const name = r.next() < 0.4 ? `${company} and ${people.join(', ')}` : r.next() < 0.5 ? `${people[0]} et al.` : people[0];
    const year = Number(date.slice(0, 4));
    const kind = r.int(0, 2);
    const body = [
      `The Securities and Exchange Commission announced that on ${date} the United States District Court for the ${r.pick(DISTRICTS)} ` +
        (kind === 0
          ? `entered a final judgment against ${people[0]}.`
          : kind === 1
            ? `granted the SEC's request for an asset freeze against ${company}.`
            : `received the SEC's complaint against ${name}.`),
      `The case is SEC v. ${people[0]}, Civil Action No. ${civilActionNumber(r, year)}.`,
    ];
    if (kind === 0) {
      const d = sampleAmount(r);
      const p = sampleAmount(r);
      body.push(
        `The final judgment orders ${people[0]} to pay disgorgement of ${d.text}, prejudgment interest of ` +
          `$${r.int(1000, 90000).toLocaleString('en-US')}, and a civil penalty of ${p.text}.`,
      );
    }
    const path = `/enforcement-litigation/litigation-releases/lr-${n}`;
    return {
      date,
      releaseNumbers: [`LR-${n}`],
      name,
      path,
      seeAlso: [{ title: kind === 0 ? `Final Judgment - ${people[0]}` : 'SEC Complaint', href: `/files/litigation/complaints/${year}/comp${n}.pdf` }],
      body,
    };
  });
}
