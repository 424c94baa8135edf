import { describe, expect, it } from 'vitest';
import { openDuck, queryRows } from '../../ingest/lake/duck.ts';
import { holdsTicker } from '../../api/entities/filters.ts';

/**
 * `holdsTicker` tests the stored text for the ticker's letters before parsing the list (the parse of every entity's
 * list is the cost); the answer must be the parse's alone, for lists that hold the letters inside another ticker too.
 */
describe('an entity’s current tickers hold a ticker', () => {
  it('answers as the parsed list does, through a JSON-typed column', async () => {
    const { instance, conn } = await openDuck();
    try {
      await conn.run(
        `CREATE TABLE e AS SELECT t::JSON AS tickers FROM (VALUES ('["BRK-A","BRK-B"]'), ('[]'), ('["AAPL"]'), ('["AAPLW","XAAPL"]'), ('["T","TT"]')) v(t)`,
      );
      for (const ticker of ['BRK-B', 'BRK', 'AAPL', 'T', 'TT', 'ZZZ', 'A']) {
        const fast = await queryRows(conn, `SELECT tickers::VARCHAR AS t FROM e WHERE ${holdsTicker('$1')} ORDER BY t`, [ticker]);
        const parsed = await queryRows(conn, `SELECT tickers::VARCHAR AS t FROM e WHERE list_contains(from_json(tickers, '["VARCHAR"]'), $1) ORDER BY t`, [
          ticker,
        ]);
        expect(fast, ticker).toEqual(parsed);
      }
      const [{ n }] = await queryRows(conn, `SELECT count(*)::INTEGER AS n FROM e WHERE ${holdsTicker('$1')}`, ['AAPL']);
      expect(n).toBe(1);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });
});
