import { Parser } from 'htmlparser2';
import { decodeHTML } from 'entities';
import { cleanText, toInt, toIsoDate } from '../common/normalize.ts';

/**
 * One `us-patent-grant` document (DTD v4.0–v4.7) to the fields the API serves. Tokenized with htmlparser2 in
 * xmlMode (≈6× faster than building objects, and lenient: grant text carries HTML named entities such as
 * `&lsquo;` that a strict XML parser rejects without the DTD). Only bibliographic data and the abstract are
 * collected; the description and claims are tokenized and dropped.
 */

export interface PatentParty {
  name: string;
  /** Organisation name when the party is a company. */
  orgname: string | null;
  last_name: string | null;
  first_name: string | null;
  /** USPTO role code of assignees (`02` US company, `03` foreign company, `04`/`05` individuals …). */
  role: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
}

export interface PatentGrant {
  /** PatentsView form: prefix kept, leading zeros dropped (`D656308`, `8142345`, `RE49876`). */
  patent_number: string;
  /** `doc-number` as printed (`D0656308`). */
  doc_number: string;
  kind_code: string | null;
  /** `appl-type`: utility, design, plant, reissue… */
  patent_type: string | null;
  title: string | null;
  grant_date: string;
  application_number: string | null;
  application_date: string | null;
  series_code: string | null;
  claims_count: number | null;
  figures_count: number | null;
  drawing_sheets_count: number | null;
  citations_count: number;
  cpc_main: string | null;
  ipc_main: string | null;
  assignees: PatentParty[];
  inventors: PatentParty[];
  abstract: string | null;
  /** `@file` of the root (`USD0656308-20120327.XML`). */
  source_file_id: string | null;
  dtd_version: string | null;
}

export type GrantParse = { grant: PatentGrant } | { skip: string };

/** `D0656308` → `D656308`, `08142345` → `8142345`; null for anything else. */
export function patentNumberFromDocNumber(doc: string | null | undefined): string | null {
  const m = doc
    ?.trim()
    .toUpperCase()
    .match(/^([A-Z]{0,2})0*(\d+)$/);
  return m ? `${m[1]}${m[2]}` : null;
}

interface PartyDraft {
  orgname?: string;
  'last-name'?: string;
  'first-name'?: string;
  role?: string;
  city?: string;
  state?: string;
  country?: string;
  appType?: string;
}

function toParty(d: PartyDraft): PatentParty | null {
  const orgname = cleanText(d.orgname);
  const last = cleanText(d['last-name']);
  const first = cleanText(d['first-name']);
  const name = orgname ?? cleanText([first, last].filter(Boolean).join(' '));
  if (!name) return null;
  const clean = (v: string | undefined) => {
    const c = cleanText(v);
    // v4.2 writes `omitted`/`unknown` where a country is not given.
    return c && !/^(omitted|unknown)$/i.test(c) ? c : null;
  };
  return { name, orgname, last_name: last, first_name: first, role: cleanText(d.role), city: clean(d.city), state: clean(d.state), country: clean(d.country) };
}

const PARTY_FIELDS = new Set(['orgname', 'last-name', 'first-name', 'role', 'city', 'state', 'country']);
const CLASS_PARTS = ['section', 'class', 'subclass', 'main-group', 'subgroup'];

/** Parses many documents with one tokenizer (reset per document: no per-document allocation of a parser). */
export class GrantParser {
  private parser: Parser;
  private stack: string[] = [];
  private root: string | null = null;
  private rootAttrs: Record<string, string> = {};
  private fields: Record<string, string> = {};
  private party: PartyDraft | null = null;
  private assignees: PatentParty[] = [];
  private inventors: PatentParty[] = [];
  private applicantInventors: PatentParty[] = [];
  private citations = 0;
  private cls: Record<string, string> | null = null;
  private clsKind: 'cpc' | 'ipc' | null = null;
  private text = '';
  private capture: string | null = null;
  private captureDepth = 0;

  constructor() {
    this.parser = new Parser(
      {
        onopentag: (name, attribs) => this.open(name, attribs),
        ontext: (t) => this.onText(t),
        onclosetag: (name) => this.close(name),
      },
      { xmlMode: true, decodeEntities: false },
    );
  }

  private reset(): void {
    this.stack = [];
    this.root = null;
    this.rootAttrs = {};
    this.fields = {};
    this.party = null;
    this.assignees = [];
    this.inventors = [];
    this.applicantInventors = [];
    this.citations = 0;
    this.cls = null;
    this.clsKind = null;
    this.text = '';
    this.capture = null;
    this.captureDepth = 0;
  }

  private within(name: string): boolean {
    return this.stack.includes(name);
  }

  private open(name: string, attribs: Record<string, string>): void {
    if (this.root === null) {
      this.root = name;
      this.rootAttrs = attribs;
    }
    this.stack.push(name);
    if (this.capture) return;
    switch (name) {
      case 'application-reference':
        this.fields['appl-type'] = attribs['appl-type'] ?? '';
        break;
      case 'assignee':
      case 'inventor':
      case 'applicant':
      case 'us-applicant':
        this.party = { appType: attribs['app-type'] };
        break;
      case 'us-citation':
      case 'citation':
        this.citations++;
        break;
      case 'classification-cpc':
        if (this.within('main-cpc') && !this.fields.cpc) {
          this.cls = {};
          this.clsKind = 'cpc';
        }
        break;
      case 'classification-ipcr':
        if (!this.fields.ipc) {
          this.cls = {};
          this.clsKind = 'ipc';
        }
        break;
      case 'invention-title':
      case 'abstract':
        this.startCapture(name);
        break;
      default:
        if (this.leafKey(name)) this.startCapture(name);
    }
  }

  /** Which leaf elements are read, by where they sit. */
  private leafKey(name: string): boolean {
    if (this.party && PARTY_FIELDS.has(name)) return true;
    if (this.cls && CLASS_PARTS.includes(name)) return true;
    if (['doc-number', 'kind', 'date', 'country'].includes(name)) {
      return this.within('publication-reference') || this.within('application-reference');
    }
    return ['number-of-claims', 'number-of-figures', 'number-of-drawing-sheets', 'us-application-series-code'].includes(name);
  }

  private startCapture(name: string): void {
    this.capture = name;
    this.captureDepth = this.stack.length;
    this.text = '';
  }

  private onText(t: string): void {
    if (this.capture) this.text += t;
  }

  private close(name: string): void {
    if (this.capture && this.stack.length === this.captureDepth && name === this.capture) {
      this.store(name, this.text);
      this.capture = null;
    }
    this.stack.pop();
    if (this.capture) return;
    if (this.party && ['assignee', 'inventor', 'applicant', 'us-applicant'].includes(name)) {
      const party = toParty(this.party);
      if (party) {
        if (name === 'assignee') this.assignees.push(party);
        else if (name === 'inventor') this.inventors.push(party);
        else if (/inventor/.test(this.party.appType ?? '')) this.applicantInventors.push(party);
      }
      this.party = null;
    }
    if (this.cls && (name === 'classification-cpc' || name === 'classification-ipcr')) {
      const c = this.cls;
      const symbol = c.section && c.class && c.subclass ? `${c.section}${c.class}${c.subclass} ${c['main-group'] ?? ''}/${c.subgroup ?? ''}` : null;
      if (symbol) this.fields[this.clsKind === 'cpc' ? 'cpc' : 'ipc'] = symbol.replace(/\/$/, '');
      this.cls = null;
      this.clsKind = null;
    }
  }

  private store(name: string, raw: string): void {
    const value = decodeHTML(raw);
    if (name === 'invention-title' || name === 'abstract') {
      this.fields[name] ??= value;
      return;
    }
    if (this.party && PARTY_FIELDS.has(name)) {
      // An inventor's `address/country` and a `residence/country` both exist; the address wins.
      if (this.party[name as keyof PartyDraft] === undefined) (this.party as Record<string, string>)[name] = value;
      return;
    }
    if (this.cls && CLASS_PARTS.includes(name)) {
      this.cls[name] = value.trim();
      return;
    }
    const scope = this.within('publication-reference') ? 'pub' : this.within('application-reference') ? 'app' : null;
    const key = scope ? `${scope}.${name}` : name;
    this.fields[key] ??= value;
  }

  parse(xml: string): GrantParse {
    this.reset();
    this.parser.reset();
    this.parser.write(xml);
    this.parser.end();
    if (this.root !== 'us-patent-grant') {
      return { skip: this.root ? `not a grant document (<${this.root}>)` : 'no root element' };
    }
    const f = this.fields;
    const docNumber = cleanText(f['pub.doc-number']);
    const patentNumber = patentNumberFromDocNumber(docNumber);
    if (!docNumber || !patentNumber) return { skip: `publication-reference doc-number missing or malformed (${docNumber ?? 'none'})` };
    const grantDate = toIsoDate(f['pub.date']) ?? toIsoDate(this.rootAttrs['date-publ']);
    if (!grantDate) return { skip: `grant date missing or malformed in ${docNumber}` };
    return {
      grant: {
        patent_number: patentNumber,
        doc_number: docNumber,
        kind_code: cleanText(f['pub.kind']),
        patent_type: cleanText(f['appl-type']),
        title: cleanText(f['invention-title']),
        grant_date: grantDate,
        application_number: cleanText(f['app.doc-number']),
        application_date: toIsoDate(f['app.date']),
        series_code: cleanText(f['us-application-series-code']),
        claims_count: toInt(f['number-of-claims']),
        figures_count: toInt(f['number-of-figures']),
        drawing_sheets_count: toInt(f['number-of-drawing-sheets']),
        citations_count: this.citations,
        cpc_main: f.cpc ?? null,
        ipc_main: f.ipc ?? null,
        assignees: this.assignees,
        // v4.2 and earlier list inventors as applicants with app-type "applicant-inventor".
        inventors: this.inventors.length ? this.inventors : this.applicantInventors,
        abstract: cleanText(f.abstract),
        source_file_id: this.rootAttrs.file ?? null,
        dtd_version: this.rootAttrs['dtd-version'] ?? null,
      },
    };
  }
}
