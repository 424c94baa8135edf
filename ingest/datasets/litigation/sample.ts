import type { SampleOptions } from '../../sources/common/context.ts';
import { Rng } from '../../samples/random.ts';
import { sampleLitigationReleases } from '../../samples/litigation-releases.ts';
import { writeSampleSite } from '../../samples/sec-web-pages.ts';

export async function writeLitigationSample(dir: string, opts: SampleOptions): Promise<void> {
  await writeSampleSite(dir, {
    slug: 'litigation-releases',
    title: 'Litigation Releases',
    kindTitle: 'Litigation Release',
    releases: sampleLitigationReleases(opts.seed, Math.max(1, Math.round(30 * opts.scale))),
    rss: {
      title: 'Litigation Releases',
      description: 'The latest Litigation Releases from the Securities and Exchange Commission',
      random: new Rng(opts.seed + 1),
    },
  });
}
