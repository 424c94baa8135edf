import { describe, expect, it } from 'vitest';
import { hasFixtures, readFixture } from '../support/fixtures.ts';
import { extractProxy, type ProxyExtraction } from '../../ingest/sources/edgar/proxy/extract.ts';
import { readProxySubmission, applyDeiFacts } from '../../ingest/sources/edgar/proxy/submission.ts';

/**
 * Exact rows from real documents, one layout per block. The ground-truth lists below were counted by
 * hand from the documents; the precision/recall figures of the final report come from these tests.
 */

const people = (x: ProxyExtraction) => x.people.map((p) => [p.printed, p.title, p.isDirector, p.isOfficer, p.isIndependent, p.age, p.directorSince]);
const comp = (x: ProxyExtraction) =>
  x.compensation.map((c) => [
    c.tableKind,
    c.printed,
    c.fiscalYear,
    c.salary,
    c.bonus,
    c.stockAwards,
    c.optionAwards,
    c.nonEquityIncentive,
    c.pensionDeferred,
    c.otherComp,
    c.feesCash,
    c.aggregateComp,
    c.total,
  ]);

function precisionRecall(found: string[], truth: string[]) {
  const tp = found.filter((f) => truth.includes(f)).length;
  return { precision: tp / found.length, recall: tp / truth.length };
}

describe.skipIf(!hasFixtures)('layout 1: investment-company proxy (180 Degree Capital, full submission .txt, Workiva HTML)', async () => {
  const text = hasFixtures ? await readFixture('proxy/def14a_180_degree_capital_2020_full_submission.txt') : '';
  const doc = readProxySubmission(text, '0000893739-20-000019.txt');
  const x = extractProxy(doc.html);

  it('reads the SGML header of the full submission and picks the DEF 14A document', () => {
    expect(doc.meta).toEqual({
      accession: '0000893739-20-000019',
      cik: '0000893739',
      issuerName: '180 DEGREE CAPITAL CORP. /NY/',
      formType: 'DEF 14A',
      filedDate: '2020-03-25',
      periodOfReport: '2020-05-14',
      documentName: 'annualmeetingproxy2020-doc.htm',
      filers: [{ cik: '0000893739', name: '180 DEGREE CAPITAL CORP. /NY/' }],
    });
  });

  it(
    '"Name, Address and Age" cells: age read from the cell, address lines dropped; Interested/Independent ' +
      'section rows; "Member of the Board: June 2016" → director since 2016',
    () => {
      expect(people(x)).toEqual([
        ['Kevin M. Rendino', 'Chairman, Chief Executive Officer and Portfolio Manager', true, true, false, 53, 2016],
        ['Daniel B. Wolfe', 'President, Chief Financial Officer and Chief Compliance Officer', true, true, false, 43, 2017],
        ['Stacy R. Brandom', 'Independent Director', true, false, true, 62, 2014],
        ['Richard P. Shanley', 'Independent Director', true, false, true, 73, 2007],
        // Printed "Parker Weil" in the nominee table and "Parker A. Weil" elsewhere: one person, fuller name kept.
        ['Parker A. Weil', 'Independent Director', true, false, true, 54, 2017],
        ['Alicia M. Gift', 'Senior Controller, Secretary and Treasurer', false, true, null, null, null],
        // "Robert E. Bigelow, III(4)": generational suffix after a comma and a footnote marker.
        [
          'Robert E. Bigelow, III',
          'Vice President, Head of Fund Development and Chief Executive Officer of 180 Degree Capital BD, LLC',
          false,
          true,
          null,
          null,
          null,
        ],
        // Retiring director named only in the compensation table's "Independent Directors" section.
        ['Charles E. Ramsey', 'Director', true, false, true, null, null],
      ]);
    },
  );

  it('fund compensation table: "$" in its own cell, N/A fund-complex total for officers, fiscal year from "year ended" text', () => {
    expect(x.fiscalYear).toBe(2019);
    expect(comp(x)).toEqual([
      ['fund_compensation', 'Kevin M. Rendino', 2019, null, null, null, null, null, 0, null, null, 1814970, 1814970],
      ['fund_compensation', 'Daniel B. Wolfe', 2019, null, null, null, null, null, 0, null, null, 1467900, 1467900],
      ['fund_compensation', 'Alicia M. Gift', 2019, null, null, null, null, null, 0, null, null, 535163, 535163],
      ['fund_compensation', 'Robert E. Bigelow, III', 2019, null, null, null, null, null, 0, null, null, 309000, 309000],
      ['fund_compensation', 'Stacy R. Brandom', 2019, null, null, null, null, null, null, null, null, 62500, 62500],
      ['fund_compensation', 'Charles E. Ramsey', 2019, null, null, null, null, null, null, null, null, 60000, 60000],
      ['fund_compensation', 'Richard P. Shanley', 2019, null, null, null, null, null, null, null, null, 92500, 92500],
      ['fund_compensation', 'Parker A. Weil', 2019, null, null, null, null, null, null, null, null, 62500, 62500],
    ]);
    // Director rows add up to the printed total; officer rows have none to check against.
    expect(x.compensation.map((c) => [c.totalChecks, c.confidence])).toEqual([
      [null, 0.65],
      [null, 0.65],
      [null, 0.65],
      [null, 0.65],
      [true, 0.95],
      [true, 0.95],
      [true, 0.95],
      [true, 0.95],
    ]);
  });

  it('hand-counted ground truth: 6 directors + 2 executive officers, 8 compensation rows', () => {
    const truth = ['kevin rendino', 'daniel wolfe', 'stacy brandom', 'richard shanley', 'parker weil', 'charles ramsey', 'alicia gift', 'robert bigelow'];
    expect(
      precisionRecall(
        x.people.map((p) => p.name.key),
        truth,
      ),
    ).toEqual({ precision: 1, recall: 1 });
    expect(x.compensation).toHaveLength(8);
  });
});

describe.skipIf(!hasFixtures)('layout 2: operating-company proxy with inline XBRL (Cabot Corp): SCT, director compensation, bio cards', async () => {
  const html = hasFixtures ? await readFixture('proxy/def14a_cabot_corp_inline_xbrl.htm') : '';
  const doc = readProxySubmission(html, 'def14a_cabot_corp_inline_xbrl.htm');
  const x = extractProxy(doc.html);
  applyDeiFacts(doc.meta, x.dei);

  it('a bare primary document takes CIK and name from the dei cover facts; accession unknown', () => {
    expect(doc.meta).toMatchObject({
      accession: null,
      cik: '0000016040',
      issuerName: 'Cabot Corporation',
      formType: 'DEF 14A',
      filedDate: null,
      filers: [{ cik: '0000016040', name: 'Cabot Corporation' }],
    });
  });

  it('summary compensation table: rowspan name cell over three years, title on the second line, "—" = 0, footnote markers in headers and names', () => {
    expect(comp(x).filter((r) => r[0] === 'summary_compensation')).toEqual([
      ['summary_compensation', 'Sean D. Keohane', 2023, 1083750, null, 3509911, 1890051, 1045704, 26843, 235251, null, null, 7791510],
      ['summary_compensation', 'Sean D. Keohane', 2022, 1035000, null, 3087436, 1662485, 1838657, 16097, 308354, null, null, 7948029],
      ['summary_compensation', 'Sean D. Keohane', 2021, 1026250, null, 3087459, 1662151, 2118852, 12074, 335701, null, null, 8242487],
      ['summary_compensation', 'Erica McLaughlin', 2023, 571069, null, 812388, 437500, 415303, 41, 119184, null, null, 2355485],
      ['summary_compensation', 'Erica McLaughlin', 2022, 543809, null, 666201, 358748, 608939, 0, 132266, null, null, 2309963],
      ['summary_compensation', 'Erica McLaughlin', 2021, 518174, null, 649948, 349921, 678006, 0, 136088, null, null, 2332137],
      ['summary_compensation', 'Karen A. Kalita', 2023, 496662, null, 487417, 262495, 287161, 1040, 95927, null, null, 1630702],
      ['summary_compensation', 'Karen A. Kalita', 2022, 453300, null, 422457, 227495, 422052, 1240, 104139, null, null, 1630683],
      ['summary_compensation', 'Karen A. Kalita', 2021, 412499, null, 406218, 218697, 461189, 1780, 97086, null, null, 1597469],
      ['summary_compensation', 'Hobart C. Kalkstein', 2023, 546818, null, 682356, 367514, 372067, 7080, 100533, null, null, 2076368],
      ['summary_compensation', 'Hobart C. Kalkstein', 2022, 517603, null, 601230, 323737, 540316, 5735, 115142, null, null, 2103763],
      ['summary_compensation', 'Hobart C. Kalkstein', 2021, 499772, null, 584969, 314928, 599204, 7138, 111440, null, null, 2117451],
      ['summary_compensation', 'Jeff Zhu', 2023, 546631, null, 682356, 367514, 267026, 0, 1062763, null, null, 2926290],
      ['summary_compensation', 'Jeff Zhu', 2022, 517426, null, 601230, 323737, 540131, 0, 1046492, null, null, 3029016],
      ['summary_compensation', 'Jeff Zhu', 2021, 501762, null, 584969, 314928, 599000, 0, 958427, null, null, 2959086],
    ]);
    const sct = x.compensation.filter((c) => c.tableKind === 'summary_compensation');
    expect(sct.every((c) => c.totalChecks === true)).toBe(true);
    expect(sct.find((c) => c.printed === 'Karen A. Kalita')!.title).toBe('Senior Vice President and General Counsel');
  });

  it('pay-versus-performance XBRL confirms the PEO rows (confidence 1.0) and gives compensation actually paid', () => {
    expect(x.pvp.map((p) => [p.fiscalYear, p.periodEnd, p.peoTotal, p.peoActuallyPaid, p.peoNameKey])).toEqual([
      [2023, '2023-09-30', 7791510, 8106840, 'sean keohane'],
      [2022, '2022-09-30', 7948029, 17160056, 'sean keohane'],
      [2021, '2021-09-30', 8242487, 17132578, 'sean keohane'],
    ]);
    expect(x.compensation.filter((c) => c.pvpVerified).map((c) => [c.printed, c.fiscalYear, c.confidence])).toEqual([
      ['Sean D. Keohane', 2023, 1],
      ['Sean D. Keohane', 2022, 1],
      ['Sean D. Keohane', 2021, 1],
    ]);
  });

  it('director compensation table: fees column, dash for zero, fiscal year of the statement', () => {
    expect(
      comp(x)
        .filter((r) => r[0] === 'director_compensation')
        .map((r) => [r[1], r[2], r[10], r[5], r[8], r[12]]),
    ).toEqual([
      ['Cynthia A. Arnold', 2023, 95000, 134990, 38, 230028],
      ['Douglas G. Del Grosso', 2023, 95000, 134990, 184, 230174],
      ['Juan Enriquez', 2023, 110000, 134990, 3519, 248509],
      ['William C. Kirby', 2023, 95000, 134990, 17974, 247964],
      ['Michael M. Morrow', 2023, 115000, 134990, 492, 250482],
      ['Raffiq Nathoo', 2023, 95000, 134990, 20, 230010],
      ['Sue H. Rataj', 2023, 230000, 134990, 0, 364990],
      ['Michelle E. Williams', 2023, 4948, 45031, 0, 49979],
      ['Frank A. Wilson', 2023, 95000, 134990, 373, 230363],
      ['Matthias L. Wolfgruber', 2023, 110000, 134990, 989, 245979],
      ['Christine Y. Yan', 2023, 95000, 134990, 295, 230285],
    ]);
  });

  it(
    'bio cards in and out of tables: "Sue" / "H. Rataj" on two lines, "Michael M. Morrow Non-Executive" / ' +
      '"Chair of the Board", CEO card without "Independent"',
    () => {
      expect(people(x)).toEqual([
        ['Cynthia A. Arnold', null, true, false, true, 65, 2018],
        ['Douglas G. Del Grosso', null, true, false, true, 62, 2020],
        ['Juan Enriquez', null, true, false, true, 64, 2005],
        ['William C. Kirby', null, true, false, true, 72, 2012],
        ['Michael M. Morrow', 'Non-Executive Chair of the Board', true, false, true, 68, 2017],
        ['Raffiq Nathoo', null, true, false, true, 57, 2022],
        ['Sue H. Rataj', null, true, false, true, 67, 2011],
        ['Michelle E. Williams', null, true, false, true, 62, 2023],
        ['Frank A. Wilson', null, true, false, true, 65, 2018],
        ['Matthias L. Wolfgruber', null, true, false, true, 70, 2014],
        ['Christine Y. Yan', null, true, false, true, 58, 2019],
        ['Sean D. Keohane', 'President and CEO', true, true, false, 56, 2016],
        ['Erica McLaughlin', 'Executive Vice President, CFO, & Head of Corp Strategy', false, true, null, null, null],
        ['Karen A. Kalita', 'Senior Vice President and General Counsel', false, true, null, null, null],
        [
          'Hobart C. Kalkstein',
          'Executive Vice President & President, Reinforcement Materials Segment & Americas Region, & executive responsible for Digital',
          false,
          true,
          null,
          null,
          null,
        ],
        ['Jeff Zhu', 'Executive Vice President and President, Performance Chemicals Segment & Asia Pacific Region', false, true, null, null, null],
      ]);
      expect(x.people.find((p) => p.printed === 'Sue H. Rataj')!.foundIn).toEqual(['bio_card', 'director_compensation#139']);
    },
  );

  it('hand-counted ground truth: 12 directors + 4 other named executive officers; 15 SCT + 11 director rows; no other table of the 443 is taken', () => {
    const truth = [
      'cynthia arnold',
      'douglas del grosso',
      'christine yan',
      'michael morrow',
      'sue rataj',
      'michelle williams',
      'frank wilson',
      'matthias wolfgruber',
      'juan enriquez',
      'sean keohane',
      'william kirby',
      'raffiq nathoo',
      'erica mclaughlin',
      'karen kalita',
      'hobart kalkstein',
      'jeff zhu',
    ];
    expect(
      precisionRecall(
        x.people.map((p) => p.name.key),
        truth,
      ),
    ).toEqual({ precision: 1, recall: 1 });
    expect(x.compensation).toHaveLength(26);
    expect([x.tablesSeen, x.tablesUsed]).toEqual([443, 2]);
  });
});

describe.skipIf(!hasFixtures)('layouts 3 and 4: executive-officer tables (10-K Part III style, the same table kind proxies print)', () => {
  it('IBM: blank name header, name and title in one cell split at the comma, "(1)" footnote, Age / Officer since columns', async () => {
    const x = extractProxy(await readFixture('10k/10k_ibm_fy2024_2025-02-25_primary.htm'));
    expect(x.people.map((p) => [p.printed, p.title, p.age, p.officerSince, p.isDirector, p.isOfficer])).toEqual([
      ['Arvind Krishna', 'Chairman of the Board, President and Chief Executive Officer', 62, 2020, true, true],
      ['Gary D. Cohn', 'Vice Chairman', 64, 2021, false, true],
      ['Nicolas A. Fehring', 'Vice President and Controller', 46, 2023, false, true],
      ['James J. Kavanaugh', 'Senior Vice President, Finance and Operations, and Chief Financial Officer', 58, 2008, false, true],
      ['Nickle J. LaMoreaux', 'Senior Vice President and Chief Human Resources Officer', 45, 2020, false, true],
      ['Anne Robinson', 'Senior Vice President and Chief Legal Officer', 54, 2024, false, true],
      ['Robert D. Thomas', 'Senior Vice President, Software and Chief Commercial Officer', 50, 2023, false, true],
    ]);
    // The stock-exchange table ("Title of each class", "Name of each exchange") is not a people table.
    expect(x.compensation).toEqual([]);
  });

  it('Union Pacific: Name / Position / Age columns; "V. James Vena" keeps the initial as first name', async () => {
    const x = extractProxy(await readFixture('10k/10k_union_pacific_fy2024_2025-02-07_primary.htm'));
    expect(x.people.map((p) => [p.printed, p.name.key, p.title, p.age])).toEqual([
      ['V. James Vena', 'v vena', 'Chief Executive Officer', 66],
      ['Elizabeth F. Whited', 'elizabeth whited', 'President', 59],
      ['Jennifer L. Hamann', 'jennifer hamann', 'Executive Vice President and Chief Financial Officer', 57],
      ['Eric J. Gehringer', 'eric gehringer', 'Executive Vice President - Operations', 45],
      ['Rahul Jalali', 'rahul jalali', 'Executive Vice President and Chief Information Officer', 51],
      ['Craig V. Richardson', 'craig richardson', 'Executive Vice President, Chief Legal Officer, and Corporate Secretary', 63],
      ['Kenny G. Rocker', 'kenny rocker', 'Executive Vice President - Marketing and Sales', 53],
      ['Todd M. Rynaski', 'todd rynaski', 'Senior Vice President and Chief Accounting, Risk, and Compliance Officer', 54],
    ]);
  });

  it('Apple 10-K: the signature table (Name / Title / Date) is not mistaken for a director table', async () => {
    const x = extractProxy(await readFixture('10k/10k_apple_fy2024_2024-11-01_primary.htm'));
    expect(x.people).toEqual([]);
  });
});

describe('fund-complex proxies: one filing, many registrants (the T. Rowe Price DEF 14A index lists 66 filers)', () => {
  it('every FILER block of the SGML header becomes a registrant, and rows are written for each', async () => {
    const { proxyRows } = await import('../../ingest/datasets/proxy/rows.ts');
    const text = `<SEC-DOCUMENT>0001741773-23-002051.txt : 20230616
<SEC-HEADER>0001741773-23-002051.hdr.sgml : 20230616
ACCESSION NUMBER:\t\t0001741773-23-002051
CONFORMED SUBMISSION TYPE:\tDEF 14A
FILED AS OF DATE:\t\t20230616

FILER:

\tCOMPANY DATA:\t
\t\tCOMPANY CONFORMED NAME:\t\t\tT. Rowe Price Small-Cap Stock Fund, Inc.
\t\tCENTRAL INDEX KEY:\t\t\t0000075170

FILER:

\tCOMPANY DATA:\t
\t\tCOMPANY CONFORMED NAME:\t\t\tT. Rowe Price New Horizons Fund, Inc.
\t\tCENTRAL INDEX KEY:\t\t\t0000080248
</SEC-HEADER>
<DOCUMENT>
<TYPE>DEF 14A
<SEQUENCE>1
<FILENAME>def14a.htm
<TEXT>
<html><table><tr><td>Name</td><td>Age</td><td>Position</td></tr><tr><td>Jane Q. Doe</td><td>61</td><td>Independent Director</td></tr></table></html>
</TEXT>
</DOCUMENT>`;
    const doc = readProxySubmission(text, 'x.txt');
    expect(doc.meta.filers).toEqual([
      { cik: '0000075170', name: 'T. Rowe Price Small-Cap Stock Fund, Inc.' },
      { cik: '0000080248', name: 'T. Rowe Price New Horizons Fund, Inc.' },
    ]);
    const rows = proxyRows(doc.meta, extractProxy(doc.html), { filingId: doc.meta.accession!, fiscalYear: 2022, sourceUrl: null });
    expect(rows.officers.map((r) => [r.record_id, r.cik, r.issuer, r.age])).toEqual([
      ['0001741773-23-002051:0000075170:jane doe', '0000075170', 'T. Rowe Price Small-Cap Stock Fund, Inc.', 61],
      ['0001741773-23-002051:0000080248:jane doe', '0000080248', 'T. Rowe Price New Horizons Fund, Inc.', 61],
    ]);
    expect(rows.board).toHaveLength(2);
  });
});
