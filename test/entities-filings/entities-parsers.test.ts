import { describe, expect, it } from 'vitest';
import { fixturePath, hasFixtures, readFixture } from '../support/fixtures.ts';
import { classifySubmissionFile, filingColumns, parseSubmissionEntity, submissionFilings } from '../../ingest/sources/edgar/bulk/submissions.ts';
import { mergeListings, parseTickerFile } from '../../ingest/sources/edgar/bulk/tickers.ts';
import { foldSnapshot, pickRange } from '../../ingest/sources/edgar/bulk/ticker-history.ts';
import { nameRows } from '../../ingest/datasets/entities/dataset.ts';
import { coreName, normalizeName } from '../../schemas/tables/entities.ts';

const json = async (rel: string) => JSON.parse(await readFixture(rel)) as Record<string, unknown>;

describe.skipIf(!hasFixtures)('submissions JSON (real samples)', () => {
  it('Apple: entity header, padded CIK, former names as dates', async () => {
    const e = parseSubmissionEntity(await json('xbrl-api/submissions_CIK0000320193.json'))!;
    expect(e.cik).toBe('0000320193');
    expect(e.name).toBe('Apple Inc.');
    expect(e.tickers).toEqual(['AAPL']);
    expect(e.exchanges).toEqual(['Nasdaq']);
    expect(e.sic).toBe('3571');
    expect(e.sic_description).toBe('Electronic Computers');
    expect(e.fiscal_year_end).toBe('0930');
    expect(e.state_of_incorp).toBe('CA');
    expect(e.entity_type).toBe('operating');
    expect(e.former_names).toEqual([
      { name: 'APPLE INC', from: '2007-01-10', to: '2019-08-05' },
      { name: 'APPLE COMPUTER INC', from: '1994-01-26', to: '2007-01-04' },
      { name: 'APPLE COMPUTER INC/ FA', from: '1997-07-28', to: '1997-07-28' },
    ]);
    expect(e.business_address).toMatchObject({ street1: 'ONE APPLE PARK WAY', city: 'CUPERTINO', postal_code: '95014' });
  });

  it('Apple: name history rows — current name starts at the last change', async () => {
    const rows = nameRows(parseSubmissionEntity(await json('xbrl-api/submissions_CIK0000320193.json'))!);
    expect(rows.find((r) => r.is_current)).toMatchObject({ name: 'Apple Inc.', valid_from: '2019-08-05', valid_to: null, name_core: 'APPLE' });
    expect(rows.find((r) => r.name === 'APPLE COMPUTER INC')).toMatchObject({ valid_from: '1994-01-26', valid_to: '2007-01-04', is_current: false });
    expect(rows).toHaveLength(4);
  });

  it('Apple recent filings: columnar arrays to rows, Z dropped from acceptance time', async () => {
    const doc = await json('xbrl-api/submissions_CIK0000320193.json');
    const rows = [...submissionFilings(filingColumns(doc, false), '0000320193')];
    expect(rows).toHaveLength(1000);
    expect(rows[0]).toEqual({
      filing: {
        accession: '0000320193-23-000079',
        cik: '0000320193',
        form: '4',
        filed_date: '2023-08-08',
        report_date: '2023-08-05',
        acceptance_datetime: '2023-08-08T18:30:28',
        act: null,
        file_number: null,
        film_number: null,
        items: null,
        size: 10893,
        is_xbrl: false,
        is_inline_xbrl: false,
        primary_document: 'xslF345X05/wk-form4_1691533817.xml',
        primary_doc_description: 'FORM 4',
      },
    });
    const eightK = rows.map((r) => ('filing' in r ? r.filing : null)).find((f) => f?.form === '8-K' && f.items)!;
    expect(eightK.items).toMatch(/^\d\.\d{2}(,\d\.\d{2})*$/);
  });

  it('overflow page (-submissions-001.json) is the columnar object itself', async () => {
    expect(classifySubmissionFile('CIK0000320193-submissions-001.json')).toEqual({ cik: '0000320193', overflow: true });
    const doc = await json('xbrl-api/submissions_CIK0000320193-submissions-001.json');
    const rows = [...submissionFilings(filingColumns(doc, true), '0000320193')];
    expect(rows.length).toBe(988);
    expect(rows.every((r) => 'filing' in r)).toBe(true);
  });

  it('Fannie Mae: 16 tickers with parallel exchanges', async () => {
    const e = parseSubmissionEntity(await json('xbrl-api/submissions_CIK0000310522_fannie_mae_many_tickers.json'))!;
    expect(e.cik).toBe('0000310522');
    expect(e.tickers).toHaveLength(16);
    expect(e.exchanges).toHaveLength(16);
  });

  it('special-character name survives untouched (backslashes, pipe, ampersand)', async () => {
    const raw = await json('xbrl-api/submissions_CIK0000350001_special_characters_name.json');
    const e = parseSubmissionEntity(raw)!;
    expect(e.name).toBe(String(raw.name).trim());
    expect(e.name).toContain('|');
    expect(e.tickers).toEqual([]);
  });

  it('individual insider: no tickers, no SIC', async () => {
    const e = parseSubmissionEntity(await json('xbrl-api/submissions_CIK0001462356_individual_insider.json'))!;
    expect(e.cik).toBe('0001462356');
    expect(e.sic).toBeNull();
    expect(e.tickers).toEqual([]);
  });

  it('category joined with <br> becomes a list', () => {
    const e = parseSubmissionEntity({ cik: '1', name: 'X', category: 'Non-accelerated filer<br>Smaller reporting company' })!;
    expect(e.category).toBe('Non-accelerated filer; Smaller reporting company');
  });
});

describe.skipIf(!hasFixtures)('ticker files (real samples)', () => {
  it('company_tickers.json: object keyed by index, cik_str is an int', async () => {
    const { listings, bad } = parseTickerFile(await json('xbrl-api/company_tickers.json'));
    expect(bad).toBe(0);
    expect(listings[0]).toEqual({ cik: '0000789019', ticker: 'MSFT', name: 'MICROSOFT CORP', exchange: null });
    expect(listings.find((l) => l.ticker === 'BRK-B')?.cik).toBe('0001067983');
  });

  it('company_tickers_exchange.json: fields/data mapped by name; exchange merged in', async () => {
    const ex = parseTickerFile(await json('xbrl-api/company_tickers_exchange.json'));
    expect(ex.listings[0]).toEqual({ cik: '0000320193', ticker: 'AAPL', name: 'Apple Inc.', exchange: 'Nasdaq' });
    const plain = parseTickerFile(await json('xbrl-api/company_tickers.json'));
    const merged = mergeListings([plain.listings, ex.listings]);
    expect(merged.get('AAPL|0000320193')).toEqual({ cik: '0000320193', ticker: 'AAPL', name: 'Apple Inc.', exchange: 'Nasdaq' });
  });
  void fixturePath;
});

describe('ticker history', () => {
  const snap = (pairs: [string, string][]) => pairs.map(([ticker, cik]) => ({ ticker, cik, exchange: null, name: null }));

  it('a ticker that moved gets a closed range for the old holder and resolves by date', () => {
    let h = foldSnapshot(
      [],
      snap([
        ['FB', '0001326801'],
        ['XYZ', '0000000001'],
      ]),
      '2021-01-04',
      true,
    );
    h = foldSnapshot(
      h,
      snap([
        ['META', '0001326801'],
        ['XYZ', '0000000001'],
      ]),
      '2022-06-09',
      true,
    );
    h = foldSnapshot(
      h,
      snap([
        ['META', '0001326801'],
        ['FB', '0009999999'],
      ]),
      '2023-02-01',
      true,
    );
    const fb = h.filter((r) => r.ticker === 'FB');
    expect(fb).toEqual([
      { ticker: 'FB', cik: '0001326801', exchange: null, name: null, valid_from: '2021-01-04', valid_to: '2022-06-09', last_seen: '2021-01-04' },
      { ticker: 'FB', cik: '0009999999', exchange: null, name: null, valid_from: '2023-02-01', valid_to: null, last_seen: '2023-02-01' },
    ]);
    expect(pickRange(fb, '2021-05-01')!.cik).toBe('0001326801');
    expect(pickRange(fb, '2024-01-01')!.cik).toBe('0009999999');
    expect(pickRange(fb)!.cik).toBe('0009999999');
    // Delisted: XYZ closed on 2023-02-01, still resolves to its last holder.
    const xyz = h.filter((r) => r.ticker === 'XYZ');
    expect(xyz[0].valid_to).toBe('2023-02-01');
    expect(pickRange(xyz)!.cik).toBe('0000000001');
  });

  it('an older snapshot (backfill) never closes a live range', () => {
    let h = foldSnapshot([], snap([['AAA', '0000000002']]), '2024-05-01', true);
    h = foldSnapshot(h, snap([['BBB', '0000000003']]), '2024-01-01', true);
    expect(h.find((r) => r.ticker === 'AAA')!.valid_to).toBeNull();
  });

  it('submissions tickers confirm but never close', () => {
    const h = foldSnapshot(foldSnapshot([], snap([['AAA', '0000000002']]), '2024-05-01', true), snap([['CCC', '0000000004']]), '2024-05-02', false);
    expect(h.find((r) => r.ticker === 'AAA')!.valid_to).toBeNull();
    expect(h.find((r) => r.ticker === 'CCC')!.valid_from).toBe('2024-05-02');
  });
});

describe('name normalization', () => {
  it('folds punctuation, & and corporate suffixes', () => {
    expect(normalizeName('Apple Inc.')).toBe('APPLE INC');
    expect(coreName('BERKSHIRE HATHAWAY INC /DE/')).toBe('BERKSHIRE HATHAWAY');
    expect(coreName('Procter & Gamble Co')).toBe('PROCTER AND GAMBLE');
    expect(coreName('The Walt Disney Company')).toBe('WALT DISNEY');
  });
});
