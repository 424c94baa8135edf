import { amountFor } from './money.ts';
import type { ReleaseRecord } from './listing-source.ts';

/** The text amounts are read from: the release page when fetched, else whatever the listing printed. */
export function releaseText(r: ReleaseRecord): string | null {
  return r.body ?? ([r.summary, r.title].filter(Boolean).join('. ') || null);
}

/** Penalty and disgorgement columns shared by the enforcement and litigation tables. */
export function sanctionColumns(text: string | null) {
  const penalty = amountFor(text, 'penalty');
  const disgorgement = amountFor(text, 'disgorgement');
  return {
    penalty_usd: penalty.usd,
    penalty_text: penalty.text,
    disgorgement_usd: disgorgement.usd,
    disgorgement_text: disgorgement.text,
  };
}

export function yearOf(isoDate: string): number {
  return Number(isoDate.slice(0, 4));
}
