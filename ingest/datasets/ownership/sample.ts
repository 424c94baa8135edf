import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SampleOptions } from '../../sources/common/context.ts';
import { mulberry32, pick } from '../../samples/random.ts';
import { submissionTxt } from '../../sources/edgar/sgml.ts';
import { pad10, sampleIssuers } from '../../samples/universe.ts';

/** Demo structured Schedule 13D/13G filings as full-submission `.txt` files in the real XML layouts. */

const HOLDERS = [
  ['0001373604', 'Harborview Partners, L.P.', 'PN'],
  ['0000315066', 'Granite Advisors LLC', 'IA'],
  ['0001361570', 'Alpine Asset Management SA', 'IA'],
  ['0002048490', 'Ridge Capital Inc.', 'CO'],
];
const mdy = (d: Date) => `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
const esc = (s: string) => s.replace(/&/g, '&amp;');
/** Amendments name the filing they amend in the header, as the structured schedules require. */
const previousTag = (previous: string | null) => (previous ? `<previousAccessionNumber>${previous}</previousAccessionNumber>` : '');

function xml13D(form: string, issuer: string[], holder: string[], shares: number, pct: number, event: Date, previous: string | null): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?><edgarSubmission xmlns="http://www.sec.gov/edgar/schedule13D" xmlns:com="http://www.sec.gov/edgar/common">
<headerData><submissionType>${form}</submissionType>${previousTag(previous)}<filerInfo><filer><filerCredentials><cik>${holder[0]}</cik><ccc>` +
    `XXXXXXXX</ccc></filerCredentials></filer><liveTestFlag>LIVE</liveTestFlag></filerInfo></headerData>
<formData><coverPageHeader><securitiesClassTitle>Common Stock</securitiesClassTitle><dateOfEvent>${mdy(event)}</dateOfEvent>
<issuerInfo><issuerCIK>${issuer[0]}</issuerCIK><issuerCUSIP>${issuer[2]}</issuerCUSIP><issuerName>${esc(issuer[1])}` +
    `</issuerName><address><com:street1>1 Main St</com:street1><com:city>Boston</com:city><com:stateOrCountry>MA` +
    `</com:stateOrCountry><com:zipCode>02110</com:zipCode></address></issuerInfo></coverPageHeader>
<reportingPersons><reportingPersonInfo><reportingPersonCIK>${holder[0]}</reportingPersonCIK><reportingPersonName>` +
    `${esc(holder[1])}</reportingPersonName><fundType>WC</fundType><citizenshipOrOrganization>DE` +
    `</citizenshipOrOrganization>
<soleVotingPower>${shares}</soleVotingPower><sharedVotingPower>0</sharedVotingPower><soleDispositivePower>${shares}` +
    `</soleDispositivePower><sharedDispositivePower>0</sharedDispositivePower>
<aggregateAmountOwned>${shares}</aggregateAmountOwned><isAggregateExcludeShares>N</isAggregateExcludeShares>` +
    `<percentOfClass>${pct}</percentOfClass><typeOfReportingPerson>${holder[2]}</typeOfReportingPerson>` +
    `</reportingPersonInfo></reportingPersons>
<signatureInfo><signaturePerson><signatureReportingPerson>${esc(holder[1])}</signatureReportingPerson>` +
    `<signatureDetails><signature>/s/ Authorized Signatory</signature><title>Managing Member</title><date>` +
    `${mdy(event)}</date></signatureDetails></signaturePerson></signatureInfo></formData></edgarSubmission>`
  );
}

function xml13G(form: string, issuer: string[], holder: string[], shares: number, pct: number, event: Date, previous: string | null): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?><edgarSubmission xmlns="http://www.sec.gov/edgar/schedule13g" xmlns:com="http://www.sec.gov/edgar/common">
<headerData><submissionType>${form}</submissionType>${previousTag(previous)}<filerInfo><filer><filerCredentials><cik>${holder[0]}</cik><ccc>` +
    `XXXXXXXX</ccc></filerCredentials></filer><liveTestFlag>LIVE</liveTestFlag></filerInfo></headerData>
<formData><coverPageHeader><securitiesClassTitle>Common Stock</securitiesClassTitle>` +
    `<eventDateRequiresFilingThisStatement>${mdy(event)}</eventDateRequiresFilingThisStatement>
<issuerInfo><issuerCik>${issuer[0]}</issuerCik><issuerName>${esc(issuer[1])}</issuerName><issuerCusip>${issuer[2]}</issuerCusip></issuerInfo>
<designateRulesPursuantThisScheduleFiled><designateRulePursuantThisScheduleFiled>Rule 13d-1(c)` +
    `</designateRulePursuantThisScheduleFiled></designateRulesPursuantThisScheduleFiled></coverPageHeader>
<coverPageHeaderReportingPersonDetails><reportingPersonName>${esc(holder[1])}</reportingPersonName><citizenshipOrOrganization>DE</citizenshipOrOrganization>
<reportingPersonBeneficiallyOwnedNumberOfShares><soleVotingPower>${shares}.00</soleVotingPower><sharedVotingPower>` +
    `0.00</sharedVotingPower><soleDispositivePower>${shares}.00</soleDispositivePower><sharedDispositivePower>0.00` +
    `</sharedDispositivePower></reportingPersonBeneficiallyOwnedNumberOfShares>
<reportingPersonBeneficiallyOwnedAggregateNumberOfShares>${shares}.00` +
    `</reportingPersonBeneficiallyOwnedAggregateNumberOfShares><classPercent>${pct}</classPercent>` +
    `<typeOfReportingPerson>${holder[2]}</typeOfReportingPerson></coverPageHeaderReportingPersonDetails>
<signatureInformation><reportingPersonName>${esc(holder[1])}</reportingPersonName><signatureDetails><signature>` +
    `/s/ Authorized Signatory</signature><title>CCO</title><date>${mdy(event)}</date></signatureDetails>` +
    `</signatureInformation></formData></edgarSubmission>`
  );
}

export async function writeSchedule13Sample(dir: string, opts: SampleOptions): Promise<void> {
  const rnd = mulberry32(opts.seed + 13);
  const folder = join(dir, 'ownership');
  await mkdir(folder, { recursive: true });
  // Issuers: three of the universe's reporting companies, with their CUSIPs.
  const issuers = sampleIssuers(opts.seed)
    .slice(3, 6)
    .map((c) => [pad10(c.cik), c.name, c.cusip]);
  const n = Math.max(1, Math.round(24 * opts.scale));
  for (let i = 0; i < n; i++) {
    const issuer = pick(rnd, issuers);
    const holder = pick(rnd, HOLDERS);
    const is13D = rnd() < 0.4;
    const form = `SCHEDULE ${is13D ? '13D' : '13G'}${rnd() < 0.35 ? '/A' : ''}`;
    const filed = new Date(Date.UTC(2025, Math.floor(rnd() * 12), 1 + Math.floor(rnd() * 27)));
    const event = new Date(filed.getTime() - 3 * 86400000);
    const shares = Math.round(1e6 + rnd() * 9e6);
    const pct = Math.round((5 + rnd() * 15) * 10) / 10;
    const acc = `${holder[0]}-25-${String(i + 1).padStart(6, '0')}`;
    const previous = form.endsWith('/A') ? `${holder[0]}-24-${String(i + 1).padStart(6, '0')}` : null;
    const xml = is13D ? xml13D(form, issuer, holder, shares, pct, event, previous) : xml13G(form, issuer, holder, shares, pct, event, previous);
    const txt = submissionTxt({
      accession: acc,
      formType: form,
      filedDate: filed.toISOString().slice(0, 10),
      xml,
      parties: [
        { role: 'SUBJECT COMPANY', cik: issuer[0], name: issuer[1] },
        { role: 'FILED BY', cik: holder[0], name: holder[1] },
      ],
    });
    await writeFile(join(folder, `${acc}.txt`), txt);
  }
}
