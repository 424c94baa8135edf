import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SampleOptions } from '../../sources/common/context.ts';
import { mulberry32, pick } from '../../samples/random.ts';
import { samplePrivateIssuers } from '../../samples/universe.ts';

/** A demo quarter of the Form D data set in its published layout (tab-separated, ACCESSIONNUMBER key). */

const MON = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
/** Attributes of each private issuer profile (ingest/samples/universe.ts PRIVATE_ISSUER_NAMES, same order). */
const ISSUERS = [
  ['Limited Partnership', 'DE', 'DELAWARE', 'NY', 'NEW YORK', 'Pooled Investment Fund', 'Private Equity Fund'],
  ['Limited Partnership', 'DE', 'DELAWARE', 'CA', 'CALIFORNIA', 'Pooled Investment Fund', 'Venture Capital Fund'],
  ['Other', 'E9', 'CAYMAN ISLANDS', 'E9', 'CAYMAN ISLANDS', 'Pooled Investment Fund', 'Hedge Fund'],
  ['Corporation', 'DE', 'DELAWARE', 'MA', 'MASSACHUSETTS', 'Biotechnology', ''],
  ['Corporation', 'DE', 'DELAWARE', 'TX', 'TEXAS', 'Other Technology', ''],
  ['Limited Liability Company', 'KS', 'KANSAS', 'KS', 'KANSAS', 'Oil and Gas', ''],
  ['Limited Liability Company', 'DE', 'DELAWARE', 'GA', 'GEORGIA', 'REITS and Finance', ''],
];
const HEAD = {
  FORMDSUBMISSION: 'ACCESSIONNUMBER\tFILE_NUM\tFILING_DATE\tSIC_CODE\tSCHEMAVERSION\tSUBMISSIONTYPE\tTESTORLIVE\tOVER100PERSONSFLAG\tOVER100ISSUERFLAG',
  ISSUERS: [
    'ACCESSIONNUMBER',
    'IS_PRIMARYISSUER_FLAG',
    'ISSUER_SEQ_KEY',
    'CIK',
    'ENTITYNAME',
    'STREET1',
    'STREET2',
    'CITY',
    'STATEORCOUNTRY',
    'STATEORCOUNTRYDESCRIPTION',
    'ZIPCODE',
    'ISSUERPHONENUMBER',
    'JURISDICTIONOFINC',
    'ISSUER_PREVIOUSNAME_1',
    'ISSUER_PREVIOUSNAME_2',
    'ISSUER_PREVIOUSNAME_3',
    'EDGAR_PREVIOUSNAME_1',
    'EDGAR_PREVIOUSNAME_2',
    'EDGAR_PREVIOUSNAME_3',
    'ENTITYTYPE',
    'ENTITYTYPEOTHERDESC',
    'YEAROFINC_TIMESPAN_CHOICE',
    'YEAROFINC_VALUE_ENTERED',
  ].join('\t'),
  OFFERING: [
    'ACCESSIONNUMBER',
    'INDUSTRYGROUPTYPE',
    'INVESTMENTFUNDTYPE',
    'IS40ACT',
    'REVENUERANGE',
    'AGGREGATENETASSETVALUERANGE',
    'FEDERALEXEMPTIONS_ITEMS_LIST',
    'ISAMENDMENT',
    'PREVIOUSACCESSIONNUMBER',
    'SALE_DATE',
    'YETTOOCCUR',
    'MORETHANONEYEAR',
    'ISEQUITYTYPE',
    'ISDEBTTYPE',
    'ISOPTIONTOACQUIRETYPE',
    'ISSECURITYTOBEACQUIREDTYPE',
    'ISPOOLEDINVESTMENTFUNDTYPE',
    'ISTENANTINCOMMONTYPE',
    'ISMINERALPROPERTYTYPE',
    'ISOTHERTYPE',
    'DESCRIPTIONOFOTHERTYPE',
    'ISBUSINESSCOMBINATIONTRANS',
    'BUSCOMBCLARIFICATIONOFRESP',
    'MINIMUMINVESTMENTACCEPTED',
    'OVER100RECIPIENTFLAG',
    'TOTALOFFERINGAMOUNT',
    'TOTALAMOUNTSOLD',
    'TOTALREMAINING',
    'SALESAMTCLARIFICATIONOFRESP',
    'HASNONACCREDITEDINVESTORS',
    'NUMBERNONACCREDITEDINVESTORS',
    'TOTALNUMBERALREADYINVESTED',
    'SALESCOMM_DOLLARAMOUNT',
    'SALESCOMM_ISESTIMATE',
    'FINDERSFEE_DOLLARAMOUNT',
    'FINDERSFEE_ISESTIMATE',
    'FINDERFEECLARIFICATIONOFRESP',
    'GROSSPROCEEDSUSED_DOLLARAMOUNT',
    'GROSSPROCEEDSUSED_ISESTIMATE',
    'GROSSPROCEEDSUSED_CLAROFRESP',
    'AUTHORIZEDREPRESENTATIVE',
  ].join('\t'),
  RELATEDPERSONS: [
    'ACCESSIONNUMBER',
    'RELATEDPERSON_SEQ_KEY',
    'FIRSTNAME',
    'MIDDLENAME',
    'LASTNAME',
    'STREET1',
    'STREET2',
    'CITY',
    'STATEORCOUNTRY',
    'STATEORCOUNTRYDESCRIPTION',
    'ZIPCODE',
    'RELATIONSHIP_1',
    'RELATIONSHIP_2',
    'RELATIONSHIP_3',
    'RELATIONSHIPCLARIFICATION',
  ].join('\t'),
  RECIPIENTS: [
    'ACCESSIONNUMBER',
    'RECIPIENT_SEQ_KEY',
    'RECIPIENTNAME',
    'RECIPIENTCRDNUMBER',
    'ASSOCIATEDBDNAME',
    'ASSOCIATEDBDCRDNUMBER',
    'STREET1',
    'STREET2',
    'CITY',
    'STATEORCOUNTRY',
    'STATEORCOUNTRYDESCRIPTION',
    'ZIPCODE',
    'STATES_OR_VALUE_LIST',
    'DESCRIPTIONS_LIST',
    'FOREIGNSOLICITATION',
  ].join('\t'),
  SIGNATURES: 'ACCESSIONNUMBER\tSIGNATURE_SEQ_KEY\tISSUERNAME\tSIGNATURENAME\tNAMEOFSIGNER\tSIGNATURETITLE\tSIGNATUREDATE',
};
const FIRST = ['Maria', 'James', 'Aiko', 'Daniel', 'Priya', 'Tomas'];
const LAST = ['Okonkwo', 'Fischer', 'Tanaka', 'Reyes', 'Iyer', 'Novak'];

export async function writeFormDSample(dir: string, opts: SampleOptions): Promise<void> {
  const rnd = mulberry32(opts.seed + 17);
  const out: Record<keyof typeof HEAD, string[]> = { FORMDSUBMISSION: [], ISSUERS: [], OFFERING: [], RELATEDPERSONS: [], RECIPIENTS: [], SIGNATURES: [] };
  // CIKs and names from the universe's private issuers (the entity directory lists them); the rest from ISSUERS.
  const issuers = samplePrivateIssuers(opts.seed, opts.scale);
  const n = issuers.length;
  for (let i = 0; i < n; i++) {
    const issuer = issuers[i];
    const cik = String(issuer.cik).padStart(10, '0');
    const acc = `${cik}-24-${String(i + 1).padStart(6, '0')}`;
    // The draw stays so every later draw is unchanged; the attributes are the universe profile's.
    pick(rnd, ISSUERS);
    const [etype, _jur, jurDesc, st, stDesc, industry, fundType] = ISSUERS[issuer.profile];
    const name = issuer.name;
    const day = 1 + Math.floor(rnd() * 28);
    const mon = Math.floor(rnd() * 3);
    const filed = `${String(day).padStart(2, '0')}-${MON[mon]}-2024`;
    const amended = rnd() < 0.3;
    const indefinite = fundType !== '' && rnd() < 0.5;
    const total = Math.round((1 + rnd() * 200) * 250000);
    const sold = indefinite ? Math.round(rnd() * 5e7) : Math.round(total * rnd());
    out.FORMDSUBMISSION.push([acc, `021-${400000 + i}`, filed, '', 'X0708', amended ? 'D/A' : 'D', 'LIVE', '', ''].join('\t'));
    out.ISSUERS.push(
      [
        acc,
        'YES',
        '1',
        cik,
        name,
        `${100 + i} Market Street`,
        '',
        'Springfield',
        st,
        stDesc,
        '12345',
        '555-0100',
        jurDesc,
        '',
        '',
        '',
        '',
        '',
        '',
        etype,
        '',
        'withinFiveYears',
        '2022',
      ].join('\t'),
    );
    out.OFFERING.push(
      [
        acc,
        industry,
        fundType,
        fundType ? 'false' : '',
        fundType ? '' : 'Decline to Disclose',
        fundType ? 'Decline to Disclose' : '',
        fundType ? '06b,3C,3C.7' : '06b',
        amended ? 'true' : 'false',
        amended ? `${cik}-23-000001` : '',
        `2024-0${mon + 1}-0${1 + (i % 9)}`,
        '',
        'false',
        fundType ? 'false' : 'true',
        'false',
        'false',
        'false',
        fundType ? 'true' : 'false',
        'false',
        'false',
        'false',
        '',
        'false',
        '',
        String(fundType ? 250000 : 0),
        '',
        indefinite ? 'Indefinite' : String(total),
        String(sold),
        indefinite ? 'Indefinite' : String(total - sold),
        '',
        'false',
        '',
        String(1 + Math.floor(rnd() * 80)),
        '0',
        'false',
        '0',
        'false',
        '',
        '0',
        'false',
        '',
        'false',
      ].join('\t'),
    );
    const persons = 1 + Math.floor(rnd() * 3);
    for (let p = 0; p < persons; p++) {
      out.RELATEDPERSONS.push(
        [
          acc,
          String(p + 1),
          pick(rnd, FIRST),
          '',
          pick(rnd, LAST),
          '1 Main St',
          '',
          'Springfield',
          st,
          stDesc,
          '12345',
          'Executive Officer',
          p === 0 ? 'Director' : '',
          '',
          '',
        ].join('\t'),
      );
    }
    if (rnd() < 0.3)
      out.RECIPIENTS.push(
        [
          acc,
          '1',
          'Pinnacle Placement Partners',
          String(100000 + i),
          'Pinnacle Securities LLC',
          '123456',
          '9 Wall St',
          '',
          'New York',
          'NY',
          'NEW YORK',
          '10005',
          'NY,NJ,CT',
          'NEW YORK,NEW JERSEY,CONNECTICUT',
          'false',
        ].join('\t'),
      );
    out.SIGNATURES.push(
      [acc, '1', name, `/s/ ${pick(rnd, LAST)}`, pick(rnd, FIRST), 'Authorized Signatory', `2024-0${mon + 1}-${String(day).padStart(2, '0')}`].join('\t'),
    );
  }
  const folder = join(dir, 'raises', '2024q1_d');
  await mkdir(folder, { recursive: true });
  for (const [m, lines] of Object.entries(out)) await writeFile(join(folder, `${m}.tsv`), `${[HEAD[m as keyof typeof HEAD], ...lines].join('\n')}\n`);
}
