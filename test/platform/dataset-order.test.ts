import { describe, expect, it } from 'vitest';
import { dependencyOrder, loadIngesters } from '../../ingest/pipeline/registry.ts';

/** Datasets declare which datasets' tables they read; the demo and the nightly schedule run them in that order. */
describe('dataset dependency order', () => {
  const d = (name: string, ...dependsOn: string[]) => ({ name, dependsOn });

  it('puts every dataset after its dependencies, the most depended-on first, then by name', () => {
    const order = dependencyOrder([d('zeta'), d('beta', 'alpha'), d('gamma', 'beta'), d('alpha'), d('delta', 'alpha')]);
    expect(order.map((x) => x.name)).toEqual(['alpha', 'beta', 'delta', 'gamma', 'zeta']);
  });

  it('without dependencies the order is by name, whatever the input order', () => {
    expect(dependencyOrder([d('c'), d('a'), d('b')]).map((x) => x.name)).toEqual(['a', 'b', 'c']);
  });

  it('refuses a dependency on an unknown dataset', () => {
    expect(() => dependencyOrder([d('13f', 'entitys'), d('entities')])).toThrow("dataset 13f depends on 'entitys', which is not a dataset");
  });

  it('refuses a cycle, naming it', () => {
    expect(() => dependencyOrder([d('a', 'c'), d('b', 'a'), d('c', 'b'), d('x')])).toThrow('datasets depend on each other in a cycle: a → c → b → a');
    expect(() => dependencyOrder([d('a', 'a')])).toThrow('dataset a depends on itself');
  });

  it('the real datasets declare the tables they read, and the order respects every declaration', async () => {
    const all = await loadIngesters();
    const deps = Object.fromEntries(all.map((x) => [x.name, x.dependsOn]));
    // Read from the loaders: issuer / assignee resolution and event tickers use the entity directory; the section
    // fetcher lists its reports from the filing index.
    expect(deps['13f']).toContain('entities');
    expect(deps.patents).toContain('entities');
    expect(deps.filings).toContain('entities');
    expect(deps.insider).toContain('entities');
    expect(deps['filing-sections']).toContain('filings');

    const order = dependencyOrder(all).map((x) => x.name);
    expect(order).toHaveLength(all.length);
    for (const x of all) for (const dep of x.dependsOn) expect(order.indexOf(dep), `${dep} before ${x.name}`).toBeLessThan(order.indexOf(x.name));
  });

  it('the demo order keeps the entity directory and the filing index first, then the rest by name (as before)', async () => {
    const order = dependencyOrder(await loadIngesters()).map((x) => x.name);
    expect(order.slice(0, 2)).toEqual(['entities', 'filings']);
    expect(order.slice(2)).toEqual([...order.slice(2)].sort());
  });
});
