import { describe, expect, it } from 'vitest';
import { currentFeedUrl, decodeFeed, groupFeedFilings, parseCurrentFeed, submissionTxtUrl } from '../../ingest/sources/edgar/bulk/current-feed.ts';
import { datasetForForm } from '../../ingest/pipeline/live/route.ts';
import { hasFixtures, readFixtureBytes } from '../support/fixtures.ts';

describe.skipIf(!hasFixtures)('latest-filings Atom feed (recorded pages)', () => {
  it('reads every entry of the all-forms page and folds the party entries into one filing per accession', async () => {
    const entries = parseCurrentFeed(decodeFeed(await readFixtureBytes('index/current_filings_atom_getcurrent_all_forms_page0.xml')));
    expect(entries).toHaveLength(100);
    expect(entries[0]).toEqual({
      accession: '0002074440-26-000002',
      form: '13F-HR',
      cik: '0002074440',
      name: 'Ryan Investment Management, Inc.',
      role: 'Filer',
      // 11:27:39 at the feed's -05:00 offset.
      updated: '2026-01-12T16:27:39.000Z',
      filedDate: '2026-01-12',
    });
    const filings = groupFeedFilings(entries);
    expect(filings).toHaveLength(73);
    const f4 = filings.find((f) => f.accession === '0000080661-26-000032')!;
    expect(f4.parties.map((p) => [p.cik, p.role])).toEqual([
      ['0001071287', 'Reporting'],
      ['0000080661', 'Issuer'],
    ]);
    // Newest first, as published.
    expect(filings.map((f) => f.updated)).toEqual([...filings.map((f) => f.updated)].sort().reverse());
  });

  it('the Form 4 page holds paired Reporting/Issuer entries', async () => {
    const filings = groupFeedFilings(parseCurrentFeed(decodeFeed(await readFixtureBytes('index/current_filings_atom_getcurrent_form4_page0.xml'))));
    expect(filings.length).toBeGreaterThan(0);
    expect(filings.every((f) => f.form === '4' || f.form === '4/A')).toBe(true);
    expect(filings.every((f) => f.parties.length >= 2)).toBe(true);
  });
});

describe('live lane routing and URLs', () => {
  it('routes each form to the dataset owning its per-filing parser', () => {
    expect(['4', '3/A', '144', 'SCHEDULE 13D/A', 'SC 13G', 'D', '13F-HR', 'NPORT-P', '8-K', '10-K'].map(datasetForForm)).toEqual([
      'insider',
      'insider',
      'form144',
      'ownership',
      'ownership',
      'raises',
      '13f',
      'nport',
      null,
      null,
    ]);
  });

  it('builds the feed page and submission URLs', () => {
    expect(currentFeedUrl('https://www.sec.gov', 100, 100)).toContain('action=getcurrent&type=&company=&dateb=&owner=include&start=100&count=100&output=atom');
    expect(submissionTxtUrl('https://www.sec.gov', '0000080661', '0000080661-26-000032')).toBe(
      'https://www.sec.gov/Archives/edgar/data/80661/000008066126000032/0000080661-26-000032.txt',
    );
  });
});
