/**
 * Which filings of one manager and period make up its current report. Filings are applied in order of
 * acceptance time (the data sets carry only the filing date), then accession number:
 *   - an original 13F-HR starts the report (a second original for the same period replaces the first, as filers
 *     sometimes re-file instead of amending);
 *   - a 13F-HR/A RESTATEMENT replaces everything before it;
 *   - a 13F-HR/A NEW HOLDINGS adds its rows to what is current;
 *   - notices (13F-NT, 13F-NT/A) carry no rows and change nothing.
 * An amendment without a type is taken as a restatement when it is a full holdings report (the safer choice:
 * never double-count).
 */
export interface FilingOrderKey {
  accession: string;
  cik: string;
  periodOfReport: string;
  submissionType: string;
  amendmentType: string | null;
  isAmendment: boolean | null;
  acceptedAt: string | null;
  filingDate: string | null;
}

export type AmendmentEffect = 'original' | 'restatement' | 'new_holdings' | 'notice';

export interface FilingState {
  accession: string;
  effect: AmendmentEffect;
  isCurrent: boolean;
  /** The accession whose restatement (or re-filing) replaced this one. */
  supersededBy: string | null;
}

export function amendmentEffect(f: FilingOrderKey): AmendmentEffect {
  const type = f.submissionType.toUpperCase();
  if (type.startsWith('13F-NT')) return 'notice';
  const amended = type.endsWith('/A') || f.isAmendment === true;
  if (!amended) return 'original';
  const t = (f.amendmentType ?? '').toUpperCase();
  if (t.includes('NEW HOLDINGS')) return 'new_holdings';
  return 'restatement';
}

function orderKey(f: FilingOrderKey): string {
  // Acceptance time is finer than the filing date; a filing date alone sorts as the start of that day.
  return `${f.acceptedAt ?? `${f.filingDate ?? '0000-00-00'}T00:00:00`}|${f.accession}`;
}

/** Resolves every filing of every (CIK, period) group; the input may hold many groups. */
export function resolveAmendments(filings: FilingOrderKey[]): Map<string, FilingState> {
  const groups = new Map<string, FilingOrderKey[]>();
  for (const f of filings) {
    const k = `${f.cik}|${f.periodOfReport}`;
    (groups.get(k) ?? groups.set(k, []).get(k)!).push(f);
  }
  const out = new Map<string, FilingState>();
  for (const group of groups.values()) {
    group.sort((a, b) => (orderKey(a) < orderKey(b) ? -1 : orderKey(a) > orderKey(b) ? 1 : 0));
    let live: FilingState[] = [];
    for (const f of group) {
      const effect = amendmentEffect(f);
      // Notices stay current: they are the manager's report for the period (holdings filed by another manager).
      const state: FilingState = { accession: f.accession, effect, isCurrent: true, supersededBy: null };
      out.set(f.accession, state);
      if (effect === 'notice') continue;
      if (effect === 'original' || effect === 'restatement') {
        for (const prev of live) {
          prev.isCurrent = false;
          prev.supersededBy = f.accession;
        }
        live = [state];
      } else {
        live.push(state);
      }
    }
  }
  return out;
}
