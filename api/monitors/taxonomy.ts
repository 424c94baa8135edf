import { IMPORTANCE_RANK, type Importance } from '../../schemas/events.ts';

/**
 * The event taxonomy is the events feed's (single source): a monitor's `signals` and an `event_type` target are
 * checked against it, so a typo is a 400 at creation instead of a monitor that silently never fires.
 */
export { EVENT_TYPES, isEventType } from '../../schemas/events.ts';

/** low < medium < high (the events writer's ranks); an unknown importance ranks 0 and never passes a threshold. */
export function importanceRank(s: string | null | undefined): number {
  return (s && IMPORTANCE_RANK[s as Importance]) || 0;
}
