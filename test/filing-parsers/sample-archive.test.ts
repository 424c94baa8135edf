import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SampleArchiveFiling, writeSampleArchive } from '../../ingest/samples/filing-archive/index.ts';
import { parseFilingIndexHtml } from '../../ingest/sources/edgar/archive/filing-index.ts';
import { type LocalArchive, serveLocalArchive } from '../../ingest/sources/edgar/archive/local-archive.ts';
import { parseSubmission } from '../../ingest/sources/edgar/sgml.ts';

/**
 * The demo's sample archive (#17) read back by the regulator-format parsers, and the loopback server that serves it:
 * files in the archive's URL layout, `index.json` listings, full-text search with the upstream's filters, nothing
 * outside its folder.
 */
const EIGHT_K: SampleArchiveFiling = {
  accession: '0001900222-24-000013',
  ciks: ['0001900222'],
  company: 'GRANITE CORP',
  ticker: 'GRAG',
  form: '8-K',
  items: ['1.05', '9.01'],
  filedDate: '2024-03-04',
  reportDate: '2024-02-03',
  accepted: '2024-03-04 16:10:05',
  primaryDocument: 'grag-20240304.htm',
  owner: null,
};
const FORM_4: SampleArchiveFiling = {
  accession: '0001900259-24-000005',
  ciks: ['0001900259', '0001900260'],
  company: 'HARBOR INDUSTRIES INC',
  ticker: 'HARH',
  form: '4',
  items: [],
  filedDate: '2024-03-27',
  reportDate: '2024-03-27',
  accepted: '2024-03-27 16:10:05',
  primaryDocument: 'harh-20240327.htm',
  owner: { cik: '0001900260', name: 'DOE JOHN 7' },
};

describe('the sample filing archive', () => {
  let root: string;
  let archive: LocalArchive;
  const folder = (cik: string, acc: string) => `/Archives/edgar/data/${Number(cik)}/${acc.replace(/-/g, '')}`;
  const get = (path: string) => fetch(`${archive.url}${path}`);

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sample-archive-'));
    await writeSampleArchive(root, [EIGHT_K, FORM_4]);
    archive = await serveLocalArchive(root);
  });
  afterAll(async () => {
    await archive.close();
    await rm(root, { recursive: true, force: true });
  });

  it('index page: form, dates, items and documents as the index-page parser reads them', async () => {
    const html = await (await get(`${folder(EIGHT_K.ciks[0]!, EIGHT_K.accession)}/${EIGHT_K.accession}-index.htm`)).text();
    const page = parseFilingIndexHtml(html);
    expect(page).toMatchObject({ accession: EIGHT_K.accession, form: '8-K', filed: '2024-03-04', period: '2024-02-03', items: ['1.05', '9.01'] });
    expect(page.documents.map((d) => [d.sequence, d.type, d.filename])).toEqual([
      [1, '8-K', 'grag-20240304.htm'],
      [2, 'EX-99.1', 'grag-20240304xex991.htm'],
      [null, null, `${EIGHT_K.accession}.txt`],
    ]);
    expect(page.filers[0]).toMatchObject({ name: 'GRANITE CORP', cik: '0001900222' });
  });

  it('submission text: header parties and every document, as the SGML parser reads them', async () => {
    const sub = parseSubmission(await readFile(join(root, `${folder(FORM_4.ciks[0]!, FORM_4.accession)}/${FORM_4.accession}.txt`), 'utf8'));
    expect(sub.header).toMatchObject({ accession: FORM_4.accession, form: '4', filed: '2024-03-27' });
    expect(sub.header.parties.map((p) => [p.role, p.cik])).toEqual([
      ['ISSUER', '0001900259'],
      ['REPORTING-OWNER', '0001900260'],
    ]);
    expect(sub.documents.map((d) => d.filename)).toEqual([`wk-form4_${FORM_4.accession.replace(/-/g, '')}.xml`]);
    expect(sub.documents[0]!.body).toContain('<ownershipDocument>');
  });

  it('serves a filing under each party CIK, with an index.json listing its files', async () => {
    const listing = (await (await get(`${folder(FORM_4.ciks[1]!, FORM_4.accession)}/index.json`)).json()) as { directory: { item: { name: string }[] } };
    expect(listing.directory.item.map((i) => i.name)).toEqual(expect.arrayContaining([`${FORM_4.accession}-index.htm`, `${FORM_4.accession}.txt`]));
    expect((await get(`${folder('1', FORM_4.accession)}/index.json`)).status).toBe(404);
    expect((await get('/Archives/../../etc/passwd')).status).toBe(404);
    expect((await get(`/Archives/edgar/data/1900222/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fefts/hits.json`)).status).toBe(404);
  });

  it('full-text search: words and quoted phrases against document text, with the forms, items, ciks and date filters', async () => {
    const search = async (query: string) => ((await (await get(`/LATEST/search-index?${query}`)).json()) as any).hits;
    const phrase = await search(`q=${encodeURIComponent('"material cybersecurity incident"')}`);
    expect(phrase.total).toEqual({ value: 1, relation: 'eq' });
    expect(phrase.hits[0]._id).toBe(`${EIGHT_K.accession}:grag-20240304.htm`);
    expect(phrase.hits[0]._source).toMatchObject({ adsh: EIGHT_K.accession, form: '8-K', items: ['1.05', '9.01'], file_type: '8-K' });
    expect((await search('q=cybersecurity&forms=4')).total.value).toBe(0);
    expect((await search('q=cybersecurity&items=1.05&ciks=0001900222&startdt=2024-03-01&enddt=2024-03-31')).total.value).toBe(1);
    expect((await search('q=cybersecurity&enddt=2024-03-01')).total.value).toBe(0);
    expect((await search('q=weighted%20average%20price')).hits.map((h: { _source: { form: string } }) => h._source.form)).toEqual(['4']);
    expect((await search('q=no%20such%20words%20anywhere')).total.value).toBe(0);
  });
});
