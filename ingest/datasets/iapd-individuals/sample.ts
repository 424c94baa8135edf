import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SampleOptions } from '../../sources/common/context.ts';
import { Rng } from '../../samples/random.ts';
import { personName } from '../../samples/rng.ts';
import { sampleFirms } from '../../samples/firms.ts';
import { writeZip } from '../../sources/common/zip.ts';

const SAMPLE_FEED_DATE = '2026-07-21';
/** Demo size at scale 1. */
const DEMO_INDIVIDUALS = 600;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export interface SamplePerson {
  crd: number;
  first: string;
  middle: string | null;
  last: string;
  firms: number[];
  bd: boolean;
  drp: boolean;
  iaActive: boolean;
  start: string;
}

export function sampleIndividuals(seed: number, scale: number): SamplePerson[] {
  const rng = new Rng(seed + 21);
  const firms = sampleFirms(seed, scale).filter((f) => !f.exempt);
  const n = Math.max(1, Math.round(DEMO_INDIVIDUALS * scale));
  const out: SamplePerson[] = [];
  for (let i = 0; i < n; i++) {
    const { first, middle, last } = personName(rng);
    const employments = i % 25 === 0 ? 0 : i % 6 === 0 ? 2 : 1;
    const picks = Array.from({ length: employments }, () => rng.pick(firms).crd);
    out.push({
      crd: 1_000_000 + i * 37 + rng.int(0, 36),
      first,
      middle,
      last,
      firms: [...new Set(picks)],
      bd: rng.chance(0.35),
      drp: rng.chance(0.07),
      iaActive: employments > 0,
      start: `${rng.int(1980, 2025)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`,
    });
  }
  return out;
}

function personXml(p: SamplePerson, firmNames: Map<number, string>): string {
  let x =
    `<Indvl>\n<Info lastNm="${esc(p.last)}" ` +
    `firstNm="${esc(p.first)}"${p.middle ? ` midNm="${p.middle}"` : ''} indvlPK="${p.crd}" ` +
    `actvAGReg="${p.iaActive ? 'Y' : 'N'}" link="https://adviserinfo.sec.gov/individual/summary/${p.crd}"/>\n`;
  if (p.crd % 4 === 0) x += `<OthrNms><OthrNm lastNm="${esc(p.last)}-SMITH" firstNm="${esc(p.first)}"/></OthrNms>\n`;
  x += '<CrntEmps>\n';
  for (const crd of p.firms) {
    x +=
      `<CrntEmp orgNm="${esc(firmNames.get(crd) ?? '')}" orgPK="${crd}" city="NEW YORK" state="NY" ` +
      'cntry="United States">\n<CrntRgstns>\n<CrntRgstn regAuth="NY" regCat="RA" st="APPROVED" ' +
      `stDt="${p.start}"/>\n`;
    if (p.bd) x += `<CrntRgstn regAuth="FINRA" regCat="RR" st="APPROVED" stDt="${p.start}"/>\n`;
    x +=
      '</CrntRgstns>\n<BrnchOfLocs><BrnchOfLoc str1="1 MAIN ST" city="NEW YORK" state="NY" cntry="United States" postlCd="10001"/></BrnchOfLocs>\n</CrntEmp>\n';
  }
  x += '</CrntEmps>\n';
  x +=
    `<Exms><Exm exmCd="S65" exmNm="Uniform Investment Adviser Law Examination" exmDt="${p.start}"/>` +
    (p.bd ? `<Exm exmCd="S7" exmNm="General Securities Representative Examination" exmDt="${p.start}"/>` : '') +
    '</Exms>\n';
  if (p.crd % 5 === 0) x += '<Dsgntns><Dsgntn dsgntnNm="CERTIFIED FINANCIAL PLANNER"/></Dsgntns>\n';
  x += `<PrevRgstns><PrevRgstn orgNm="EARLIER FIRM LLC" orgPK="9999" regBeginDt="${p.start}" regEndDt="2019-12-31"/></PrevRgstns>\n`;
  x +=
    `<DRPs><DRP hasRegAction="${p.drp ? 'Y' : 'N'}" hasCriminal="N" hasBankrupt="N" hasCivilJudc="N" ` +
    `hasBond="N" hasJudgment="N" hasInvstgn="N" hasCustComp="${p.drp ? 'Y' : 'N'}" ` +
    'hasTermination="N"/></DRPs>\n';
  return `${x}</Indvl>\n`;
}

/** `IA_INDVL_Feed_07_21_2026.xml.zip` with two parts, ISO-8859-1, in the feed's element/attribute names. */
export async function writeIndividualsSample(dir: string, opts: SampleOptions): Promise<void> {
  const people = sampleIndividuals(opts.seed, opts.scale);
  const firmNames = new Map(sampleFirms(opts.seed, opts.scale).map((f) => [f.crd, f.legal]));
  const half = Math.ceil(people.length / 2);
  const part = (ps: SamplePerson[]) =>
    Buffer.from(
      '<?xml version="1.0" encoding="ISO-8859-1"?>\n<IAPDIndividualReport ' +
        `GenOn="${SAMPLE_FEED_DATE}">\n<Indvls>\n${ps.map((p) => personXml(p, firmNames)).join('')}</Indvls>` +
        '\n</IAPDIndividualReport>\n',
      'latin1',
    );
  await mkdir(dir, { recursive: true });
  const [m, d, y] = [SAMPLE_FEED_DATE.slice(5, 7), SAMPLE_FEED_DATE.slice(8, 10), SAMPLE_FEED_DATE.slice(0, 4)];
  await writeZip(join(dir, `IA_INDVL_Feed_${m}_${d}_${y}.xml.zip`), [
    { name: 'IA_Indvl_Feeds1.xml', data: part(people.slice(0, half)) },
    { name: 'IA_Indvl_Feeds2.xml', data: part(people.slice(half)) },
  ]);
}
