import { describe, expect, it } from 'vitest';
import { amountFor, findMoney, parseMoney, wordsToNumber } from '../../ingest/sources/sec-web/money.ts';
import { federalFiscalYear } from '../../ingest/sources/sec-web/fiscal-year.ts';
import { splitNames } from '../../ingest/sources/sec-web/names.ts';
import { normalizeReleaseNumber, releaseNumbersIn, fileNumbersIn, civilActionNumberIn } from '../../ingest/sources/sec-web/release-numbers.ts';
import { parseRss } from '../../ingest/sources/sec-web/rss.ts';
import { parseListingPage, parseDetailPage } from '../../ingest/sources/sec-web/listing-page.ts';
import { UnparsablePageError } from '../../ingest/sources/sec-web/errors.ts';
import { actionTypeOf } from '../../ingest/sources/sec-web/action-type.ts';
import { hasFixtures, readFixture } from '../support/fixtures.ts';

describe('money in words and with units → integer USD, source text kept', () => {
  it('parses figures with scale words, commas, cents and currency prefixes', () => {
    expect(findMoney('pay $1.2 million, $150,000, $2,425.61, US$3.5bn, USD 2 billion and $5m').map((m) => [m.usd, m.text])).toEqual([
      [1200000, '$1.2 million'],
      [150000, '$150,000'],
      [2426, '$2,425.61'],
      [3500000000, 'US$3.5bn'],
      [2000000000, 'USD 2 billion'],
      [5000000, '$5m'],
    ]);
  });
  it('parses amounts written in words', () => {
    expect(parseMoney('a penalty of one million dollars')).toEqual({ usd: 1000000, text: 'one million dollars', index: 13 });
    expect(parseMoney('two hundred fifty thousand dollars')?.usd).toBe(250000);
    expect(parseMoney('one hundred and twenty-five thousand dollars')?.usd).toBe(125000);
    expect(parseMoney('1.5 million dollars')?.usd).toBe(1500000);
    expect(wordsToNumber('one million two hundred thousand')).toBe(1200000);
  });
  it('regression: the article in "a three million dollars civil penalty" is grammar, not one more', () => {
    expect(amountFor('pay a three million dollars civil penalty.', 'penalty')).toEqual({ usd: 3000000, text: 'three million dollars' });
    expect(parseMoney('a million dollars')?.usd).toBe(1000000);
  });
  it('bare numbers and percentages are not money', () => {
    expect(findMoney('Release No. 26040 awarded ten percent on 2024-07-01')).toEqual([]);
  });
  it('assigns each amount to penalty / disgorgement / interest by the nearest role word', () => {
    const t = 'The final judgment orders him to pay disgorgement of $1.2 million, prejudgment interest of $150,000, and a civil penalty of $500,000.';
    expect(amountFor(t, 'penalty')).toEqual({ usd: 500000, text: '$500,000' });
    expect(amountFor(t, 'disgorgement')).toEqual({ usd: 1200000, text: '$1.2 million' });
    expect(amountFor(t, 'interest')).toEqual({ usd: 150000, text: '$150,000' });
  });
  it('sums distinct per-defendant penalties, counts a restated figure once, and lets a stated total win', () => {
    expect(amountFor('Smith agreed to pay a $100,000 civil penalty and Jones a $50,000 penalty.', 'penalty')).toEqual({
      usd: 150000,
      text: '$100,000 | $50,000',
    });
    expect(amountFor('a civil penalty of $1 million. The $1 million penalty will be distributed.', 'penalty').usd).toBe(1000000);
    expect(amountFor('penalties of $2 million and $1 million, a combined penalty of $3 million', 'penalty')).toEqual({ usd: 3000000, text: '$3 million' });
  });
});

describe('release numbers, names, fiscal years', () => {
  it('normalizes every printed form of a release number', () => {
    expect(normalizeReleaseNumber('LR26018')).toBe('LR-26018');
    expect(normalizeReleaseNumber('lr-26496')).toBe('LR-26496');
    expect(normalizeReleaseNumber('34-101794-s')).toBe('34-101794');
    expect(normalizeReleaseNumber('AAER 4403')).toBe('AAER-4403');
    expect(releaseNumbersIn('Release No. LR-26040See Also')).toEqual(['LR-26040']);
    expect(releaseNumbersIn('Release Nos. 33-11352; 34-101794; IA-6543 File No. 3-21456')).toEqual(['33-11352', '34-101794', 'IA-6543']);
    expect(fileNumbersIn('File No. 3-21456')).toEqual(['3-21456']);
    expect(civilActionNumberIn('Civil Action No. 1:24-cv-01234 (S.D.N.Y.)')).toBe('1:24-cv-01234');
  });
  it('federal fiscal year starts October 1', () => {
    expect(federalFiscalYear('2023-09-30')).toBe(2023);
    expect(federalFiscalYear('2023-10-01')).toBe(2024);
    expect(federalFiscalYear('2024-01-15')).toBe(2024);
  });
  it('classifies what a litigation release reports', () => {
    expect(actionTypeOf('SEC Complaint')).toBe('complaint');
    expect(actionTypeOf('The court entered a final judgment', 'SEC Complaint')).toBe('final_judgment');
    expect(actionTypeOf(null)).toBeNull();
  });
});

describe.skipIf(!hasFixtures)('litigation-release RSS feed (real, served 2024-07-01)', () => {
  const url = 'https://www.sec.gov/enforcement-litigation/litigation-releases/rss';
  it('reads all 25 items with exact fields; newline inside <link> trimmed', async () => {
    const items = parseRss(await readFixture('enforcement/litigation_releases_rss_2024-07-01.xml'), url);
    expect(items).toHaveLength(25);
    expect(items[0]).toEqual({
      title: 'Adrian J. Kawuba',
      link: 'https://www.sec.gov/node/963776',
      description: 'Adrian J. Kawuba',
      pubDate: '2024-07-01',
      creator: 'LR-26040',
      guid: 'https://www.sec.gov/4a082c61-74b2-4958-8721-f6af29daa3ad',
    });
    expect(items[24]).toMatchObject({ title: 'Andre Wong', pubDate: '2024-06-04', creator: 'LR-26016' });
  });
  it('regression: LR26018 without hyphen normalizes to LR-26018', async () => {
    const items = parseRss(await readFixture('enforcement/litigation_releases_rss_2024-07-01.xml'), url);
    const jared = items.find((i) => i.title === 'Jared Mitchell')!;
    expect(jared.creator).toBe('LR26018');
    expect(normalizeReleaseNumber(jared.creator)).toBe('LR-26018');
    expect(jared.pubDate).toBe('2024-06-07');
  });
  it('regression: trailing and double spaces in titles are folded; defendants split on commas/and/semicolons', async () => {
    const items = parseRss(await readFixture('enforcement/litigation_releases_rss_2024-07-01.xml'), url);
    const byNumber = (n: string) => items.find((i) => i.creator === n)!.title;
    expect(byNumber('LR-26031')).toBe('Matthew Brown and Matthew Brown Companies, LLC');
    expect(splitNames(byNumber('LR-26031')).names).toEqual(['Matthew Brown', 'Matthew Brown Companies, LLC']);
    expect(splitNames(byNumber('LR-26037')).names).toEqual([
      'Mike K. Veldhuis',
      'Paul Sexton',
      'Jackson T. Friesen',
      'Zhiying Yvonne Gasarch',
      'Courtney Kelln',
    ]);
    expect(splitNames(byNumber('LR-26036')).names).toEqual(['Lufkin Advisors, LLC', 'Chauncey Forbush Lufkin, III']);
    expect(splitNames(byNumber('LR-26023')).names).toEqual(['Zhou Min Ni', 'Jian Ming "Jonathan" Ni, CPA']);
    expect(splitNames(byNumber('LR-26019')).names).toEqual(['Marc Henry Menard', 'Laesha Jean-Louis']);
    expect(splitNames(byNumber('LR-26025'))).toEqual({ names: ['Christopher R. Bentley'], more: true });
    expect(splitNames(byNumber('LR-26038')).names).toEqual(['BorrowMoney.com, Inc.', 'Aldo Piscitello']);
  });
  it('a body that is not a feed fails loudly with its URL', () => {
    expect(() => parseRss('<html><body>Maintenance</body></html>', url)).toThrow(UnparsablePageError);
    expect(() => parseRss('<html><body>Maintenance</body></html>', url)).toThrow(url);
  });
});

describe('tolerant listing pages', () => {
  const base = 'https://www.sec.gov/litigation/litreleases.htm';
  it('legacy table layout: number links the release, printed dates, missing fields become null', () => {
    const html =
      `<table><tr><th>Release No.</th><th>Date</th><th>Action</th></tr>
      <tr><td><a href="/litigation/litreleases/2019/lr24400.htm">LR-24400</a></td><td>Mar. 1, 2019</td><td>` +
      `SEC v. John Doe, et al.<br><a href="/litigation/complaints/2019/comp24400.pdf">SEC Complaint</a></td></tr>
      <tr><td>LR-24399</td><td></td><td>Jane Roe</td></tr></table>`;
    const page = parseListingPage(html, base);
    expect(page.rows).toHaveLength(2);
    expect(page.rows[0]).toMatchObject({
      date: '2019-03-01',
      releaseNumbers: ['LR-24400'],
      name: 'SEC v. John Doe, et al.',
      detailUrl: 'https://www.sec.gov/litigation/litreleases/2019/lr24400.htm',
      documents: [{ title: 'SEC Complaint', url: 'https://www.sec.gov/litigation/complaints/2019/comp24400.pdf' }],
    });
    expect(page.rows[1]).toMatchObject({ date: null, releaseNumbers: ['LR-24399'], name: 'Jane Roe', detailUrl: null, documents: [] });
  });
  it('new-site layout: <time datetime>, names link, "Release No." and "See Also" in one cell, next page', () => {
    const html =
      `<table><thead><tr><th class="views-field-field-publish-date">Date</th>` +
      `<th class="views-field-field-respondents">Respondents</th></tr></thead><tbody>
      <tr><td class="views-field views-field-field-publish-date"><time datetime="2024-06-27T12:00:00Z">June 27, 2024</time></td>
      <td class="views-field views-field-field-respondents"><div class="release-view__respondents">` +
      `<a href="/enforcement-litigation/litigation-releases/lr-26038">BorrowMoney.com, Inc. and Aldo Piscitello` +
      `</a></div><div>Release No. LR-26038</div><div>` +
      `See Also: <a href="/files/litigation/complaints/2024/comp26038.pdf">SEC Complaint</a></div></td></tr>
      </tbody></table><nav><a class="usa-pagination__next-page" href="?page=1">Next</a></nav>`;
    const page = parseListingPage(html, 'https://www.sec.gov/enforcement-litigation/litigation-releases');
    expect(page.rows[0]).toMatchObject({
      date: '2024-06-27',
      releaseNumbers: ['LR-26038'],
      name: 'BorrowMoney.com, Inc. and Aldo Piscitello',
      detailUrl: 'https://www.sec.gov/enforcement-litigation/litigation-releases/lr-26038',
    });
    expect(page.nextUrl).toBe('https://www.sec.gov/enforcement-litigation/litigation-releases?page=1');
  });
  it('an empty month ("no results") is not an error; an unrecognizable page throws with its URL', () => {
    expect(parseListingPage('<main><p>There are no results for this month.</p></main>', base).rows).toEqual([]);
    expect(() => parseListingPage('<main><p>Access Denied</p></main>', base)).toThrow(`cannot parse ${base}`);
    expect(() => parseListingPage('<table><tr><td>foo</td><td>bar</td></tr></table>', base)).toThrow(/none carries a release number/);
  });
  it('release page: body text without navigation, documents, case numbers', () => {
    const d = parseDetailPage(
      '<html><body><nav>CIK Lookup LR-1111</nav><article><h1>Jane Roe</h1><div ' +
        'class="field--name-body"><p>Litigation Release No. LR-26001; June 3, 2024</p><p>Civil Action No. ' +
        '1:24-cv-00999. The judgment orders a civil penalty of $75,000.</p><a ' +
        'href="/files/litigation/complaints/2024/comp26001.pdf">Complaint</a></div></article></body></html>',
      'https://www.sec.gov/x',
    );
    expect(d.releaseNumbers).toEqual(['LR-26001']);
    expect(d.civilActionNumber).toBe('1:24-cv-00999');
    expect(d.documents).toEqual([{ title: 'Complaint', url: 'https://www.sec.gov/files/litigation/complaints/2024/comp26001.pdf' }]);
    expect(amountFor(d.body, 'penalty').usd).toBe(75000);
  });
});
