import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SampleOptions } from '../../sources/common/context.ts';
import { lcg } from '../../samples/random.ts';

/** Demo e-file returns in the IRS XML layout (2014v5.0 element names): full 990 Part VII and 990-EZ officers. */

const NAMES = ['JANE DOE', 'JOHN Q PUBLIC', 'MARIA LOPEZ', 'ROBERT E SMITH JR', 'ANN LEE', 'DAVID V DUNN', 'SUSAN K WAGNER', 'PETER HALL'];
const ORGS = ['COMMUNITY ARTS FOUNDATION', 'RIVER VALLEY FOOD BANK', 'CITY YOUTH LEAGUE', 'HARBOR HEALTH ALLIANCE'];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export async function writeIrs990Sample(dir: string, opts: SampleOptions): Promise<void> {
  await mkdir(dir, { recursive: true });
  const rand = lcg(opts.seed, 1103515245, 12345);
  const returns = Math.max(2, Math.round(4 * opts.scale));
  for (let i = 0; i < returns; i++) {
    const ez = i % 2 === 1;
    const ein = String(200000000 + i * 7919).padStart(9, '0');
    const objectId = `2024${String(4134930000000 + i).padStart(14, '0')}`;
    const people = Array.from({ length: 3 + (i % 3) }, (_, k) => {
      const name = NAMES[(i + k * 3) % NAMES.length];
      const officer = k < 2;
      const comp = officer ? Math.round(rand() * 150000) : 0;
      const hours = officer ? 40 : 2;
      if (ez) {
        return `      <OfficerDirectorTrusteeEmplGrp>
        <PersonNm>${name}</PersonNm>
        <TitleTxt>${officer ? (k === 0 ? 'PRESIDENT' : 'TREASURER') : 'DIRECTOR'}</TitleTxt>
        <AverageHrsPerWkDevotedToPosRt>${hours.toFixed(2)}</AverageHrsPerWkDevotedToPosRt>
        <CompensationAmt>${comp}</CompensationAmt>
        <EmployeeBenefitProgramAmt>0</EmployeeBenefitProgramAmt>
        <ExpenseAccountOtherAllwncAmt>0</ExpenseAccountOtherAllwncAmt>
      </OfficerDirectorTrusteeEmplGrp>`;
      }
      return (
        `      <Form990PartVIISectionAGrp>
        <PersonNm>${name}</PersonNm>
        <TitleTxt>${officer ? (k === 0 ? 'EXECUTIVE DIRECTOR' : 'BOARD CHAIR') : 'BOARD MEMBER'}</TitleTxt>
        <AverageHoursPerWeekRt>${hours.toFixed(2)}</AverageHoursPerWeekRt>
${k > 0 ? '        <IndividualTrusteeOrDirectorInd>X</IndividualTrusteeOrDirectorInd>\n' : ''}` +
        `${officer ? '        <OfficerInd>X</OfficerInd>\n' : ''}        <ReportableCompFromOrgAmt>${comp}` +
        `</ReportableCompFromOrgAmt>
        <ReportableCompFromRltdOrgAmt>0</ReportableCompFromRltdOrgAmt>
        <OtherCompensationAmt>0</OtherCompensationAmt>
      </Form990PartVIISectionAGrp>`
      );
    }).join('\n');
    const xml =
      `\uFEFF<?xml version="1.0" encoding="utf-8"?>
<Return xmlns="http://www.irs.gov/efile" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" returnVersion="2014v5.0">
  <ReturnHeader binaryAttachmentCnt="0">
    <ReturnTs>2024-05-14T18:01:56-05:00</ReturnTs>
    <TaxPeriodEndDt>2023-12-31</TaxPeriodEndDt>
    <ReturnTypeCd>${ez ? '990EZ' : '990'}</ReturnTypeCd>
    <TaxPeriodBeginDt>2023-01-01</TaxPeriodBeginDt>
    <Filer>
      <EIN>${ein}</EIN>
      <BusinessName>
        <BusinessNameLine1Txt>${esc(ORGS[i % ORGS.length])}</BusinessNameLine1Txt>
      </BusinessName>
      <BusinessNameControlTxt>XXXX</BusinessNameControlTxt>
      <USAddress><AddressLine1Txt>1 MAIN ST</AddressLine1Txt><CityNm>SPRINGFIELD</CityNm><StateAbbreviationCd>IL` +
      `</StateAbbreviationCd><ZIPCd>62701</ZIPCd></USAddress>
    </Filer>
    <TaxYr>2023</TaxYr>
  </ReturnHeader>
  <ReturnData documentCnt="1">
    <${ez ? 'IRS990EZ' : 'IRS990'} documentId="RetDoc1">
${people}
    </${ez ? 'IRS990EZ' : 'IRS990'}>
  </ReturnData>
</Return>
`;
    await writeFile(join(dir, `${objectId}_public.xml`), xml);
  }
}
