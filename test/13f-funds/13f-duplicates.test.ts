import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/harness.ts';
import def13f from '../../ingest/datasets/13f/dataset.ts';
import holdings13fRoutes from '../../api/13f/routes.ts';
import { decideDuplicates, type DuplicateFacts } from '../../ingest/datasets/13f/duplicates.ts';
import { writeTinyDataSet } from './tiny-data-set.ts';
import { tempDir } from '../support/temp-dir.ts';

/**
 * Information tables filed twice in one filing (issue #18 item 1), through both sources: a quarterly data set
 * (TSV members with the regulator's headers) and a single filing's XML documents, all written here in the real
 * formats. Three filings each: a table pasted twice (copies dropped), a repeated table whose copy does not add up
 * to the summary page (kept, flagged), and an ordinary table.
 */

interface Line {
  issuer: string;
  cusip: string;
  value: number;
  shares: number;
}
const TABLE: Line[] = [
  { issuer: 'APPLE INC', cusip: '037833100', value: 2_500_000, shares: 10_000 },
  { issuer: 'MICROSOFT CORP', cusip: '594918104', value: 4_200_000, shares: 10_000 },
  { issuer: 'EXXON MOBIL CORP', cusip: '30231G102', value: 1_100_000, shares: 10_000 },
];
const ONE_COPY = TABLE.reduce((s, l) => s + l.value, 0);

/** The three filings as a data set, their summary pages stating the totals in the comments above. */
function writeDataSet(dir: string): Promise<void> {
  let sk = 90_000_000;
  const lines = (ls: Line[]) => ls.map((l) => ({ ...l, sk: sk++ }));
  return writeTinyDataSet(dir, [
    {
      accession: '0001111111-24-000001',
      cik: '0001111111',
      name: 'TWICE FILED CAPITAL LLC',
      lines: lines([...TABLE, ...TABLE]),
      summary: { entries: 3, value: ONE_COPY },
    },
    {
      accession: '0002222222-24-000001',
      cik: '0002222222',
      name: 'REPEATING ROWS ADVISORS LP',
      lines: lines([...TABLE, ...TABLE]),
      summary: { entries: 3, value: 2 * ONE_COPY },
    },
    {
      accession: '0003333333-24-000001',
      cik: '0003333333',
      name: 'ORDINARY ASSET MANAGEMENT INC',
      lines: lines(TABLE),
      summary: { entries: 3, value: ONE_COPY },
    },
  ]);
}

function infoTableXml(lines: Line[]): string {
  const rows = lines.map(
    (l) => `  <infoTable>
    <nameOfIssuer>${l.issuer}</nameOfIssuer>
    <titleOfClass>COM</titleOfClass>
    <cusip>${l.cusip}</cusip>
    <value>${l.value}</value>
    <shrsOrPrnAmt>
      <sshPrnamt>${l.shares}</sshPrnamt>
      <sshPrnamtType>SH</sshPrnamtType>
    </shrsOrPrnAmt>
    <investmentDiscretion>SOLE</investmentDiscretion>
    <votingAuthority>
      <Sole>${l.shares}</Sole>
      <Shared>0</Shared>
      <None>0</None>
    </votingAuthority>
  </infoTable>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<informationTable xmlns="http://www.sec.gov/edgar/document/thirteenf/informationtable" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
${rows.join('\n')}
</informationTable>
`;
}

function primaryDocXml(cik: string, name: string, entryTotal: number, valueTotal: number): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<edgarSubmission xmlns="http://www.sec.gov/edgar/thirteenffiler" xmlns:com="http://www.sec.gov/edgar/common">
  <schemaVersion>X0202</schemaVersion>
  <headerData>
    <submissionType>13F-HR</submissionType>
    <filerInfo>
      <liveTestFlag>LIVE</liveTestFlag>
      <filer>
        <credentials>
          <cik>${cik}</cik>
          <ccc>XXXXXXXX</ccc>
        </credentials>
      </filer>
      <periodOfReport>03-31-2024</periodOfReport>
    </filerInfo>
  </headerData>
  <formData>
    <coverPage>
      <reportCalendarOrQuarter>03-31-2024</reportCalendarOrQuarter>
      <filingManager>
        <name>${name}</name>
        <address>
          <com:street1>1 MAIN STREET</com:street1>
          <com:city>BOSTON</com:city>
          <com:stateOrCountry>MA</com:stateOrCountry>
          <com:zipCode>02110</com:zipCode>
        </address>
      </filingManager>
      <reportType>13F HOLDINGS REPORT</reportType>
      <form13FFileNumber>028-99998</form13FFileNumber>
      <provideInfoForInstruction5>N</provideInfoForInstruction5>
    </coverPage>
    <summaryPage>
      <otherIncludedManagersCount>0</otherIncludedManagersCount>
      <tableEntryTotal>${entryTotal}</tableEntryTotal>
      <tableValueTotal>${valueTotal}</tableValueTotal>
      <isConfidentialOmitted>false</isConfidentialOmitted>
    </summaryPage>
  </formData>
</edgarSubmission>
`;
}

/** One folder per filing named after its accession, as a download of the filing's documents stores them. */
async function writeXmlFilings(dir: string): Promise<void> {
  const filings: [string, string, string, Line[], number, number][] = [
    ['0004444444-24-000002', '0004444444', 'TWICE FILED XML PARTNERS', [...TABLE, ...TABLE], 3, ONE_COPY],
    // Three of four rows repeated: not whole copies of the table, whatever the totals say.
    ['0005555555-24-000002', '0005555555', 'PARTLY REPEATED XML LLC', [...TABLE, TABLE[0]!, TABLE[1]!, TABLE[0]!], 3, ONE_COPY],
  ];
  for (const [acc, cik, name, lines, entries, total] of filings) {
    const folder = join(dir, acc);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'primary_doc.xml'), primaryDocXml(cik, name, entries, total));
    await writeFile(join(folder, 'infotable.xml'), infoTableXml(lines));
  }
}

describe('13F information table filed twice: the decision', () => {
  const base: DuplicateFacts = {
    lines: 6,
    distinctRows: 3,
    repeatedRows: 3,
    minCopies: 2,
    maxCopies: 2,
    distinctValue: 7_800_000,
    tableEntryTotal: 3,
    tableValueTotal: 7_800_000,
  };
  it('whole copies, line count k × entry total, one copy adds up to the summary total: copies removed', () => {
    const v = decideDuplicates(base);
    expect(v.decision).toBe('removed');
    expect(v.reason).toContain('2 identical copies of the 3 entries');
    // Rounded cells: a one-copy sum within 0.1% of the summary total still matches.
    expect(decideDuplicates({ ...base, distinctValue: 7_795_000 }).decision).toBe('removed');
    expect(decideDuplicates({ ...base, lines: 9, maxCopies: 3, minCopies: 3 }).decision).toBe('removed');
  });
  it('any missing piece of evidence keeps the rows and says which', () => {
    expect(decideDuplicates({ ...base, tableValueTotal: 15_600_000 })).toMatchObject({
      decision: 'kept',
      reason: expect.stringContaining('differs from the summary total'),
    });
    expect(decideDuplicates({ ...base, lines: 5, minCopies: 1, repeatedRows: 2 }).reason).toContain('not a whole number of copies');
    expect(decideDuplicates({ ...base, tableEntryTotal: null }).reason).toContain('no entry total');
    expect(decideDuplicates({ ...base, tableEntryTotal: 4 }).reason).toContain('not 2 × the entry total 4');
    expect(decideDuplicates({ ...base, tableValueTotal: null }).reason).toContain('no value total');
  });
});

describe('13F information table filed twice: data set and XML paths', () => {
  let app: TestApp;
  const filing = async (acc: string) =>
    (
      await app.services.lake.query(
        'SELECT info_rows, info_value_usd, table_entry_total, duplicate_rows_decision, duplicate_rows_reason FROM filings_13f WHERE accession_number = $1',
        [acc],
      )
    )[0];
  const manager = async (cik: string) => (await app.services.lake.query('SELECT holdings_count, total_value_usd FROM managers_13f WHERE cik = $1', [cik]))[0];
  const lines = async (acc: string) =>
    (await app.services.lake.query('SELECT line_no FROM holdings_13f WHERE accession_number = $1 ORDER BY line_no', [acc])).map((r) => Number(r.line_no));

  beforeAll(async () => {
    app = await createTestApp({ routes: holdings13fRoutes });
    const root = tempDir('dup13f-');
    await writeDataSet(join(root, 'dataset'));
    await writeXmlFilings(join(root, 'xml'));
    expect((await app.ingest(def13f, { from: join(root, 'dataset') }, { skipDiff: true })).badRows).toBe(0);
    expect((await app.ingest(def13f, { from: join(root, 'xml') }, { skipDiff: true })).badRows).toBe(0);
  });
  afterAll(async () => app?.close());

  it('data set: a table pasted twice keeps one copy; holdings, total and shares are no longer doubled', async () => {
    expect(await filing('0001111111-24-000001')).toMatchObject({ info_rows: 3, duplicate_rows_decision: 'removed' });
    expect((await filing('0001111111-24-000001'))!.duplicate_rows_reason).toMatch(/^6 lines, 3 of 3 distinct rows repeated/);
    expect(await manager('0001111111')).toMatchObject({ holdings_count: 3, total_value_usd: ONE_COPY });
    expect(await lines('0001111111-24-000001')).toEqual([1, 2, 3]);
    const r = await app.get('/v1/holdings?manager=1111111&cusip=037833100');
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0]).toMatchObject({ shares: 10_000, value_usd: 2_500_000 });
  });

  it('data set: repeated rows that the summary page counts (total twice one copy) are kept and the filing flagged', async () => {
    const f = await filing('0002222222-24-000001');
    expect(f).toMatchObject({ info_rows: 6, duplicate_rows_decision: 'kept' });
    expect(f!.duplicate_rows_reason).toContain("one copy's VALUE sum 7,800,000 differs from the summary total 15,600,000");
    expect(await manager('0002222222')).toMatchObject({ holdings_count: 6 });
  });

  it('an ordinary table is untouched: decision none, no reason', async () => {
    expect(await filing('0003333333-24-000001')).toMatchObject({ info_rows: 3, duplicate_rows_decision: 'none', duplicate_rows_reason: null });
  });

  it('XML filing: the same rule on the single-filing path', async () => {
    expect(await filing('0004444444-24-000002')).toMatchObject({ info_rows: 3, duplicate_rows_decision: 'removed' });
    expect(await manager('0004444444')).toMatchObject({ holdings_count: 3, total_value_usd: ONE_COPY });
    const partial = await filing('0005555555-24-000002');
    expect(partial).toMatchObject({ info_rows: 6, duplicate_rows_decision: 'kept' });
    expect(partial!.duplicate_rows_reason).toContain('rows repeat 1 to 3 times');
  });
});
