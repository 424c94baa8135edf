import type { SampleOptions } from '../../sources/common/context.ts';
import { Rng } from '../../samples/random.ts';
import { sampleDates, writeSampleSite, type SampleRelease } from '../../samples/sec-web-pages.ts';
import { COMPANIES, PEOPLE, sampleAmount } from '../../samples/sec-web-text.ts';
import { sampleLitigationReleases } from '../../samples/litigation-releases.ts';

const ACTS = [
  { prefix: '34', act: 'Securities Exchange Act of 1934', start: 100500 },
  { prefix: '33', act: 'Securities Act of 1933', start: 11300 },
  { prefix: 'IA', act: 'Investment Advisers Act of 1940', start: 6600 },
];

/** Demo administrative proceedings: settled orders with one release number per Act and a 3- file number. */
function sampleAdministrativeProceedings(seed: number, count: number, end = '2024-07-01'): SampleRelease[] {
  const r = new Rng(seed);
  return sampleDates(r, count, end).map((date, i) => {
    const primary = ACTS[i % ACTS.length];
    const numbers = [`${primary.prefix}-${primary.start - i}`];
    if (r.next() < 0.4) numbers.push(`34-${100400 - i}`);
    const respondent = r.next() < 0.6 ? r.pick(COMPANIES) : r.pick(PEOPLE);
    const fileNumber = r.next() < 0.7 ? `3-${21400 + i}` : undefined;
    const penalty = sampleAmount(r);
    const body = [
      'The Securities and Exchange Commission instituted settled administrative and cease-and-desist ' +
        `proceedings against ${respondent} pursuant to the ${primary.act}.`,
      r.next() < 0.5
        ? `${respondent} agreed to pay disgorgement of ${sampleAmount(r).text} and a civil money penalty of ${penalty.text}.`
        : `The order requires ${respondent} to pay a ${penalty.text} civil penalty.`,
    ];
    return {
      date,
      releaseNumbers: numbers,
      name: respondent,
      fileNumber,
      path: `/enforcement-litigation/administrative-proceedings/${numbers[0].toLowerCase()}-s`,
      seeAlso: [{ title: 'Order Instituting Proceedings', href: `/files/litigation/admin/${date.slice(0, 4)}/${numbers[0].toLowerCase()}.pdf` }],
      body,
    };
  });
}

export async function writeEnforcementSample(dir: string, opts: SampleOptions): Promise<void> {
  const n = Math.max(1, Math.round(30 * opts.scale));
  await writeSampleSite(dir, {
    slug: 'administrative-proceedings',
    title: 'Administrative Proceedings',
    kindTitle: 'Release',
    releases: sampleAdministrativeProceedings(opts.seed, n),
  });
  await writeSampleSite(dir, {
    slug: 'litigation-releases',
    title: 'Litigation Releases',
    kindTitle: 'Litigation Release',
    releases: sampleLitigationReleases(opts.seed + 100, n),
  });
}
