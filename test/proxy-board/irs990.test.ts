import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasFixtures, readFixtureBytes } from '../support/fixtures.ts';
import { parse990 } from '../../ingest/sources/irs/form990.ts';
import { board990Rows } from '../../ingest/datasets/irs990/rows.ts';
import { writeIrs990Sample } from '../../ingest/datasets/irs990/sample.ts';
import { tempDir } from '../support/temp-dir.ts';

describe.skipIf(!hasFixtures)('Form 990 Part VII (real e-file: Voice of San Diego, 2014v5.0, UTF-8 BOM)', async () => {
  const parsed = hasFixtures ? parse990(await readFixtureBytes('irs990/990_201541349349307794_voice_of_san_diego_2014.xml')) : null!;

  it('reads the return header', () => {
    expect(parsed.header).toEqual({
      ein: '201585919',
      organizationName: 'VOICE OF SAN DIEGO',
      returnType: '990',
      returnVersion: '2014v5.0',
      taxYear: 2014,
      taxPeriodEnd: '2014-12-31',
      amended: false,
    });
  });

  it('every Part VII Section A person exactly: title, hours, compensation, checkboxes (absent = false)', () => {
    expect(
      parsed.people.map((p) => [
        p.personName,
        p.title,
        p.averageHours,
        p.isDirectorOrTrustee,
        p.isOfficer,
        p.isKeyEmployee,
        p.isHighestCompensated,
        p.isFormer,
        p.reportableComp,
        p.reportableCompRelated,
        p.otherComp,
      ]),
    ).toEqual([
      ['R B WOOLLEY', 'CHAIRMAN OF THE BOARD', 16, true, false, false, false, false, 0, 0, 0],
      ['ROBERT PAGE', 'ASSISTANT SECRETARY/BOARD', 8, true, true, false, false, false, 0, 0, 0],
      ['REID CARR', 'BOARD MEMBER', 8, true, false, false, false, false, 0, 0, 0],
      ['BLAIR BLUM', 'SECRETARY/BOARD MEMBER', 16, true, true, false, false, false, 0, 0, 0],
      ['EUGENE MITCHELL', 'BOARD MEMBER', 8, true, false, false, false, false, 0, 0, 0],
      ['ANN ALPERT', 'CFO', 16, false, true, false, false, false, 0, 0, 0],
      ['SCOTT LEWIS', 'PRESIDENT/CEO', 40, false, true, false, false, false, 110886, 0, 0],
    ]);
  });

  it('board rows: roles from the checkboxes, confidence 1, partition by tax year', () => {
    const { rows, skipped } = board990Rows(parsed, { objectId: '201541349349307794', sourceUrl: null });
    expect(skipped).toEqual([]);
    expect(rows.map((r) => [r.record_id, r.name_key, r.roles, r.confidence, r.source_partition])).toEqual([
      ['irs_990:201541349349307794:1', 'r woolley', 'director', 1, 'irs_990-2014'],
      ['irs_990:201541349349307794:2', 'robert page', 'director,officer', 1, 'irs_990-2014'],
      ['irs_990:201541349349307794:3', 'reid carr', 'director', 1, 'irs_990-2014'],
      ['irs_990:201541349349307794:4', 'blair blum', 'director,officer', 1, 'irs_990-2014'],
      ['irs_990:201541349349307794:5', 'eugene mitchell', 'director', 1, 'irs_990-2014'],
      ['irs_990:201541349349307794:6', 'ann alpert', 'officer', 1, 'irs_990-2014'],
      ['irs_990:201541349349307794:7', 'scott lewis', 'officer', 1, 'irs_990-2014'],
    ]);
  });
});

describe('990-EZ and pre-2013 element names (no real 990-EZ e-file is among the fixtures: our own sample writer)', () => {
  it('990-EZ officer list: hours, compensation, benefit and expense amounts; roles read from titles (confidence 0.9)', async () => {
    const dir = tempDir('pb-990-');
    await writeIrs990Sample(dir, { seed: 3, scale: 1 });
    const files = (await readdir(dir)).sort();
    const ez = parse990(await readFile(join(dir, files[1])));
    expect(ez.header.returnType).toBe('990EZ');
    expect(ez.people[0]).toMatchObject({
      form: '990EZ',
      title: 'PRESIDENT',
      averageHours: 40,
      benefitProgram: 0,
      expenseAllowance: 0,
      isOfficer: null,
      isDirectorOrTrustee: null,
    });
    const { rows } = board990Rows(ez, { objectId: 'x', sourceUrl: null });
    expect(rows.map((r) => [r.title, r.roles, r.confidence])).toEqual([
      ['PRESIDENT', 'officer', 0.9],
      ['TREASURER', 'officer', 0.9],
      ['DIRECTOR', 'director', 0.9],
      ['DIRECTOR', 'director', 0.9],
    ]);
  });

  it('legacy (pre-2013) spellings map to the same fields', () => {
    const xml = `<?xml version="1.0"?><Return xmlns="http://www.irs.gov/efile" returnVersion="2011v1.2"><ReturnHeader>
      <TaxPeriodEndDate>2011-06-30</TaxPeriodEndDate><ReturnType>990</ReturnType>
      <Filer><EIN>012345678</EIN><Name><BusinessNameLine1>OLD FORMAT SOCIETY</BusinessNameLine1></Name></Filer><TaxYear>2010</TaxYear></ReturnHeader>
      <ReturnData><IRS990><Form990PartVIISectionA><NamePerson>SMITH, JOHN Q</NamePerson><Title>TREASURER</Title><AverageHoursPerWeek>5.00</AverageHoursPerWeek>
      <Officer>X</Officer><ReportableCompFromOrganization>1200</ReportableCompFromOrganization><ReportableCompFromRelatedOrgs>0</ReportableCompFromRelatedOrgs>
      <OtherCompensation>0</OtherCompensation></Form990PartVIISectionA></IRS990></ReturnData></Return>`;
    const r = parse990(xml);
    expect(r.header).toMatchObject({ ein: '012345678', organizationName: 'OLD FORMAT SOCIETY', taxYear: 2010, taxPeriodEnd: '2011-06-30', returnType: '990' });
    expect(r.people[0]).toMatchObject({
      personName: 'SMITH, JOHN Q',
      title: 'TREASURER',
      averageHours: 5,
      isOfficer: true,
      isDirectorOrTrustee: false,
      reportableComp: 1200,
    });
    expect(board990Rows(r, { objectId: 'y', sourceUrl: null }).rows[0].name_key).toBe('john smith');
  });
});
