import type { ParsedHtml } from '../../common/html-tables/parse.ts';
import { parseAmount } from '../../common/html-tables/cells.ts';
import { normalizePersonName } from '../../common/person-names.ts';

/** Pay-versus-performance inline XBRL (ecd: taxonomy, proxies filed from 2023): the PEO's SCT total per year. */
export interface PvpYear {
  fiscalYear: number;
  periodEnd: string;
  peoTotal: number;
  peoActuallyPaid: number | null;
  peoNameKey: string | null;
}

export function readPvp(parsed: ParsedHtml): PvpYear[] {
  const peoName = parsed.facts.find((f) => f.name === 'ecd:PeoName')?.text ?? null;
  const peoNameKey = peoName ? (normalizePersonName(peoName)?.key ?? null) : null;
  const byEnd = new Map<string, PvpYear>();
  for (const f of parsed.facts) {
    if (f.name !== 'ecd:PeoTotalCompAmt' && f.name !== 'ecd:PeoActuallyPaidCompAmt') continue;
    const ctx = f.contextRef ? parsed.contexts.get(f.contextRef) : undefined;
    // Several PEOs in one year are told apart by a dimension; only the single-PEO case maps to one name.
    if (!ctx?.end || ctx.dimensional) continue;
    const a = parseAmount(f.text);
    if (a.value === null) continue;
    const value = (f.negative ? -a.value : a.value) * 10 ** f.scale;
    const y = byEnd.get(ctx.end) ?? { fiscalYear: Number(ctx.end.slice(0, 4)), periodEnd: ctx.end, peoTotal: NaN, peoActuallyPaid: null, peoNameKey };
    if (f.name === 'ecd:PeoTotalCompAmt') y.peoTotal = value;
    else y.peoActuallyPaid = value;
    byEnd.set(ctx.end, y);
  }
  return [...byEnd.values()].filter((y) => Number.isFinite(y.peoTotal)).sort((a, b) => b.fiscalYear - a.fiscalYear);
}
