import { startContractApp } from '../support/contract-app.ts';
import { buildProbes, eachProbe, type Probe, sendProbe } from '../support/fuzz-probes.ts';
import { type BenchResult, percentile, ratio } from './support.ts';

/**
 * How long the fuzz suite's hostile answers take (#19: every answer within 2 s), beside the same app's well-formed
 * reads in the same run. The suite (test/contract/fuzz.test.ts) checks what the answers hold; their time is a figure
 * of the machine, so it is printed here and never asserted by a test. Same probes, same app setup, same concurrency.
 * The baseline is each GET operation's well-formed call (a well-formed write would change what later probes see).
 */
const BOUND_MS = 2_000;

async function timed(probes: Probe[], send: (p: Probe) => Promise<number>): Promise<{ ms: number[]; slowest: string }> {
  const ms: number[] = [];
  let slowest = { ms: -1, label: '' };
  await eachProbe(probes, async (p) => {
    const t = await send(p);
    ms.push(t);
    if (t > slowest.ms) slowest = { ms: t, label: p.label };
  });
  return { ms, slowest: slowest.label };
}

function figures(ms: number[]): Record<string, number> {
  return { requests: ms.length, p50_ms: percentile(ms, 50), p99_ms: percentile(ms, 99), max_ms: percentile(ms, 100) };
}

export default async function run(): Promise<BenchResult[]> {
  const contract = await startContractApp({ AUTH_FAILURE_BURST: '100000' });
  try {
    const { hostile, wellFormed } = await buildProbes(contract);
    const send = async (p: Probe) => (await sendProbe(contract, p)).ms;
    const reads = wellFormed.filter((p) => p.method === 'get');
    // The well-formed reads first and last, so neither side always gets the warmer app.
    const before = await timed(reads, send);
    const bad = await timed(hostile, send);
    const after = await timed(reads, send);
    const base = [...before.ms, ...after.ms];
    return [
      { name: 'fuzz: well-formed reads (baseline)', figures: { ...figures(base), slowest: after.slowest } },
      {
        name: 'fuzz: hostile input',
        figures: { ...figures(bad.ms), over_2s: bad.ms.filter((t) => t > BOUND_MS).length, bound_ms: BOUND_MS, slowest: bad.slowest },
      },
      {
        name: 'fuzz: hostile ÷ well-formed',
        figures: { p50: ratio(percentile(bad.ms, 50), percentile(base, 50)), p99: ratio(percentile(bad.ms, 99), percentile(base, 99)) },
      },
    ];
  } finally {
    await contract.close();
  }
}
