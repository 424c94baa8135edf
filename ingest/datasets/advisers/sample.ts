import { gzipSync } from 'node:zlib';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SampleOptions } from '../../sources/common/context.ts';
import { cp1252Csv } from '../../samples/csv-write.ts';
import { Rng } from '../../samples/random.ts';
import { money, mmddyyyy } from '../../samples/rng.ts';
import { sampleFirms, type SampleFirm } from '../../samples/firms.ts';
import { writeZip } from '../../sources/common/zip.ts';

/** As-of date of the demo roster (the 1st of the month, like the regulator's). */
const SAMPLE_SNAPSHOT = '2026-07-01';

const LETTERS = 'abcdefghijklmn'.split('');

/** A representative slice of the 2026 registered-adviser layout (the real file has ~448 columns, in this order). */
const RIA_HEADERS = [
  'SEC Region',
  'Organization CRD#',
  'Additional CRD Number',
  'SEC#',
  'Firm Type',
  'Umbrella Registration',
  'CIK#',
  'Primary Business Name',
  'Legal Name',
  'Main Office Street Address 1',
  'Main Office Street Address 2',
  'Main Office City',
  'Main Office State',
  'Main Office Country',
  'Main Office Postal Code',
  'Main Office Telephone Number',
  'Main Office Facsimile Number',
  'Mail Office Street Address 1',
  'Mail Office City',
  'Mail Office State',
  'Mail Office Country',
  'Mail Office Postal Code',
  'SEC Current Status',
  'SEC Status Effective Date',
  'Latest ADV Filing Date',
  'Form Version',
  '1I',
  'Website Address',
  '5A',
  '5B(1)',
  '5B(2)',
  '5B(3)',
  '5C(1)',
  '5C(2)',
  ...LETTERS.map((l) => `5D(1)(${l})`),
  '5E(1)',
  '5E(2)',
  '5E(3)',
  '5F(1)',
  '5F(2)(a)',
  '5F(2)(b)',
  '5F(2)(c)',
  '5F(2)(d)',
  '5F(2)(e)',
  '5F(2)(f)',
  '6A(1)',
  '7A(1)',
  '7A(2)',
  '7B',
  'Count of Private Funds - 7B(1)',
  'Any Hedge Funds',
  'Total number of Hedge funds',
  'Any Private Equity Funds',
  'Total number of Private Equity funds',
  'Total Gross Assets of Private Funds',
  'Count of Private Funds - 7B(2)',
  '9A(1)(a)',
  'Total Custody Amount',
  '10A',
  '11',
  '11A(1)',
  '11A(2)',
  '11B(1)',
  '12A',
];

/** The exempt-reporting file is narrower and spells the CRD header with a space, as observed. */
const ERA_HEADERS = [
  'SEC Region',
  'Organization CRD #',
  'SEC#',
  'Firm Type',
  'Primary Business Name',
  'Legal Name',
  'Main Office Street Address 1',
  'Main Office Street Address 2',
  'Main Office City',
  'Main Office State',
  'Main Office Country',
  'Main Office Postal Code',
  'Main Office Telephone Number',
  'SEC Current Status',
  'SEC Status Effective Date',
  'Latest ADV Filing Date',
  'Form Version',
  'Website Address',
  '7B',
  'Count of Private Funds - 7B(1)',
  'Total Gross Assets of Private Funds',
  '10A',
  '11',
];

const yn = (b: boolean) => (b ? 'Y' : 'N');

function rosterRow(f: SampleFirm, rng: Rng): Record<string, string | number | null> {
  const row: Record<string, string | number | null> = {
    'SEC Region': rng.pick(['NYRO', 'CHRO', 'SFRO', 'BRO', 'MIRO', 'LARO']),
    'Organization CRD#': f.crd,
    'Organization CRD #': f.crd,
    'SEC#': f.secNumber,
    'Firm Type': f.exempt ? 'Exempt Reporting Adviser' : 'Registered',
    'Umbrella Registration': 'N',
    'CIK#': f.cik,
    'Primary Business Name': f.business,
    'Legal Name': f.legal,
    'Main Office Street Address 1': f.street1,
    'Main Office Street Address 2': f.street2,
    'Main Office City': f.city,
    'Main Office State': f.state,
    'Main Office Country': f.country,
    'Main Office Postal Code': f.postal,
    'Main Office Telephone Number': f.phone,
    'Mail Office Street Address 1': f.street1,
    'Mail Office City': f.city,
    'Mail Office State': f.state,
    'Mail Office Country': f.country,
    'Mail Office Postal Code': f.postal,
    'SEC Current Status': f.exempt ? 'ERA - Active' : rng.chance(0.03) ? '120-Day Approval' : 'Approved',
    'SEC Status Effective Date': mmddyyyy(`20${rng.int(10, 25)}-0${rng.int(1, 9)}-1${rng.int(0, 9)}`),
    'Latest ADV Filing Date': mmddyyyy(f.filed),
    'Form Version': '10',
    '1I': yn(f.website != null),
    'Website Address': f.website,
    '7B': yn(f.hasPrivateFunds),
    'Count of Private Funds - 7B(1)': f.hasPrivateFunds ? f.privateFundCount : null,
    'Total Gross Assets of Private Funds': f.hasPrivateFunds ? money(rng.logUniform(5_000_000, 50_000_000_000)) : null,
    '10A': yn(rng.chance(0.2)),
    '11': yn(f.disciplinary),
  };
  if (!f.exempt) {
    Object.assign(row, {
      '5A': f.employees,
      '5B(1)': Math.round(f.employees * 0.4),
      '5B(2)': Math.round(f.employees * 0.1),
      '5B(3)': 0,
      '5C(1)': rng.int(1, 5000),
      '5C(2)': rng.int(0, 100),
      '5E(1)': 'Y',
      '5E(2)': yn(rng.chance(0.2)),
      '5E(3)': yn(rng.chance(0.3)),
      '5F(1)': 'Y',
      '5F(2)(a)': money(f.discretionary!),
      '5F(2)(b)': money(f.aum! - f.discretionary!),
      '5F(2)(c)': money(f.aum!),
      '5F(2)(d)': rng.int(1, 900),
      '5F(2)(e)': rng.int(0, 90),
      '5F(2)(f)': rng.int(1, 990),
      '6A(1)': 'N',
      '7A(1)': 'N',
      '7A(2)': yn(rng.chance(0.1)),
      'Any Hedge Funds': yn(f.hasPrivateFunds && rng.chance(0.5)),
      'Any Private Equity Funds': yn(f.hasPrivateFunds && rng.chance(0.5)),
      '9A(1)(a)': 'N',
      '11A(1)': yn(f.disciplinary),
      '11A(2)': 'N',
      '11B(1)': 'N',
      '12A': 'N',
    });
    // Client-type counts: a handful of types per adviser, the rest blank (not answered).
    for (const l of LETTERS) row[`5D(1)(${l})`] = rng.chance(0.25) ? rng.int(1, 800) : null;
  }
  return row;
}

export async function writeRosterSample(dir: string, opts: SampleOptions, snapshot = SAMPLE_SNAPSHOT): Promise<{ ria: string; era: string }> {
  const firms = sampleFirms(opts.seed, opts.scale);
  const rng = new Rng(opts.seed + 1);
  const rows = firms.map((f) => ({ f, row: rosterRow(f, rng) }));
  const stamp = `${snapshot.slice(5, 7)}${snapshot.slice(8, 10)}${snapshot.slice(0, 4)}`;
  await mkdir(dir, { recursive: true });
  const ria = join(dir, `ia${stamp}.zip`);
  const era = join(dir, `ia${stamp}-exempt.zip`);
  await writeZip(ria, [
    {
      name: `IA_SEC_-_FIRM_ROSTER_FOIA_DOWNLOAD_-_${100_000 + (opts.seed % 900_000)}.CSV`,
      data: cp1252Csv(
        RIA_HEADERS,
        rows.filter((r) => !r.f.exempt).map((r) => r.row),
      ),
    },
  ]);
  await writeZip(era, [
    {
      name: `IA_SEC_-_ERA_FIRM_ROSTER_FOIA_DOWNLOAD_-_${200_000 + (opts.seed % 900_000)}.CSV`,
      data: cp1252Csv(
        ERA_HEADERS,
        rows.filter((r) => r.f.exempt).map((r) => r.row),
      ),
    },
  ]);
  return { ria, era };
}

const xmlAttr = (s: string | number | null | undefined) =>
  String(s ?? '')
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the class is every Latin-1 code point, control characters included.
    .replace(/[^\u0000-\u00ff]/g, (c) => `&#${c.codePointAt(0)};`);

/** IAPD `IA_FIRM_SEC_Feed_MM_DD_YYYY.xml.gz`, ISO-8859-1, in the compilation feed's element/attribute names. */
export async function writeFirmFeedSample(path: string, opts: SampleOptions, generatedOn = '2026-07-21'): Promise<void> {
  const firms = sampleFirms(opts.seed, opts.scale);
  const rng = new Rng(opts.seed + 2);
  let xml = `<?xml version="1.0" encoding="ISO-8859-1"?>\n<IAPDFirmSECReport GenOn="${generatedOn}">\n<Firms>\n`;
  for (const f of firms) {
    xml +=
      `<Firm>\n<Info SECRgnCD="NYRO" FirmCrdNb="${f.crd}" SECNb="${f.secNumber}" ` +
      `BusNm="${xmlAttr(f.business)}" LegalNm="${xmlAttr(f.legal)}" UmbrRgstn="N"/>\n`;
    xml +=
      `<MainAddr Strt1="${xmlAttr(f.street1)}"${f.street2 ? ` Strt2="${xmlAttr(f.street2)}"` : ''} ` +
      `City="${xmlAttr(f.city)}"${f.state ? ` State="${f.state}"` : ''} Cntry="${xmlAttr(f.country)}" ` +
      `PostlCd="${xmlAttr(f.postal)}" PhNb="${f.phone}"/>\n`;
    xml += `<Rgstn FirmType="${f.exempt ? 'ERA' : 'Registered'}" St="${f.exempt ? 'ACTIVE' : 'APPROVED'}" Dt="2019-03-01"/>\n`;
    xml += `<NoticeFiled><States RgltrCd="${f.state || 'NY'}" St="FILED" Dt="2019-03-01"/></NoticeFiled>\n`;
    xml += `<Filing Dt="${f.filed}" FormVrsn="10"/>\n<FormInfo><Part1A>\n`;
    xml +=
      `<Item1 Q1I="${yn(f.website != null)}">` +
      (f.website ? `<WebAddrs><WebAddr>${f.website}</WebAddr><WebAddr>https://www.linkedin.com/company/${f.crd}</WebAddr></WebAddrs>` : '') +
      '</Item1>\n';
    if (!f.exempt) {
      xml += `<Item5A TtlEmp="${f.employees}"/>\n<Item5D Q5DA1="${rng.int(0, 300)}" Q5DB1="${rng.int(0, 50)}" Q5DF1="0"/>\n`;
      xml += `<Item5F Q5F1="Y" Q5F2A="${f.discretionary}.00" Q5F2B="${f.aum! - f.discretionary!}.00" Q5F2C="${f.aum}.00" Q5F2D="12" Q5F2E="3" Q5F2F="15"/>\n`;
    }
    xml += `<Item7B Q7B="${yn(f.hasPrivateFunds)}"/>\n<Item11 Q11="${yn(f.disciplinary)}"/>\n<Item11A Q11A1="${yn(f.disciplinary)}" Q11A2="N"/>\n`;
    xml += `</Part1A></FormInfo>\n</Firm>\n`;
  }
  xml += '</Firms>\n</IAPDFirmSECReport>\n';
  await writeFile(path, gzipSync(Buffer.from(xml, 'latin1')));
}

export async function writeAdvisersSample(dir: string, opts: SampleOptions): Promise<void> {
  await writeRosterSample(dir, opts);
}
