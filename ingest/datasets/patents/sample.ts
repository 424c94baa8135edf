import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import type { SampleOptions } from '../../sources/common/context.ts';
import { Rng } from '../../samples/random.ts';

/**
 * A demo weekly grant file in the real layout: one `<?xml …?>` + DOCTYPE per grant, concatenated
 * (us-patent-grant v4.7 element tree: us-parties/inventors, assignees with role codes, main CPC, claims,
 * an HTML named entity in a title as real files carry). Invented content; written as a stream so the bench
 * can generate hundreds of MB.
 */

const ORGS: [string, string, string | null, string][] = [
  ['Apple Inc.', 'Cupertino', 'CA', 'US'],
  ['International Business Machines Corporation', 'Armonk', 'NY', 'US'],
  ['Samsung Electronics Co., Ltd.', 'Suwon-si', null, 'KR'],
  ['Frito-Lay North America, Inc.', 'Plano', 'TX', 'US'],
  ['Acushnet Company', 'Fairhaven', 'MA', 'US'],
  ['Siemens Aktiengesellschaft', 'Munich', null, 'DE'],
  ['Northbridge Robotics LLC', 'Austin', 'TX', 'US'],
  ['Toyota Jidosha Kabushiki Kaisha', 'Toyota-shi', null, 'JP'],
];
const FIRST = ['Maria', 'Kenji', 'David', 'Anna', 'Rahul', 'Laura', 'Peter', 'Mei'];
const LAST = ['Schmidt', 'Tanaka', 'Okafor', 'Rossi', 'Patel', 'Nguyen', 'Larsen', 'Chen'];
const TOPICS = [
  'battery electrode',
  'neural network accelerator',
  'golf club head',
  'snack chip',
  'wireless charging coil',
  'robotic gripper',
  'fuel injector',
  'display panel',
];
const CPC = [
  ['H', '01', 'M', '4', '131'],
  ['G', '06', 'N', '3', '063'],
  ['A', '63', 'B', '53', '04'],
  ['A', '23', 'L', '19', '18'],
];

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const esc = (s: string) => s.replace(/&/g, '&#x26;');

function ymd(d: Date): string {
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1, 2)}${pad(d.getUTCDate(), 2)}`;
}

function address(city: string, state: string | null, country: string): string {
  return `<address>\n<city>${city}</city>\n${state ? `<state>${state}</state>\n` : ''}<country>${country}</country>\n</address>`;
}

export function grantDocument(r: Rng, i: number, grantDate: Date): string {
  const design = i % 7 === 3;
  const number = design ? `D0${900000 + i}` : pad(11500000 + i, 8);
  const kind = design ? 'S1' : r.next() < 0.7 ? 'B2' : 'B1';
  const dateStr = ymd(grantDate);
  const filed = new Date(grantDate.getTime() - r.int(400, 1500) * 86400000);
  const topic = r.pick(TOPICS);
  const title = design ? `${topic[0].toUpperCase()}${topic.slice(1)}` : `System and method for a &lsquo;smart&rsquo; ${topic}`;
  const claims = design ? 1 : r.int(3, 40);
  const org = r.next() < 0.85 ? r.pick(ORGS) : null;
  const inventors = Array.from({ length: r.int(1, 3) }, (_, k) => {
    const [city, state, country] = org ? [org[1], org[2], org[3]] : ['Boise', 'ID', 'US'];
    return (
      `<inventor sequence="${pad(k + 1, 3)}" designation="us-only">\n<addressbook>\n` +
      `<last-name>${r.pick(LAST)}</last-name>\n<first-name>${r.pick(FIRST)}</first-name>` +
      `\n${address(city, state, country)}\n</addressbook>\n</inventor>`
    );
  }).join('\n');
  const cpc = r.pick(CPC);
  const cpcXml = design
    ? ''
    : '<classifications-cpc>\n<main-cpc>\n<classification-cpc>\n<cpc-version-indicator><date>20130101</date>' +
      `</cpc-version-indicator>\n<section>${cpc[0]}</section>\n<class>${cpc[1]}</class>\n` +
      `<subclass>${cpc[2]}</subclass>\n<main-group>${cpc[3]}</main-group>\n<subgroup>${cpc[4]}</subgroup>\n` +
      '<symbol-position>F</symbol-position>\n<classification-value>I</classification-value>\n' +
      '</classification-cpc>\n</main-cpc>\n</classifications-cpc>\n';
  const citations = Array.from(
    { length: r.int(1, 6) },
    (_, k) =>
      `<us-citation>\n<patcit num="${pad(k + 1, 5)}">\n<document-id>\n<country>US</country>\n` +
      `<doc-number>${r.int(5000000, 11000000)}</doc-number>\n<kind>B2</kind>\n<name>${r.pick(LAST)}</name>` +
      `\n<date>${r.int(1995, 2020)}0${r.int(1, 9)}00</date>\n</document-id>\n</patcit>\n<category>cited by ` +
      'examiner</category>\n</us-citation>',
  ).join('\n');
  const assignee = org
    ? `<assignees>\n<assignee>\n<addressbook>\n<orgname>${esc(org[0])}</orgname>\n` +
      `<role>${org[3] === 'US' ? '02' : '03'}</role>\n${address(org[1], org[2], org[3])}\n</addressbook>\n` +
      '</assignee>\n</assignees>\n'
    : '';
  const claimXml = Array.from(
    { length: claims },
    (_, k) =>
      `<claim id="CLM-${pad(k + 1, 5)}" num="${pad(k + 1, 5)}">\n<claim-text>${k + 1}. The ${topic} of ` +
      'claim 1, further comprising a controller configured to adjust an operating parameter in response to ' +
      'a measured value.</claim-text>\n</claim>',
  ).join('\n');
  const abstractXml = design
    ? ''
    : `<abstract id="abstract">\n<p id="p-0001" num="0000">A ${topic} includes a housing, a sensor and a controller; ` +
      'the controller adjusts an operating parameter in response to the sensor&#x2019;s measured value.</p>\n</abstract>\n';
  return (
    `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE us-patent-grant SYSTEM "us-patent-grant-v47-2022-02-17.dtd" [ ]>
<us-patent-grant lang="EN" dtd-version="v4.7 2022-02-17" file="US${number}-${dateStr}.XML" status="PRODUCTION" ` +
    `id="us-patent-grant" country="US" date-produced="${dateStr}" date-publ="${dateStr}">
<us-bibliographic-data-grant>
<publication-reference>
<document-id>
<country>US</country>
<doc-number>${number}</doc-number>
<kind>${kind}</kind>
<date>${dateStr}</date>
</document-id>
</publication-reference>
<application-reference appl-type="${design ? 'design' : 'utility'}">
<document-id>
<country>US</country>
<doc-number>${design ? 29 : 17}${pad(r.int(0, 999999), 6)}</doc-number>
<date>${ymd(filed)}</date>
</document-id>
</application-reference>
<us-application-series-code>${design ? 29 : 17}</us-application-series-code>
${cpcXml}<invention-title id="d2e43">${title}</invention-title>
<us-references-cited>
${citations}
</us-references-cited>
<number-of-claims>${claims}</number-of-claims>
<us-exemplary-claim>1</us-exemplary-claim>
<figures>
<number-of-drawing-sheets>${r.int(1, 12)}</number-of-drawing-sheets>
<number-of-figures>${r.int(1, 20)}</number-of-figures>
</figures>
<us-parties>
<inventors>
${inventors}
</inventors>
</us-parties>
${assignee}<examiners>
<primary-examiner>
<last-name>${r.pick(LAST)}</last-name>
<first-name>${r.pick(FIRST)}</first-name>
<department>${r.int(1600, 3700)}</department>
</primary-examiner>
</examiners>
</us-bibliographic-data-grant>
${abstractXml}<description id="description">
<heading id="h-0001" level="1">BACKGROUND</heading>
<p id="p-0002" num="0001">The present disclosure relates to a ${topic}. ` +
    `${'Conventional designs suffer from limited efficiency and durability. '.repeat(r.int(5, 30))}</p>
</description>
<us-claim-statement>What is claimed is:</us-claim-statement>
<claims id="claims">
${claimXml}
</claims>
</us-patent-grant>
`
  );
}

/** The Tuesday on or before a date. */
function tuesdayOnOrBefore(d: Date): Date {
  const out = new Date(d);
  out.setUTCDate(out.getUTCDate() - ((out.getUTCDay() + 5) % 7));
  return out;
}

/** Writes `ipgYYMMDD.xml` with `count` grants; returns its path. */
export async function writeGrantFile(dir: string, seed: number, count: number, date = '2024-01-02'): Promise<string> {
  await mkdir(dir, { recursive: true });
  const grantDate = tuesdayOnOrBefore(new Date(`${date}T00:00:00Z`));
  const path = join(dir, `ipg${ymd(grantDate).slice(2)}.xml`);
  const out = createWriteStream(path);
  const r = new Rng(seed);
  for (let i = 0; i < count; i++) {
    if (!out.write(grantDocument(r, i, grantDate))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return path;
}

export async function writePatentSample(dir: string, opts: SampleOptions): Promise<void> {
  await writeGrantFile(dir, opts.seed, Math.max(1, Math.round(200 * opts.scale)));
}
