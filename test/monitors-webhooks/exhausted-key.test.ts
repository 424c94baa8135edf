import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { MONITORING_ROUTES } from './monitoring-routes.ts';

/** Managing monitors costs a credit per call, but deleting them is free: an exhausted key can still stop them. */
describe('an exhausted key and its monitors', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ routes: MONITORING_ROUTES, env: { WEBHOOK_ALLOW_HOSTS: 'localhost' } });
  });
  afterAll(() => app?.close());

  it('lists and creates for 1 credit, is refused (402) once exhausted, and still deletes for free', async () => {
    const key = await app.newKey('free', 'acct-exhausted');
    const created = await app.request('/v1/monitors', {
      method: 'POST',
      key,
      body: { name: 'apple filings', target_type: 'ticker', target_value: 'AAPL', signals: ['sec.filing.new'] },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-credits-charged')).toBe('1');
    const id = created.body.data[0].id;
    // Spend the rest of the free plan's one-time credits.
    await app.services.state.run("UPDATE credit_usage SET used = 100 WHERE account_id = 'acct-exhausted'");
    const listed = await app.request('/v1/monitors', { key });
    expect(listed.status).toBe(402);
    expect(listed.headers.get('x-credits-remaining')).toBe('0');
    const deleted = await app.request(`/v1/monitors/${id}`, { method: 'DELETE', key });
    expect(deleted.status).toBe(200);
    expect(deleted.headers.get('x-credits-charged')).toBe('0');
    expect(deleted.body.data[0].id).toBe(id);
    expect(await app.services.state.all('SELECT id FROM monitors WHERE id = $1', [id])).toEqual([]);
  });
});
