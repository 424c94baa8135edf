import type { SampleOptions } from '../../sources/common/context.ts';
import { Rng } from '../../samples/random.ts';
import { sampleDates, writeSampleSite, type SampleRelease } from '../../samples/sec-web-pages.ts';
import { sampleAmount } from '../../samples/sec-web-text.ts';

/** Demo final orders; dates straddle October 1 so fiscal years differ from calendar years. */
export function sampleWhistleblowerOrders(seed: number, count: number, end = '2024-11-15'): SampleRelease[] {
  const r = new Rng(seed);
  return sampleDates(r, count, end).map((date, i) => {
    const n = 101600 - i * 3;
    const denial = r.next() < 0.25;
    const amount = sampleAmount(r);
    const summary = denial
      ? "The Commission denied the award application because the claimant's information did not lead to the success of the covered action."
      : r.next() < 0.2
        ? 'The Commission ordered an award of ten percent of the monetary sanctions collected in the covered ' +
          'action to a whistleblower who provided original information.'
        : `The Commission awarded approximately ${amount.text} to a whistleblower whose information and assistance led to a successful enforcement action.`;
    return {
      date,
      releaseNumbers: [`34-${n}`],
      name: denial ? 'Order Determining Whistleblower Award Claim (Denial)' : 'Order Determining Whistleblower Award Claim',
      path: `/files/rules/other/${date.slice(0, 4)}/34-${n}.pdf`,
      seeAlso: [],
      summary,
    };
  });
}

export async function writeWhistleblowerSample(dir: string, opts: SampleOptions): Promise<void> {
  await writeSampleSite(dir, {
    slug: 'whistleblower-final-orders',
    title: 'Final Orders — Whistleblower Award Determinations',
    kindTitle: 'Release',
    releases: sampleWhistleblowerOrders(opts.seed, Math.max(1, Math.round(20 * opts.scale))),
    summaryColumn: true,
  });
}
