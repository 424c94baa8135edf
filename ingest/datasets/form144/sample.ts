import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SampleOptions } from '../../sources/common/context.ts';
import { mulberry32, pick } from '../../samples/random.ts';
import { pad10, sampleIssuers } from '../../samples/universe.ts';
import { submissionTxt } from '../../sources/edgar/sgml.ts';

/** Demo Form 144 filings as full-submission `.txt` files (SGML header + the namespaced XML), deterministic. */

const BROKERS = [
  'Goldman Sachs & Co. LLC',
  'GOLDMAN SACHS & CO LLC',
  'Morgan Stanley Smith Barney LLC',
  'Charles Schwab & Co., Inc.',
  'Fidelity Brokerage Services LLC',
  'J.P. Morgan Securities LLC',
];
const PEOPLE = ['Jane Q. Rivera', 'Tom Okafor', 'Ingrid Larsen', 'Ravi Patel'];
const esc = (s: string) => s.replace(/&/g, '&amp;');
const mdy = (d: Date) => `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;

export async function writeForm144Sample(dir: string, opts: SampleOptions): Promise<void> {
  const rnd = mulberry32(opts.seed + 144);
  const folder = join(dir, 'form144');
  await mkdir(folder, { recursive: true });
  // Issuers: the universe's first three reporting companies (their file numbers as the filings sample writes them).
  const issuers = sampleIssuers(opts.seed)
    .slice(0, 3)
    .map((c, i) => [pad10(c.cik), c.name, `001-${String(30000 + i).padStart(5, '0')}`]);
  const n = Math.max(1, Math.round(30 * opts.scale));
  for (let i = 0; i < n; i++) {
    const [cik, name, fileNo] = pick(rnd, issuers);
    const acc = `0001921094-24-${String(100 + i).padStart(6, '0')}`;
    const filed = new Date(Date.UTC(2024, Math.floor(rnd() * 12), 1 + Math.floor(rnd() * 27)));
    const person = pick(rnd, PEOPLE);
    const broker = pick(rnd, BROKERS);
    const units = Math.round(500 + rnd() * 80000);
    const price = 50 + rnd() * 250;
    const xml =
      `<?xml version="1.0" encoding="UTF-8"?><ns2:edgarSubmission ` +
      `xmlns:com="http://www.sec.gov/edgar/common" xmlns:ns2="http://www.sec.gov/edgar/ownership">
    <ns2:headerData>
        <ns2:submissionType>${rnd() < 0.1 ? '144/A' : '144'}</ns2:submissionType>
        <ns2:filerInfo><ns2:filer><ns2:filerCredentials><ns2:cik>000${1900000 + i}</ns2:cik><ns2:ccc>XXXXXXXX` +
      `</ns2:ccc></ns2:filerCredentials></ns2:filer><ns2:liveTestFlag>LIVE</ns2:liveTestFlag></ns2:filerInfo>
    </ns2:headerData>
    <ns2:formData>
        <ns2:issuerInfo>
            <ns2:issuerCik>${cik}</ns2:issuerCik>
            <ns2:issuerName>${esc(name)}</ns2:issuerName>
            <ns2:secFileNumber>${fileNo}</ns2:secFileNumber>
            <ns2:issuerAddress><com:street1>1 Main Street</com:street1><com:city>Palo Alto</com:city>` +
      `<com:stateOrCountry>CA</com:stateOrCountry><com:zipCode>94301</com:zipCode></ns2:issuerAddress>
            <ns2:nameOfPersonForWhoseAccountTheSecuritiesAreToBeSold>${person}</ns2:nameOfPersonForWhoseAccountTheSecuritiesAreToBeSold>
            <ns2:relationshipsToIssuer><ns2:relationshipToIssuer>${pick(rnd, ['Officer', 'Director', 'Officer'])}` +
      `</ns2:relationshipToIssuer></ns2:relationshipsToIssuer>
        </ns2:issuerInfo>
        <ns2:securitiesInformation>
            <ns2:securitiesClassTitle>${pick(rnd, ['Common', 'Common Stock', 'Class A Common Stock'])}</ns2:securitiesClassTitle>
            <ns2:brokerOrMarketmakerDetails><ns2:name>${esc(broker)}</ns2:name><ns2:address><com:street1>` +
      `200 West Street</com:street1><com:city>New York</com:city><com:stateOrCountry>NY</com:stateOrCountry>` +
      `<com:zipCode>10282</com:zipCode></ns2:address></ns2:brokerOrMarketmakerDetails>
            <ns2:noOfUnitsSold>${units}</ns2:noOfUnitsSold>
            <ns2:aggregateMarketValue>${(units * price).toFixed(2)}</ns2:aggregateMarketValue>
            <ns2:noOfUnitsOutstanding>${Math.round(1e9 + rnd() * 1e10)}</ns2:noOfUnitsOutstanding>
            <ns2:approxSaleDate>${mdy(filed)}</ns2:approxSaleDate>
            <ns2:securitiesExchangeName>NASDAQ</ns2:securitiesExchangeName>
        </ns2:securitiesInformation>
        <ns2:securitiesToBeSold><ns2:securitiesClassTitle>Common</ns2:securitiesClassTitle><ns2:acquiredDate>` +
      `${mdy(filed)}</ns2:acquiredDate><ns2:natureOfAcquisitionTransaction>Restricted Stock Units` +
      `</ns2:natureOfAcquisitionTransaction><ns2:nameOfPersonfromWhomAcquired>The Issuer` +
      `</ns2:nameOfPersonfromWhomAcquired><ns2:isGiftTransaction>N</ns2:isGiftTransaction>` +
      `<ns2:amountOfSecuritiesAcquired>${units}</ns2:amountOfSecuritiesAcquired><ns2:paymentDate>${mdy(filed)}` +
      `</ns2:paymentDate><ns2:natureOfPayment>Compensation</ns2:natureOfPayment></ns2:securitiesToBeSold>
        <ns2:nothingToReportFlagOnSecuritiesSoldInPast3Months>Y</ns2:nothingToReportFlagOnSecuritiesSoldInPast3Months>
        <ns2:noticeSignature><ns2:noticeDate>${mdy(filed)}</ns2:noticeDate><ns2:planAdoptionDates>` +
      `<ns2:planAdoptionDate>11/15/2023</ns2:planAdoptionDate></ns2:planAdoptionDates><ns2:signature>` +
      `${esc(broker)} on behalf of ${person}</ns2:signature></ns2:noticeSignature>
    </ns2:formData>
</ns2:edgarSubmission>`;
    const txt = submissionTxt({
      accession: acc,
      formType: '144',
      filedDate: filed.toISOString().slice(0, 10),
      parties: [{ role: 'SUBJECT COMPANY', cik, name }],
      xml,
    });
    await writeFile(join(folder, `${acc}.txt`), txt);
  }
}
