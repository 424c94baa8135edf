import { describe, expect, it } from 'vitest';
import { createdCursor, keysetCursor, offsetCursor } from '../../api/core/cursor.ts';
import { ValidationError } from '../../api/core/errors.ts';

/** The one cursor module (api/core/cursor.ts): each variant reads back what it issued and refuses every other cursor. */
const SECRET = 'cursor-test-secret';
const scope = { endpoint: '/v1/things', filters: { state: 'NY', limit: 5 } };

function refusal(read: () => unknown) {
  try {
    read();
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    const d = (e as ValidationError).detail;
    expect(d).toHaveLength(1);
    expect(d[0].loc).toEqual(['query', 'cursor']);
    return (e as ValidationError).status;
  }
  throw new Error('the cursor was accepted');
}

describe('the signed cursor module', () => {
  it('each variant reads back its own position; limit is not part of the binding', () => {
    expect(keysetCursor.read(SECRET, scope, keysetCursor.issue(SECRET, scope, ['a', 3]), 2)).toEqual(['a', 3]);
    const again = { ...scope, filters: { ...scope.filters, limit: 50 } };
    expect(createdCursor.read(SECRET, again, createdCursor.issue(SECRET, scope, { created_at: '2025-01-01T00:00:00Z', id: 'x' }))).toEqual({
      created_at: '2025-01-01T00:00:00Z',
      id: 'x',
    });
    expect(offsetCursor.read(SECRET, scope, offsetCursor.issue(SECRET, scope, 120))).toBe(120);
  });

  it('a tampered, foreign-endpoint, other-filter, other-variant or other-secret cursor is a 422 on cursor', () => {
    const c = keysetCursor.issue(SECRET, scope, ['a', 3]);
    const tampered = `${c.slice(0, 5)}${c[5] === 'A' ? 'B' : 'A'}${c.slice(6)}`;
    expect(refusal(() => keysetCursor.read(SECRET, scope, tampered, 2))).toBe(422);
    expect(refusal(() => keysetCursor.read(SECRET, scope, 'not-a-cursor', 2))).toBe(422);
    expect(refusal(() => keysetCursor.read(SECRET, { ...scope, endpoint: '/v1/other' }, c, 2))).toBe(422);
    expect(refusal(() => keysetCursor.read(SECRET, { ...scope, filters: { state: 'CA' } }, c, 2))).toBe(422);
    expect(refusal(() => keysetCursor.read(SECRET, scope, c, 3))).toBe(422);
    expect(refusal(() => keysetCursor.read('another-secret', scope, c, 2))).toBe(422);
    expect(refusal(() => offsetCursor.read(SECRET, scope, c))).toBe(422);
    expect(refusal(() => createdCursor.read(SECRET, scope, offsetCursor.issue(SECRET, scope, 1)))).toBe(422);
    expect(refusal(() => keysetCursor.read(SECRET, scope, offsetCursor.issue(SECRET, scope, 1), 1))).toBe(422);
  });
});
