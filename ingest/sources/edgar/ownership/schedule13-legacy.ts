import { Parser } from 'htmlparser2';
import { cleanText, toIsoDate, toNumber } from '../../common/normalize.ts';
import type { FilingHeader } from '../sgml.ts';
import type { ReportingPerson, Schedule13Filing } from './schedule13-filing.ts';
import { classifyForm } from './schedule13-filing.ts';

/**
 * Legacy SC 13D / SC 13G (before 2024-12-18): no structure, so the SGML header gives the parties and the cover
 * page is read as text lines. Each "NAME(S) OF REPORTING PERSON(S)" starts a person block; the numbered rows
 * (sole/shared voting and dispositive power, aggregate amount, percent of class, type) are read after their
 * labels. Best-effort by design: values that cannot be found stay null.
 */

const BLOCK = /^(p|div|br|tr|td|th|table|li|h\d|center|pre|font|b)$/i;

function documentTextLines(text: string): string[] {
  const body = text.replace(/^[\s\S]*?<TEXT>/i, '');
  const looksHtml = /<(html|body|table|div|p|font|br)\b/i.test(body.slice(0, 50000));
  let plain = body;
  if (looksHtml) {
    let out = '';
    const parser = new Parser(
      {
        onopentag(name) {
          if (BLOCK.test(name)) out += '\n';
        },
        ontext(t) {
          out += t;
        },
        onclosetag(name) {
          if (BLOCK.test(name)) out += '\n';
        },
      },
      { decodeEntities: true },
    );
    parser.end(body);
    plain = out;
  }
  return plain
    .replace(/\u00a0/g, ' ')
    .split(/\r\n?|\n/)
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l !== '');
}

const ROW_NO = /^\(?\d{1,2}\)?\.?$/;
const NUMBER = /^-?\(?[\d,]+(?:\.\d+)?\)?(?:\s|$)|^-0-/;

/** A label wrapped onto a second short upper-case line ("…EACH REPORTING" / "PERSON"). */
const LABEL_TAIL = /^[A-Z()\d ]{1,25}$/;

/**
 * First value line within `span` lines after the label at `i`. The line right after the label is taken even
 * when it looks like a row number ("0" shares); later lines that are another row's label end the search, so a
 * missing value never borrows the next row's.
 */
function valueAfter(lines: string[], i: number, accept: (l: string) => boolean, span = 4): string | null {
  for (let j = i + 1; j < Math.min(lines.length, i + 1 + span); j++) {
    const l = lines[j];
    if (accept(l) && (j === i + 1 || !ROW_NO.test(l))) return l;
    if (ROW_NO.test(l) || /^\((?:see|a|b)\b/i.test(l) || /^[[\]xo ]{1,5}$/i.test(l)) continue;
    if (/^\(\d{1,2}\)/.test(l) || (/[a-z]{3}/i.test(l) && !LABEL_TAIL.test(l))) return null;
  }
  return null;
}

/** Value on the label line itself (`Sole Voting Power: 1,000`) or just after it. */
function labeled(lines: string[], from: number, to: number, label: RegExp, accept: (l: string) => boolean): string | null {
  for (let i = from; i < to; i++) {
    const m = lines[i].match(label);
    if (!m) continue;
    const rest = lines[i].slice((m.index ?? 0) + m[0].length).replace(/^[\s:.-]*/, '');
    if (rest && accept(rest)) return rest;
    return valueAfter(lines, i, accept);
  }
  return null;
}

const isNum = (l: string) => NUMBER.test(l);
const num = (l: string | null) => (l == null ? null : /^-0-/.test(l) ? 0 : toNumber(l.match(/^-?\(?[\d,]+(?:\.\d+)?\)?/)?.[0]));
const pct = (l: string | null) => {
  const m = l?.match(/(\d+(?:\.\d+)?)\s*%/) ?? l?.match(/^(\d+(?:\.\d+)?)/);
  return m ? Number(m[1]) : null;
};

export function parseLegacySchedule13(input: string, header: FilingHeader | null): Schedule13Filing {
  const lines = documentTextLines(input);
  const cls = classifyForm(header?.formType ?? lines.find((l) => /SCHEDULE 13[DG]/i.test(l)) ?? null);
  const amend = lines
    .slice(0, 80)
    .join(' ')
    .match(/Amendment\s+No\.?\s*:?\s*(\d+)/i);

  // Cover-page captions follow their value: "896522109" / "-----" / "(CUSIP Number)".
  const before = (i: number) => {
    for (let j = i - 1; j >= Math.max(0, i - 3); j--) if (!/^[-_=\s]+$/.test(lines[j])) return lines[j];
    return null;
  };
  let cusip: string | null = null;
  let eventDate: string | null = null;
  let issuerName: string | null = null;
  for (let i = 0; i < Math.min(lines.length, 400); i++) {
    if (!cusip && /^\(CUSIP Number\)/i.test(lines[i])) cusip = before(i)?.match(/\b([0-9A-Z]{6}\s?[0-9A-Z]{2}\s?[0-9])\b/i)?.[1] ?? null;
    if (!cusip) cusip = lines[i].match(/CUSIP\s*(?:No\.?|Number|#)?\s*[:.]?\s*([0-9A-Z]{6}\s?[0-9A-Z]{2}\s?[0-9])\b/i)?.[1] ?? null;
    if (!eventDate && /^\(Date of Event/i.test(lines[i])) eventDate = toIsoDate(before(i));
    if (!issuerName && /^\(Name of Issuer\)/i.test(lines[i])) issuerName = cleanText(before(i));
  }

  const starts = lines.map((l, i) => (/NAMES? OF REPORTING PERSONS?/i.test(l) ? i : -1)).filter((i) => i >= 0);
  const persons: ReportingPerson[] = starts.map((s, k) => {
    const end = starts[k + 1] ?? Math.min(lines.length, s + 80);
    const name = labeled(
      lines,
      s,
      end,
      /NAMES? OF REPORTING PERSONS?\.?/i,
      (l) => /[a-z]{2}/i.test(l) && !/I\.?R\.?S\.?|IDENTIFICATION|S\.S\. OR|ENTITIES ONLY|CHECK THE APPROPRIATE/i.test(l),
    );
    const typeLine = labeled(lines, s, end, /TYPE OF REPORTING PERSON\S*/i, (l) => /^[A-Z]{2}(\s*[,;]\s*[A-Z]{2})*\b/.test(l));
    return {
      cik: null,
      name: cleanText(name),
      citizenship: cleanText(labeled(lines, s, end, /CITIZENSHIP OR PLACE OF ORGANI[SZ]ATION/i, (l) => !/^\d{1,2}$/.test(l))),
      sole_voting_power: num(labeled(lines, s, end, /SOLE VOTING POWER/i, isNum)),
      shared_voting_power: num(labeled(lines, s, end, /SHARED VOTING POWER/i, isNum)),
      sole_dispositive_power: num(labeled(lines, s, end, /SOLE DISPOSITIVE POWER/i, isNum)),
      shared_dispositive_power: num(labeled(lines, s, end, /SHARED DISPOSITIVE POWER/i, isNum)),
      aggregate_amount: num(labeled(lines, s, end, /AGGREGATE AMOUNT BENEFICIALLY OWNED(?: BY EACH REPORTING(?: PERSON)?)?/i, isNum)),
      percent_of_class: pct(
        labeled(lines, s, end, /PERCENT OF CLASS REPRESENTED(?: BY AMOUNT IN ROW)?(?:\s*\(?\d+\)?)?/i, (l) => /\d\s*%|^\d+(?:\.\d+)?$/.test(l)),
      ),
      type_of_reporting_person: typeLine ? typeLine.match(/^[A-Z]{2}(?:\s*[,;]\s*[A-Z]{2})*/)![0].replace(/\s+/g, '') : null,
      member_of_group: null,
      fund_type: null,
      comment: null,
    };
  });

  const subject = header?.parties.find((p) => p.role === 'subject_company');
  const filedBy = header?.parties.find((p) => p.role === 'filed_by');
  return {
    accession: header?.accession ?? null,
    filed_date: header?.filedDate ?? null,
    form_type: header?.formType ?? (cls.schedule ? `SC ${cls.schedule}${cls.is_amendment ? '/A' : ''}` : null),
    schedule: cls.schedule,
    is_amendment: cls.is_amendment || amend != null,
    amendment_no: amend ? Number(amend[1]) : null,
    previous_accession: null,
    structured: false,
    filer_cik: filedBy?.cik ?? null,
    filer_name: filedBy?.name ?? persons[0]?.name ?? null,
    subject_cik: subject?.cik ?? null,
    issuer_name: subject?.name ?? issuerName,
    cusip: cusip ? cusip.replace(/\s/g, '').toUpperCase() : null,
    securities_class_title: null,
    event_date: eventDate,
    rule_designations: [],
    group_members: header?.groupMembers ?? [],
    persons,
    signature_date: null,
  };
}
