import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/harness.ts';
import insider from '../../ingest/datasets/insider/dataset.ts';
import def13f from '../../ingest/datasets/13f/dataset.ts';
import { explicitAccession } from '../../ingest/sources/edgar/ownership/inputs.ts';
import { sniffInput } from '../../ingest/sources/edgar/local-filings.ts';
import { tempDir } from '../support/temp-dir.ts';

/**
 * Ingest input handling (issue #18 item 6), through the function the CLI calls (`runIngest` with the CLI's args):
 * a bare ownership XML whose file name has no accession takes `--accession`; a file with an extension we do not
 * read is sniffed by content (a `.raw` full submission is a filing) or reported as skipped by name. The documents
 * are written here in the regulator's formats (ownershipDocument X0306, the full-submission SGML container).
 */

function form4Xml(owner: { cik: string; name: string }, shares: number): string {
  return `<?xml version="1.0"?>
<ownershipDocument>
    <schemaVersion>X0306</schemaVersion>
    <documentType>4</documentType>
    <periodOfReport>2025-03-03</periodOfReport>
    <notSubjectToSection16>0</notSubjectToSection16>
    <issuer>
        <issuerCik>0000789019</issuerCik>
        <issuerName>Contoso Devices Inc.</issuerName>
        <issuerTradingSymbol>CNTD</issuerTradingSymbol>
    </issuer>
    <reportingOwner>
        <reportingOwnerId>
            <rptOwnerCik>${owner.cik}</rptOwnerCik>
            <rptOwnerName>${owner.name}</rptOwnerName>
        </reportingOwnerId>
        <reportingOwnerRelationship>
            <isDirector>0</isDirector>
            <isOfficer>1</isOfficer>
            <isTenPercentOwner>0</isTenPercentOwner>
            <isOther>0</isOther>
            <officerTitle>Chief Financial Officer</officerTitle>
        </reportingOwnerRelationship>
    </reportingOwner>
    <nonDerivativeTable>
        <nonDerivativeTransaction>
            <securityTitle><value>Common Stock</value></securityTitle>
            <transactionDate><value>2025-03-03</value></transactionDate>
            <transactionCoding>
                <transactionFormType>4</transactionFormType>
                <transactionCode>S</transactionCode>
                <equitySwapInvolved>0</equitySwapInvolved>
            </transactionCoding>
            <transactionAmounts>
                <transactionShares><value>${shares}</value></transactionShares>
                <transactionPricePerShare><value>41.25</value></transactionPricePerShare>
                <transactionAcquiredDisposedCode><value>D</value></transactionAcquiredDisposedCode>
            </transactionAmounts>
            <postTransactionAmounts>
                <sharesOwnedFollowingTransaction><value>120000</value></sharesOwnedFollowingTransaction>
            </postTransactionAmounts>
            <ownershipNature>
                <directOrIndirectOwnership><value>D</value></directOrIndirectOwnership>
            </ownershipNature>
        </nonDerivativeTransaction>
    </nonDerivativeTable>
    <ownerSignature>
        <signatureName>/s/ Attorney-in-fact for ${owner.name}</signatureName>
        <signatureDate>2025-03-05</signatureDate>
    </ownerSignature>
</ownershipDocument>
`;
}

function fullSubmission(accession: string, xml: string): string {
  return `<SEC-DOCUMENT>${accession}.txt : 20250305
<SEC-HEADER>${accession}.hdr.sgml : 20250305
<ACCEPTANCE-DATETIME>20250305171502
ACCESSION NUMBER:\t\t${accession}
CONFORMED SUBMISSION TYPE:\t4
PUBLIC DOCUMENT COUNT:\t\t1
CONFORMED PERIOD OF REPORT:\t20250303
FILED AS OF DATE:\t\t20250305
DATE AS OF CHANGE:\t\t20250305

REPORTING-OWNER:\t

\tOWNER DATA:\t
\t\tCOMPANY CONFORMED NAME:\t\t\tRivera Dana
\t\tCENTRAL INDEX KEY:\t\t\t0001900002

ISSUER:\t\t

\tCOMPANY DATA:\t
\t\tCOMPANY CONFORMED NAME:\t\t\tContoso Devices Inc.
\t\tCENTRAL INDEX KEY:\t\t\t0000789019
</SEC-HEADER>
<DOCUMENT>
<TYPE>4
<SEQUENCE>1
<FILENAME>wk-form4_1741213002.xml
<DESCRIPTION>FORM 4
<TEXT>
<XML>
${xml}</XML>
</TEXT>
</DOCUMENT>
</SEC-DOCUMENT>
`;
}

describe('ingest inputs: --accession and content sniffing', () => {
  let app: TestApp;
  let root: string;
  const accessions = async () =>
    (await app.services.lake.query('SELECT DISTINCT accession FROM insider_transactions ORDER BY accession')).map((r) => String(r.accession));

  beforeAll(async () => {
    app = await createTestApp({ routes: [] });
    root = tempDir('inputs-');
  });
  afterAll(async () => app?.close());

  it('a bare ownership XML named without an accession is refused, then ingested with --accession', async () => {
    const dir = join(root, 'bare');
    await mkdir(dir);
    await writeFile(join(dir, 'form4_rivera.xml'), form4Xml({ cik: '0001900001', name: 'Lee Morgan' }, 2500));
    // Every row rejected: the run is refused (exit 3), naming the file and why.
    await expect(app.ingest(insider, { from: dir }, { skipDiff: true })).rejects.toThrow(/every row was rejected.*form4_rivera\.xml: missing accession/s);

    const s = await app.ingest(insider, { from: join(dir, 'form4_rivera.xml'), accession: '0001900001-25-000007' }, { skipDiff: true });
    expect(s.badRows).toBe(0);
    expect(await accessions()).toContain('0001900001-25-000007');
  });

  it('a full submission saved as .raw is sniffed and read; an unreadable file is reported as skipped by name', async () => {
    const dir = join(root, 'mixed');
    await mkdir(dir);
    await writeFile(join(dir, 'download.raw'), fullSubmission('0001900002-25-000011', form4Xml({ cik: '0001900002', name: 'Rivera Dana' }, 900)));
    await writeFile(join(dir, 'notes.dat'), 'Rivera sale, see the filing agent email of 5 March.\n');
    const s = await app.ingest(insider, { from: dir }, { skipDiff: true });
    expect(await accessions()).toContain('0001900002-25-000011');
    expect(s.badRowSamples).toEqual([
      { file: 'notes.dat', line: null, reason: 'skipped: extension .dat not read and the content is not a submission, XML or zip' },
    ]);
  });

  it('--accession names one filing: a folder of several filings is refused with the count', async () => {
    const dir = join(root, 'two');
    await mkdir(dir);
    await writeFile(join(dir, 'a.xml'), form4Xml({ cik: '0001900003', name: 'Kim Avery' }, 10));
    await writeFile(join(dir, 'b.xml'), form4Xml({ cik: '0001900004', name: 'Ng Jordan' }, 20));
    await expect(app.ingest(insider, { from: dir, accession: '0001900003-25-000001' }, { skipDiff: true })).rejects.toThrow(/holds 2 filing files/);
  });

  it('13F: a non-filing file beside the XML documents is reported, not ignored', async () => {
    const dir = join(root, '13f', '0001900009-25-000003');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'cover.pdf'), '%PDF-1.7\n%binary\n');
    // The only file is not a filing: nothing was read, so the run is refused, naming the file.
    await expect(app.ingest(def13f, { from: join(root, '13f') }, { skipDiff: true })).rejects.toThrow(
      /cover\.pdf: skipped: not a data set member, zip or 13F filing \(by extension or content\)/,
    );
  });

  it('explicitAccession and sniffInput', async () => {
    expect(explicitAccession({ accession: '1900001/000190000125000007' })).toBe('0001900001-25-000007');
    expect(explicitAccession({})).toBeNull();
    expect(() => explicitAccession({ accession: '0001900001-25-000007,0001900001-25-000008' })).toThrow(/one accession/);
    await writeFile(join(root, 'x.bin'), fullSubmission('0001900002-25-000011', '<ownershipDocument/>\n'));
    expect(await sniffInput(join(root, 'x.bin'))).toBe('submission');
    await writeFile(join(root, 'y.bin'), '<?xml version="1.0"?>\n<ownershipDocument/>\n');
    expect(await sniffInput(join(root, 'y.bin'))).toBe('xml');
    expect(await sniffInput(join(root, '13f', '0001900009-25-000003', 'cover.pdf'))).toBeNull();
  });
});
