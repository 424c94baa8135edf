import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContractApp, fill, operationsOf, query, startContractApp } from '../support/contract-app.ts';
import { buildProbes, eachProbe, HTML_IS_502, leakIn, type Probe, sendProbe } from '../support/fuzz-probes.ts';

/**
 * No 500 for any client input (#19). Generated from the served `/openapi.json` like the contract suite (the app's
 * setup and the path values are shared: test/support/contract-app.ts; the probes: test/support/fuzz-probes.ts), so a
 * new endpoint is fuzzed without a new test. The suite fails on any 5xx (the HTML upstream's expected 502 aside) and any
 * stack trace or SQL text in a body. How long the answers take (the 2 s bound) is timed by `make bench
 * BENCH=fuzz`, beside well-formed calls, not here: a test does not depend on the machine's speed.
 */

let contract: ContractApp;
let sent = 0;

/** Problems with one answer: a 5xx, an unexpected status, a leak. */
async function send(p: Probe): Promise<string[]> {
  const res = await sendProbe(contract, p);
  sent++;
  const where = `${p.label}: ${p.method.toUpperCase()} ${p.url.slice(0, 160)}`;
  const out: string[] = [];
  if (res.status >= 500 && !p.allow5xx?.includes(res.status)) out.push(`${where} → ${res.status}: ${res.body.slice(0, 300)}`);
  if (p.expect !== undefined && res.status !== p.expect) out.push(`${where} → ${res.status}, expected ${p.expect}: ${res.body.slice(0, 200)}`);
  const leak = leakIn(res.body, p.echo);
  if (leak) out.push(`${where} → ${res.status}: ${leak} in the body: ${res.body.slice(0, 300)}`);
  return out;
}

beforeAll(async () => {
  // Hostile Authorization headers are failed authentications: the per-address budget must not end the run early.
  contract = await startContractApp({ AUTH_FAILURE_BURST: '100000' });
}, 600_000);

afterAll(async () => {
  await contract?.close();
});

describe('no 500 for any client input, generated from /openapi.json', () => {
  it('catches what it looks for', () => {
    expect(leakIn('{"error":"Binder Error: column x"}')).toBe('a database error');
    expect(leakIn('Error: boom\n    at handle (/app/api/core/x.ts:10:5)')).toBe('a stack trace');
    expect(leakIn('{"message":"SELECT * FROM advisers WHERE crd = $1"}')).toBe('SQL text');
    expect(leakIn('{"detail":[{"input":"1); DROP TABLE t; SELECT a FROM b"}]}', '1); DROP TABLE t; SELECT a FROM b')).toBeNull();
  });

  it('every operation, parameter and body member, hostile headers, and an upstream answering HTML', async () => {
    const ops = operationsOf(contract.doc);
    expect(ops.length).toBeGreaterThan(50);
    const { hostile } = await buildProbes(contract);
    const problems: string[] = [];
    await eachProbe(hostile, async (p) => {
      problems.push(...(await send(p)));
    });

    // The regulator's services answering an HTML page with a 200: 502 on the live reads, never a 500. Values no
    // earlier call sent, so the raw cache cannot answer.
    const up = contract.up;
    if (up) {
      up.mode = 'html';
      try {
        for (const { method, path, op } of ops.filter((o) => o.op.responses['502'])) {
          const pathValues: Record<string, string> = {};
          for (const prm of (op.parameters ?? []).filter((x) => x.in === 'path')) {
            pathValues[prm.name] = (await contract.pathValue(op.operationId, path, prm)).replace(/\d/g, '7');
          }
          const good = contract.goodQuery(op.operationId, op);
          for (const k of ['cik', 'ciks']) if (good[k] || op.parameters?.some((x) => x.name === k)) good[k] = '7777777';
          const url = `${fill(path, pathValues)}${query(good)}`;
          const expected = HTML_IS_502.has(op.operationId) ? 502 : undefined;
          problems.push(...(await send({ label: `${op.operationId} ← upstream HTML`, method, url, allow5xx: [502], expect: expected })));
        }
      } finally {
        up.mode = 'ok';
      }
    }
    // Bounded: about 2,300 requests over the 84 operations of this revision.
    expect(sent).toBeGreaterThan(ops.length * 10);
    expect(problems).toEqual([]);
  }, 300_000);
});
