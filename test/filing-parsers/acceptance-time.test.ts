import { describe, expect, it } from 'vitest';
import { acceptanceToIso } from '../../ingest/sources/edgar/archive/acceptance-time.ts';

/** EDGAR's acceptance stamps are US Eastern wall-clock time; as_of is ISO 8601 UTC. */
describe('acceptance time to ISO 8601 UTC', () => {
  it('reads both EDGAR spellings, in standard and daylight time', () => {
    // Submission header, March 8 2024: EST (UTC−5).
    expect(acceptanceToIso('20240308120145')).toBe('2024-03-08T17:01:45Z');
    // Index page, March 6 2023: EST.
    expect(acceptanceToIso('2023-03-06 17:29:21')).toBe('2023-03-06T22:29:21Z');
    // May 6 2022: EDT (UTC−4).
    expect(acceptanceToIso('20220506183057')).toBe('2022-05-06T22:30:57Z');
  });

  it('is right on both sides of a daylight-saving switch', () => {
    // 2024-03-10 02:00 EST → 03:00 EDT.
    expect(acceptanceToIso('20240310015959')).toBe('2024-03-10T06:59:59Z');
    expect(acceptanceToIso('20240310030000')).toBe('2024-03-10T07:00:00Z');
    // 2024-11-03 02:00 EDT → 01:00 EST; 00:30 is still EDT, 03:00 is EST.
    expect(acceptanceToIso('20241103003000')).toBe('2024-11-03T04:30:00Z');
    expect(acceptanceToIso('20241103030000')).toBe('2024-11-03T08:00:00Z');
  });

  it('a bare filing date is that day at midnight UTC; nothing usable is null', () => {
    expect(acceptanceToIso('2024-03-08')).toBe('2024-03-08T00:00:00Z');
    expect(acceptanceToIso('20240308')).toBe('2024-03-08T00:00:00Z');
    expect(acceptanceToIso(null)).toBeNull();
    expect(acceptanceToIso('')).toBeNull();
    expect(acceptanceToIso('soon')).toBeNull();
  });
});
