import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../api/routes.ts';
import { loadIngesters } from '../../ingest/pipeline/index.ts';
import { SOURCE, SOURCES } from '../../schemas/sources.ts';

/** Source labels are defined once (schemas/sources.ts): every dataset and every endpoint uses one of them. */

const endpoints = ROUTES;
const datasets = await loadIngesters();
const labels = Object.keys(SOURCES);

describe('source labels', () => {
  it('every dataset declares a label of SOURCES', () => {
    expect(datasets.length).toBeGreaterThan(0);
    const unknown = datasets.filter((d) => !labels.includes(d.source)).map((d) => `${d.name}: ${d.source}`);
    expect(unknown).toEqual([]);
  });

  it('every endpoint declares a label of SOURCES', () => {
    expect(endpoints.length).toBeGreaterThan(0);
    const unknown = endpoints.filter((e) => !labels.includes(e.source)).map((e) => `${e.path}: ${e.source}`);
    expect(unknown).toEqual([]);
  });

  it('every label of SOURCES is used by a dataset or an endpoint, and described', () => {
    const used = new Set([...datasets.map((d) => d.source), ...endpoints.map((e) => e.source)]);
    expect(labels.filter((l) => !used.has(l))).toEqual([]);
    expect(Object.entries(SOURCES).filter(([, text]) => !text.trim())).toEqual([]);
  });

  it('SOURCE names each label by itself', () => {
    expect(Object.entries(SOURCE).filter(([name, label]) => name !== label)).toEqual([]);
    expect(Object.keys(SOURCE)).toEqual(labels);
  });
});
