/** 8-K and 8-K/A: the filing index takes their items from the header page (ingest-batch.ts). */
export const isEightK = (form: string) => /^8-K(\/A)?$/i.test(form.trim());

/**
 * Which dataset's per-filing ingest owns a form (besides the filing index, which lists every filing). Forms not
 * listed here need no download: their filing-index row comes from the feed entry itself.
 */
const OWNERS: { dataset: string; form: RegExp }[] = [
  { dataset: 'insider', form: /^[345](\/A)?$/ },
  { dataset: 'form144', form: /^144(\/A)?$/ },
  { dataset: 'ownership', form: /^(SC |SCHEDULE )13[DG](\/A)?$/ },
  { dataset: 'raises', form: /^D(\/A)?$/ },
  { dataset: '13f', form: /^13F-HR(\/A)?$/ },
  { dataset: 'nport', form: /^NPORT-P(\/A)?$/ },
];

export function datasetForForm(form: string): string | null {
  const f = form.trim().toUpperCase();
  return OWNERS.find((o) => o.form.test(f))?.dataset ?? null;
}

/** Every dataset the lane feeds: the filing index and the owners above. */
export const LIVE_DATASETS = ['filings', ...OWNERS.map((o) => o.dataset)];
