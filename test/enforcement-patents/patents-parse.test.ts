import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { GrantParser, patentNumberFromDocNumber } from '../../ingest/sources/uspto/grant-xml.ts';
import { openGrantStream, splitConcatenatedXml } from '../../ingest/sources/uspto/split.ts';
import { fixturePath, hasFixtures, readFixture } from '../support/fixtures.ts';

async function parseAll(source: AsyncIterable<Buffer | string>) {
  const parser = new GrantParser();
  const out = [];
  for await (const doc of splitConcatenatedXml(source)) out.push({ doc, parsed: parser.parse(doc.xml) });
  return out;
}

describe('patent numbers', () => {
  it('drops leading zeros after the prefix (PatentsView patent_id form)', () => {
    expect(patentNumberFromDocNumber('D0656308')).toBe('D656308');
    expect(patentNumberFromDocNumber('08142345')).toBe('8142345');
    expect(patentNumberFromDocNumber('RE049876')).toBe('RE49876');
    expect(patentNumberFromDocNumber('PP034567')).toBe('PP34567');
    expect(patentNumberFromDocNumber('11540449')).toBe('11540449');
    expect(patentNumberFromDocNumber('garbage')).toBeNull();
  });
});

describe.skipIf(!hasFixtures)('ipg weekly grant file (real excerpts, 2012-03-27, DTD v4.2)', () => {
  it('splits two concatenated documents and reads exact bibliographic values', async () => {
    const docs = await parseAll(await openGrantStream(fixturePath('patents/ipg120327.two.xml')));
    expect(docs.map((d) => [d.doc.ordinal, d.doc.line])).toEqual([
      [1, 1],
      [2, 257],
    ]);
    const first = (docs[0].parsed as { grant: any }).grant;
    expect(first).toMatchObject({
      patent_number: 'D656308',
      doc_number: 'D0656308',
      kind_code: 'S1',
      patent_type: 'design',
      title: 'Replaceable cartridge for a pain management system',
      grant_date: '2012-03-27',
      application_number: '29379369',
      application_date: '2010-11-18',
      series_code: '29',
      claims_count: 1,
      figures_count: 16,
      drawing_sheets_count: 8,
      citations_count: 4,
      cpc_main: null,
      abstract: null,
      source_file_id: 'USD0656308-20120327.XML',
      dtd_version: 'v4.2 2006-08-23',
    });
    expect(first.assignees).toEqual([
      {
        name: 'OrthoCor Medical, Inc.',
        orgname: 'OrthoCor Medical, Inc.',
        last_name: null,
        first_name: null,
        role: '02',
        city: 'Minneapolis',
        state: 'MN',
        country: 'US',
      },
    ]);
    // v4.2 has no <inventors>: the applicant-inventors are the inventors.
    expect(first.inventors.map((i: { name: string }) => i.name)).toEqual(['Kin-Joe Sham']);
    const second = (docs[1].parsed as { grant: any }).grant;
    expect(second).toMatchObject({ patent_number: 'D656309', title: 'Universal remote control accessory for a mobile device' });
    expect(second.assignees[0]).toMatchObject({ name: 'Zero1.tv GmbH', role: '03', city: 'Berlin', state: null, country: 'DE' });
  });

  it('reads all 18 documents of the excerpt, D656296..D656313 in order', async () => {
    const docs = await parseAll(await openGrantStream(fixturePath('patents/ipg120327.18.xml')));
    expect(docs).toHaveLength(18);
    const grants = docs.map((d) => (d.parsed as { grant: any }).grant);
    expect(grants.map((g) => g.patent_number)).toEqual(Array.from({ length: 18 }, (_, i) => `D${656296 + i}`));
    expect(grants[0]).toMatchObject({ title: 'Ready to eat snack piece', citations_count: 42 });
    expect(grants[0].assignees[0]).toMatchObject({ name: 'Frito-Lay North America, Inc.', city: 'Plano', state: 'TX', country: 'US' });
    expect(grants.filter((g) => g.assignees.length === 0).map((g) => g.patent_number)).toEqual(['D656297', 'D656299', 'D656300', 'D656302']);
  });

  it('regression: an assignee without an address (The Vermont Teddy Bear Company) keeps its name, location null', async () => {
    const docs = await parseAll(await openGrantStream(fixturePath('patents/ipg120327.18.xml')));
    const g = docs.map((d) => (d.parsed as { grant: any }).grant).find((x) => x.patent_number === 'D656301');
    expect(g.assignees).toEqual([
      {
        name: 'The Vermont Teddy Bear Company, Inc.',
        orgname: 'The Vermont Teddy Bear Company, Inc.',
        last_name: null,
        first_name: null,
        role: '02',
        city: null,
        state: null,
        country: null,
      },
    ]);
  });

  it('regression: an entity-encoded ampersand (&#x26;) in an agent name does not break the document', async () => {
    const xml = await readFixture('patents/ipg120327.two.xml');
    expect(xml).toContain('Schwegman, Lunberg &#x26; Woessner');
    const docs = await parseAll(Readable.from([xml]));
    expect(docs.every((d) => 'grant' in d.parsed)).toBe(true);
  });

  it('splitting is independent of chunk boundaries (declaration split across 3-byte chunks)', async () => {
    const bytes = Buffer.from(await readFixture('patents/ipg120327.two.xml'));
    const chunks = Array.from({ length: Math.ceil(bytes.length / 3) }, (_, i) => bytes.subarray(i * 3, i * 3 + 3));
    const docs = await parseAll(Readable.from(chunks));
    expect(docs.map((d) => (d.parsed as { grant: any }).grant.patent_number)).toEqual(['D656308', 'D656309']);
  });

  it('application documents (ipa files) are reported as skipped, not parsed as grants', async () => {
    const docs = await parseAll(await openGrantStream(fixturePath('patents/ipa130117.one.xml')));
    expect(docs.map((d) => d.parsed)).toEqual([
      { skip: 'not a grant document (<us-patent-application>)' },
      { skip: 'not a grant document (<us-patent-application>)' },
    ]);
  });
});

describe('v4.7 element tree (our generator, real layout)', () => {
  it('reads main CPC, abstract with entities, us-parties inventors', async () => {
    const { grantDocument } = await import('../../ingest/datasets/patents/sample.ts');
    const { Rng } = await import('../../ingest/samples/random.ts');
    const xml = grantDocument(new Rng(3), 0, new Date('2024-01-02T00:00:00Z'));
    const r = new GrantParser().parse(xml) as { grant: any };
    expect(r.grant.patent_number).toBe('11500000');
    expect(r.grant.cpc_main).toMatch(/^[A-H]\d{2}[A-Z] \d+\/\d+$/);
    expect(r.grant.title).toContain('‘smart’');
    expect(r.grant.abstract).toContain('sensor’s measured value');
    expect(r.grant.inventors.length).toBeGreaterThan(0);
  });
});
