import { describe, expect, it } from 'vitest';
import { MonitorIndex, monitorMatches, normalizeTarget, type MatchableEvent, type MonitorRule } from '../../api/monitors/matcher.ts';
import { EVENT_TYPES } from '../../api/monitors/taxonomy.ts';

const base: MonitorRule = {
  id: 'm1',
  account_id: 'a',
  target_type: 'ticker',
  target_value: 'AAPL',
  signals: [],
  materiality: 'low',
  status: 'active',
  webhook_endpoint_id: null,
};
const event: MatchableEvent = {
  id: 'e1',
  event_type: 'sec.8k.auditor_change',
  importance: 'medium',
  entity_cik: '0000320193',
  entity_ticker: 'AAPL',
  details: { form: '8-K' },
};
const rule = (o: Partial<MonitorRule>): MonitorRule => ({ ...base, ...o });

describe('monitor matching: rule 1, target per target_type', () => {
  it('ticker matches the entity ticker, case-insensitively', () => {
    expect(monitorMatches(rule({ target_value: normalizeTarget('ticker', ' aapl ')! }), event)).toBe(true);
    expect(monitorMatches(rule({ target_value: 'MSFT' }), event)).toBe(false);
    expect(monitorMatches(rule({}), { ...event, entity_ticker: null })).toBe(false);
  });
  it('cik matches with or without leading zeros', () => {
    expect(normalizeTarget('cik', '320193')).toBe('0000320193');
    expect(monitorMatches(rule({ target_type: 'cik', target_value: normalizeTarget('cik', '320193')! }), event)).toBe(true);
    expect(monitorMatches(rule({ target_type: 'cik', target_value: '0000320193' }), { ...event, entity_cik: '320193' })).toBe(true);
    expect(monitorMatches(rule({ target_type: 'cik', target_value: '0000789019' }), event)).toBe(false);
    expect(normalizeTarget('cik', 'apple')).toBeNull();
  });
  it('form matches details.form exactly (an amendment is its own form)', () => {
    expect(monitorMatches(rule({ target_type: 'form', target_value: normalizeTarget('form', '8-k')! }), event)).toBe(true);
    expect(monitorMatches(rule({ target_type: 'form', target_value: '8-K' }), { ...event, details: { form: '8-K/A' } })).toBe(false);
    expect(monitorMatches(rule({ target_type: 'form', target_value: '8-K' }), { ...event, details: {} })).toBe(false);
  });
  it('event_type matches the exact event type only', () => {
    expect(monitorMatches(rule({ target_type: 'event_type', target_value: 'sec.8k.auditor_change' }), event)).toBe(true);
    expect(monitorMatches(rule({ target_type: 'event_type', target_value: 'sec.8k.executive_change' }), event)).toBe(false);
  });
});

describe('monitor matching: rule 2, signals', () => {
  it('an empty signals list matches every type; otherwise the type must be listed', () => {
    expect(monitorMatches(rule({ signals: [] }), event)).toBe(true);
    expect(monitorMatches(rule({ signals: ['sec.8k.auditor_change', 'sec.filing.new'] }), event)).toBe(true);
    expect(monitorMatches(rule({ signals: ['sec.filing.new'] }), event)).toBe(false);
  });
});

describe('monitor matching: rule 3, materiality low < medium < high', () => {
  it.each([
    ['low', 'low', true],
    ['low', 'medium', true],
    ['low', 'high', true],
    ['medium', 'low', false],
    ['medium', 'medium', true],
    ['medium', 'high', true],
    ['high', 'low', false],
    ['high', 'medium', false],
    ['high', 'high', true],
  ])('materiality %s vs importance %s → %s', (materiality, importance, expected) => {
    expect(monitorMatches(rule({ materiality }), { ...event, importance })).toBe(expected);
  });
});

describe('paused monitors', () => {
  it('match nothing, and are left out of the index', () => {
    const paused = rule({ status: 'paused' });
    expect(monitorMatches(paused, event)).toBe(false);
    expect(new MonitorIndex([paused]).match(event)).toEqual([]);
  });
});

describe('MonitorIndex', () => {
  it('returns exactly what the rule-by-rule check returns, over a random population', () => {
    let seed = 42;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const tickers = ['AAPL', 'MSFT', 'TSLA', 'XOM'];
    const ciks = ['0000320193', '0000789019', '0001318605'];
    const forms = ['8-K', '10-K', '4', '13F-HR'];
    const imp = ['low', 'medium', 'high'];
    const monitors: MonitorRule[] = [];
    for (let i = 0; i < 2000; i++) {
      const t = (['ticker', 'cik', 'form', 'event_type'] as const)[rnd(4)];
      const value = t === 'ticker' ? tickers[rnd(4)] : t === 'cik' ? ciks[rnd(3)] : t === 'form' ? forms[rnd(4)] : EVENT_TYPES[rnd(EVENT_TYPES.length)];
      const signals = rnd(2) ? [] : [EVENT_TYPES[rnd(EVENT_TYPES.length)], EVENT_TYPES[rnd(EVENT_TYPES.length)]];
      monitors.push(rule({ id: `m${i}`, target_type: t, target_value: value, signals, materiality: imp[rnd(3)], status: rnd(5) ? 'active' : 'paused' }));
    }
    const index = new MonitorIndex(monitors);
    let total = 0;
    for (let j = 0; j < 300; j++) {
      const e: MatchableEvent = {
        id: `e${j}`,
        event_type: EVENT_TYPES[rnd(EVENT_TYPES.length)],
        importance: imp[rnd(3)],
        entity_cik: ciks[rnd(3)],
        entity_ticker: rnd(4) ? tickers[rnd(4)] : null,
        details: { form: forms[rnd(4)] },
      };
      const fast = index
        .match(e)
        .map((m) => m.id)
        .sort();
      const slow = monitors
        .filter((m) => monitorMatches(m, e))
        .map((m) => m.id)
        .sort();
      expect(fast).toEqual(slow);
      total += fast.length;
    }
    expect(total).toBeGreaterThan(100);
  });
});
