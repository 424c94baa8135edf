import type { SampleOptions } from '../../sources/common/context.ts';
import { Rng } from '../../samples/random.ts';
import { sampleDates, writeSampleSite, type SampleRelease } from '../../samples/sec-web-pages.ts';

const ISSUERS = [
  'Cosmos Health Solutions Inc.',
  'Red Cliff Minerals Corp.',
  'NanoVista Labs, Inc.',
  'Pacific Sun Beverage Co.',
  'Orbital Freight Systems Ltd.',
  'Greenfield Cannabis Holdings, Inc.',
  'Atlas Quantum AI Corp.',
];

function sampleTradingSuspensions(seed: number, count: number, end = '2024-07-01'): SampleRelease[] {
  const r = new Rng(seed);
  return sampleDates(r, count, end).map((date, i) => {
    const n = 100300 - i * 7;
    const issuers = r.next() < 0.25 ? [r.pick(ISSUERS), r.pick(ISSUERS)].filter((x, j, a) => a.indexOf(x) === j) : [r.pick(ISSUERS)];
    const ticker = issuers[0].replace(/[^A-Z]/g, '').slice(0, 4) || 'XXXX';
    return {
      date,
      releaseNumbers: [`34-${n}`],
      name: issuers.join(' and '),
      fileNumber: `3-${21500 + i}`,
      path: `/enforcement-litigation/trading-suspensions/34-${n}`,
      seeAlso: [{ title: 'Order of Suspension of Trading', href: `/files/litigation/suspensions/${date.slice(0, 4)}/34-${n}.pdf` }],
      body: [
        'The Securities and Exchange Commission announced the temporary suspension of trading in the ' +
          `securities of ${issuers[0]} (ticker: ${ticker}) commencing at 9:30 a.m. EDT on ${date} and ` +
          'terminating at 11:59 p.m. EDT ten trading days later.',
        'The Commission temporarily suspended trading because of questions regarding the accuracy and ' +
          "adequacy of publicly disseminated information concerning the company's business operations.",
      ],
    };
  });
}

export async function writeTradingSuspensionsSample(dir: string, opts: SampleOptions): Promise<void> {
  await writeSampleSite(dir, {
    slug: 'trading-suspensions',
    title: 'Trading Suspensions',
    kindTitle: 'Release',
    releases: sampleTradingSuspensions(opts.seed, Math.max(1, Math.round(20 * opts.scale))),
  });
}
