import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadSettings } from '../schemas/settings.ts';
import { createKey, listKeys, revokeKey } from './core/keys.ts';
import { PLAN_IDS, type PlanId } from '../schemas/plans.ts';
import { isPostgresUrl, openStateStore, stateTarget } from './core/state.ts';

/**
 * `npm run keys -- create --plan <plan> [--name …]`, `keys list`, `keys revoke <id|key>`: the operator's
 * dashboard. While the server runs it owns the state file, so the CLI talks to it over its admin socket
 * (DATA_DIR/admin.sock, reachable only from this machine's file system); otherwise it opens the file itself.
 * A PostgreSQL store (STATE_DATABASE_URL) is shared by every process, so the CLI always opens it directly.
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { plan: { type: 'string' }, name: { type: 'string' }, account: { type: 'string' }, json: { type: 'boolean' } },
});

function viaSocket(socketPath: string, method: string, path: string, body?: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method, path, headers: { 'content-type': 'application/json' } }, (res) => {
      let data = '';
      res.on('data', (c) => (data += c));
      res.on('end', () => (res.statusCode && res.statusCode < 300 ? resolve(JSON.parse(data)) : reject(new Error(data))));
    });
    req.on('error', reject);
    if (body) req.write(JSON.stringify(body));
    req.end();
  });
}

async function main(): Promise<number> {
  const settings = loadSettings();
  const [cmd, arg] = positionals;
  if (!cmd || !['create', 'list', 'revoke'].includes(cmd)) {
    console.error(`usage: npm run keys -- create --plan <${PLAN_IDS.join('|')}> [--name NAME] [--account ID] | list | revoke <key-id|key>`);
    return 2;
  }
  if (cmd === 'create' && !PLAN_IDS.includes(values.plan as PlanId)) {
    console.error(`--plan must be one of ${PLAN_IDS.join(', ')}`);
    return 2;
  }
  if (cmd === 'revoke' && !arg) {
    console.error('usage: npm run keys -- revoke <key-id|key>');
    return 2;
  }
  const socketPath = join(settings.dataDir, 'admin.sock');
  const target = stateTarget(settings);
  let out: unknown;
  const serverUp =
    !isPostgresUrl(target) &&
    existsSync(socketPath) &&
    (await viaSocket(socketPath, 'GET', '/keys').then(
      () => true,
      () => false,
    ));
  if (serverUp) {
    if (cmd === 'create') out = await viaSocket(socketPath, 'POST', '/keys', { plan: values.plan, name: values.name, account: values.account });
    else if (cmd === 'list') out = await viaSocket(socketPath, 'GET', '/keys');
    else out = await viaSocket(socketPath, 'POST', '/keys/revoke', { id: arg });
  } else {
    const state = await openStateStore(target);
    try {
      if (cmd === 'create') out = await createKey(state, { plan: values.plan as PlanId, name: values.name, accountId: values.account });
      else if (cmd === 'list') out = await listKeys(state);
      else out = { revoked: await revokeKey(state, arg) };
    } finally {
      await state.close();
    }
  }
  if (values.json || cmd !== 'create') console.log(JSON.stringify(out, null, 2));
  else {
    const k = out as { key: string; id: string; plan: string; account_id: string };
    console.log(`created key ${k.id} (plan ${k.plan}, account ${k.account_id})\n${k.key}\nStore it now: only its hash is kept.`);
  }
  return 0;
}

// No top-level await: `npm run keys` runs this as a CommonJS bundle (ingest/cli-bundle.cjs).
main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error((err as Error).message);
    process.exitCode = 1;
  },
);
