import { describe, expect, it } from 'vitest';
import { type CoverPage, parseCoverPage } from '../../ingest/sources/edgar/archive/cover.ts';
import { hasFixtures, readFixture } from '../support/fixtures.ts';

/**
 * Cover pages written by us in the regulator's real markup (inline XBRL header with contexts, dei: facts in the
 * visible cover, Wingdings check boxes of pre-iXBRL covers), for the cases the real fixtures do not cover.
 */

const IXBRL_10Q = `<html xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"><body>
<div style="display:none"><ix:header><ix:hidden>
<ix:nonNumeric contextRef="c-1" name="dei:DocumentFiscalYearFocus">2025</ix:nonNumeric>
<ix:nonNumeric contextRef="c-1" name="dei:DocumentFiscalPeriodFocus">Q2</ix:nonNumeric>
<ix:nonNumeric contextRef="c-1" name="dei:CurrentFiscalYearEndDate">--12-31</ix:nonNumeric>
<ix:nonNumeric contextRef="c-1" name="dei:EntityCentralIndexKey">0001999999</ix:nonNumeric>
<ix:nonNumeric contextRef="c-1" name="dei:AmendmentFlag">false</ix:nonNumeric>
</ix:hidden><ix:resources>
<xbrli:context id="c-1"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0001999999</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:startDate>2025-01-01</xbrli:startDate><xbrli:endDate>2025-06-30</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="c-a"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0001999999</xbrli:identifier><xbrli:segment>
<xbrldi:explicitMember dimension="us-gaap:StatementClassOfStockAxis">us-gaap:CommonClassAMember</xbrldi:explicitMember></xbrli:segment></xbrli:entity>
<xbrli:period><xbrli:instant>2025-07-25</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:context id="c-b"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0001999999</xbrli:identifier><xbrli:segment>
<xbrldi:explicitMember dimension="us-gaap:StatementClassOfStockAxis">us-gaap:CommonClassBMember</xbrldi:explicitMember></xbrli:segment></xbrli:entity>
<xbrli:period><xbrli:instant>2025-07-25</xbrli:instant></xbrli:period></xbrli:context>
</ix:resources></ix:header></div>
<p>UNITED STATES SECURITIES AND EXCHANGE COMMISSION</p>
<p>FORM <ix:nonNumeric contextRef="c-1" name="dei:DocumentType">10-Q</ix:nonNumeric></p>
<p>For the quarterly period ended <ix:nonNumeric contextRef="c-1" name="dei:DocumentPeriodEndDate"
format="ixt:date-monthname-day-en">June 30</ix:nonNumeric>, 2025</p>
<p>Commission File Number <ix:nonNumeric contextRef="c-1" name="dei:EntityFileNumber">001-40000</ix:nonNumeric></p>
<p><ix:nonNumeric contextRef="c-1" name="dei:EntityRegistrantName">Example Widgets, Inc.</ix:nonNumeric></p>
<p>(Exact name of registrant as specified in its charter)</p>
<table><tr><td><ix:nonNumeric contextRef="c-1" name="dei:EntityIncorporationStateCountryCode" format="ixt-sec:stateprovnameen">Delaware</ix:nonNumeric></td>
<td><ix:nonNumeric contextRef="c-1" name="dei:EntityTaxIdentificationNumber">12-3456789</ix:nonNumeric></td></tr>
<tr><td>(State or other jurisdiction of incorporation)</td><td>(I.R.S. Employer Identification No.)</td></tr></table>
<p><ix:nonNumeric contextRef="c-1" name="dei:EntityAddressAddressLine1">100 Main Street</ix:nonNumeric>,
<ix:nonNumeric contextRef="c-1" name="dei:EntityAddressAddressLine2">Suite 5</ix:nonNumeric>,
<ix:nonNumeric contextRef="c-1" name="dei:EntityAddressCityOrTown">Austin</ix:nonNumeric>,
<ix:nonNumeric contextRef="c-1" name="dei:EntityAddressStateOrProvince">TX</ix:nonNumeric>
<ix:nonNumeric contextRef="c-1" name="dei:EntityAddressPostalZipCode">78701</ix:nonNumeric></p>
<p>(<ix:nonNumeric contextRef="c-1" name="dei:CityAreaCode">512</ix:nonNumeric>)
<ix:nonNumeric contextRef="c-1" name="dei:LocalPhoneNumber">555-0100</ix:nonNumeric></p>
<table><tr><td>Title of each class</td><td>Trading Symbol(s)</td><td>Name of each exchange on which registered</td></tr>
<tr><td><ix:nonNumeric contextRef="c-1" name="dei:Security12bTitle">Class A Common Stock</ix:nonNumeric></td>
<td><ix:nonNumeric contextRef="c-1" name="dei:TradingSymbol">exwd</ix:nonNumeric></td>
<td><ix:nonNumeric contextRef="c-1" name="dei:SecurityExchangeName" format="ixt-sec:exchnameen">New York Stock Exchange</ix:nonNumeric></td></tr></table>
<p>Large accelerated filer &#9744; Accelerated filer &#9746; Non-accelerated filer &#9744; Smaller reporting company &#9744;</p>
<p>Emerging growth company <ix:nonNumeric contextRef="c-1" name="dei:EntityEmergingGrowthCompany" format="ixt-sec:boolballotbox">&#9746;</ix:nonNumeric></p>
<p>Indicate by check mark whether the registrant is a shell company (as defined in Rule 12b-2 of the Exchange Act). Yes &#9744; No
<ix:nonNumeric contextRef="c-1" name="dei:EntityShellCompany" format="ixt:fixed-false">&#9746;</ix:nonNumeric></p>
<p>As of July 25, 2025, there were <ix:nonFraction contextRef="c-a" name="dei:EntityCommonStockSharesOutstanding" unitRef="shares" decimals="INF"
scale="3" format="ixt:num-dot-decimal">12,500</ix:nonFraction> thousand shares of Class A and
<ix:nonFraction contextRef="c-b" name="dei:EntityCommonStockSharesOutstanding" unitRef="shares" decimals="INF"
format="ixt:num-dot-decimal">1,000,000</ix:nonFraction>
shares of Class B common stock outstanding.</p>
<p>PART I. FINANCIAL INFORMATION</p>
</body></html>`;

const TEXT_20F = `<html><body>
<p align="center">UNITED STATES</p><p align="center">SECURITIES AND EXCHANGE COMMISSION</p>
<p align="center">FORM 20-F</p>
<p><font face="Wingdings">&#168;</font> REGISTRATION STATEMENT PURSUANT TO SECTION 12(b) OR (g) OF THE SECURITIES EXCHANGE ACT OF 1934</p>
<p><font face="Wingdings">&#254;</font> ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934</p>
<p>For the fiscal year ended March 31, 2018</p>
<p>Commission file number: 001-12345</p>
<p align="center">NORDIC SAMPLE SHIPPING ASA</p>
<p align="center">(Exact name of Registrant as specified in its charter)</p>
<p align="center">Kingdom of Norway</p>
<p align="center">(Jurisdiction of incorporation or organization)</p>
<table><tr><td>Title of each class</td><td>Name of each exchange on which registered</td></tr>
<tr><td>American Depositary Shares</td><td>New York Stock Exchange</td></tr></table>
<p>Securities registered or to be registered pursuant to Section 12(g) of the Act: None</p>
<p>Indicate by check mark if the registrant is a well-known seasoned issuer, as defined in Rule 405 of the Securities Act.
Yes <font face="Wingdings">&#254;</font> No <font face="Wingdings">&#168;</font></p>
<p>Indicate by check mark whether the registrant is a large accelerated filer, an accelerated filer, or a non-accelerated filer.</p>
<p>Large accelerated filer <font face="Wingdings">&#254;</font> Accelerated filer <font face="Wingdings">&#168;</font>
Non-accelerated filer <font face="Wingdings">&#168;</font> Emerging growth company <font face="Wingdings">&#168;</font></p>
<p>Indicate by check mark whether the registrant is a shell company (as defined in Rule 12b-2 of the Exchange Act). Yes [ ] No [X]</p>
<p>TABLE OF CONTENTS</p>
</body></html>`;

describe('cover page from inline XBRL dei facts', () => {
  const c = parseCoverPage(IXBRL_10Q);

  it('reads the facts, hidden ones included, with their context dates and class members', () => {
    expect(c).toMatchObject({
      method: 'ixbrl',
      document_type: '10-Q',
      amendment: false,
      registrant_name: 'Example Widgets, Inc.',
      cik: '0001999999',
      file_number: '001-40000',
      fiscal_year_end: '12-31',
      fiscal_year_focus: '2025',
      fiscal_period_focus: 'Q2',
      state_of_incorporation: 'Delaware',
      irs_number: '12-3456789',
      phone: '(512) 555-0100',
      emerging_growth_company: true,
      shell_company: false,
      securities: [{ title: 'Class A Common Stock', trading_symbol: 'EXWD', exchange: 'New York Stock Exchange' }],
      address: { street1: '100 Main Street', street2: 'Suite 5', city: 'Austin', state: 'TX', zip: '78701', country: null },
    });
  });

  it('a period printed without its year takes the date from its context', () => {
    expect(c.period_of_report).toBe('2025-06-30');
  });

  it('scale applies to shares outstanding; one entry per class member', () => {
    expect(c.shares_outstanding).toEqual([
      { shares: 12_500_000, as_of: '2025-07-25', security_class: 'us-gaap:CommonClassAMember' },
      { shares: 1_000_000, as_of: '2025-07-25', security_class: 'us-gaap:CommonClassBMember' },
    ]);
  });

  it('an untagged filer category comes from the printed check boxes and is named in fields_from_text', () => {
    expect(c.filer_category).toBe('Accelerated filer');
    expect(c.fields_from_text).toContain('filer_category');
    expect(c.fields_from_text).not.toContain('registrant_name');
  });
});

describe('cover page from the printed text (no inline XBRL)', () => {
  const c = parseCoverPage(TEXT_20F);

  it('labels of a 20-F cover', () => {
    expect(c).toMatchObject({
      method: 'text',
      fields_from_text: [],
      document_type: '20-F',
      registrant_name: 'NORDIC SAMPLE SHIPPING ASA',
      cik: null,
      file_number: '001-12345',
      period_of_report: '2018-03-31',
      state_of_incorporation: 'Kingdom of Norway',
      securities: [{ title: 'American Depositary Shares', trading_symbol: null, exchange: 'New York Stock Exchange' }],
    });
  });

  it('check marks in Wingdings (þ ticked, ¨ empty) and in brackets', () => {
    expect(c.well_known_seasoned_issuer).toBe(true);
    expect(c.filer_category).toBe('Large accelerated filer');
    expect(c.emerging_growth_company).toBe(false);
    expect(c.shell_company).toBe(false);
  });
});

describe.skipIf(!hasFixtures)('cover pages of the real 10-K, 10-Q and 8-K fixtures', () => {
  const cases: [string, Partial<CoverPage>][] = [
    // Inline XBRL; Union Pacific prints its period as "December 31" + year (the context supplies the year).
    [
      '10k/10k_union_pacific_fy2024_2025-02-07_primary.htm',
      { method: 'ixbrl', registrant_name: 'UNION PACIFIC CORP', period_of_report: '2024-12-31', state_of_incorporation: 'Utah', irs_number: '13-2626465' },
    ],
    [
      '10k/10k_ibm_fy2024_2025-02-25_primary.htm',
      { method: 'ixbrl', file_number: '1-2360', public_float: { amount_usd: 159_200_000_000, as_of: '2024-06-30' } },
    ],
    ['10q/10q_apple_q3fy2025_2025-08-01_primary.htm', { method: 'ixbrl', fiscal_period_focus: 'Q3', period_of_report: '2025-06-28', fiscal_year_end: '09-27' }],
    ['8k/8k_nordstrom_2023-03-01_item5.02_9.01_primary.htm', { method: 'ixbrl', registrant_name: 'Nordstrom, Inc.', period_of_report: '2023-03-01' }],
    // Printed covers only.
    [
      '10k/10k_commonwealth_income_growth_fund_v_fy2015_0001376474-16-000635_primary.htm',
      {
        method: 'text',
        registrant_name: 'COMMONWEALTH INCOME & GROWTH FUND V',
        period_of_report: '2015-12-31',
        state_of_incorporation: 'Pennsylvania',
        irs_number: '65-1189593',
        filer_category: 'Smaller reporting company',
        well_known_seasoned_issuer: false,
        shell_company: false,
      },
    ],
    [
      '8k/8k_0001437749-16-028287_items2.02_9.01_primary.htm',
      {
        method: 'text',
        registrant_name: 'Sophiris Bio Inc.',
        period_of_report: '2016-03-23',
        state_of_incorporation: 'British Columbia',
        irs_number: '98-1008712',
      },
    ],
    [
      '10k/10k_roanoke_electric_steel_legacy.htm',
      { method: 'text', registrant_name: 'ROANOKE ELECTRIC STEEL CORPORATION', period_of_report: '2003-10-31', state_of_incorporation: 'Virginia' },
    ],
    ['10k/10k_medicis_pharmaceutical_fy1999_0000950153-99-001234_primary.htm', { method: 'text', period_of_report: '1999-06-30', file_number: '0-18443' }],
  ];
  it.each(cases)('%s', async (file, expected) => {
    expect(parseCoverPage(await readFixture(file))).toMatchObject(expected);
  });
});

describe('filer category check boxes', () => {
  const category = (line: string) => parseCoverPage(`<html><body><p>FORM 10-K</p><p>${line}</p></body></html>`).filer_category;
  it('labels containing "accelerated filer" are not counted twice', () => {
    expect(category('Large accelerated filer &#9744; Accelerated filer &#9744; Non accelerated filer &#9746; Smaller reporting company &#9746;')).toBe(
      'Non-accelerated filer',
    );
    expect(category('Large accelerated filer &#9746; Accelerated filer &#9744; Non-accelerated filer &#9744;')).toBe('Large accelerated filer');
  });
  it('boxes printed before their labels', () => {
    expect(category('&#9744; Large accelerated filer &#9746; Accelerated filer &#9744; Non-accelerated filer')).toBe('Accelerated filer');
  });
});
