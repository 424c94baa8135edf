import { createServer, type Server } from 'node:http';
import type { AddressGate } from './core/address-gate.ts';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
import { loadSettings, type Settings } from '../schemas/settings.ts';
import { createApp } from './core/app.ts';
import { createKey, listKeys, revokeKey } from './core/keys.ts';
import { PLAN_IDS, type PlanId } from '../schemas/plans.ts';
import { startScheduler } from './core/scheduler.ts';
import { createApiServer } from './core/http-server.ts';
import { recoverInterruptedRuns, runIngest } from '../ingest/pipeline/index.ts';
import { closeServices, createServices, type ServiceOverrides, type Services } from './core/services.ts';
import { startWorkers } from './core/workers.ts';
import { ROUTES } from './routes.ts';

export interface RunningServer {
  services: Services;
  server: Server;
  /** The address gate before Express (held sockets of addresses out of failed authentications). */
  gate: AddressGate;
  port: number;
  close(): Promise<void>;
}

/**
 * The server process: the API, the in-process workers (monitors, webhook deliveries), the optional nightly
 * schedule, and an admin socket through which `npm run keys` manages keys while the server owns the state file.
 */
export async function startServer(settings: Settings = loadSettings(), overrides: ServiceOverrides = {}): Promise<RunningServer> {
  const services = await createServices(settings, overrides);
  // An ingest killed mid-commit is finished and dead runs' scratch removed; in the background, since it may wait
  // for a dead run's table locks to go stale (docs/architecture.md, "Crash safety").
  const recoveryLog = services.log.child({ component: 'recovery' });
  const recovery = recoverInterruptedRuns(settings, { quiet: true })
    .then((r) => {
      if (r.rolledForward.length) recoveryLog.warn(`finished the interrupted commit of ${r.rolledForward.join(', ')}`);
      if (r.cleaned.workDirs.length || r.cleaned.tempFiles.length) {
        recoveryLog.info(`removed ${r.cleaned.workDirs.length} scratch folder(s) and ${r.cleaned.tempFiles.length} temp file(s) of dead runs`);
      }
    })
    .catch((err) => recoveryLog.error(`recovery of interrupted ingests failed: ${(err as Error).message}`));
  const handle = createApp(services, { routes: ROUTES });
  const { server, gate } = createApiServer(handle);
  await new Promise<void>((resolve) => server.listen(settings.PORT, settings.HOST, resolve));
  const port = (server.address() as { port: number }).port;

  // The admin socket exists for the embedded store, which only this process may open. A PostgreSQL store is
  // shared: `npm run keys` opens it directly, and a revocation reaches every process's key cache within 5 s.
  const adminServer = services.state.dialect.shared ? null : await startAdminSocket(services, settings, () => handle.auth.clearCache());

  const workers = startWorkers(services);
  const scheduleLog = services.log.child({ component: 'schedule' });
  // The nightly and daily lanes download through the services' client, so they, the live lane and the live API
  // routes share one SEC_MAX_RPS budget instead of each run starting its own.
  const sharedRun: typeof runIngest = (d, args, s, opts) => runIngest(d, args, s, { ...opts, http: services.http });
  const scheduler = startScheduler(settings, (m) => scheduleLog.info(m), sharedRun);

  return {
    services,
    server,
    gate,
    port,
    async close() {
      scheduler.stop();
      await recovery;
      await workers.stop();
      if (adminServer) await new Promise<void>((r) => adminServer.close(() => r()));
      gate.close();
      await new Promise<void>((r) => server.close(() => r()));
      await closeServices(services);
    },
  };
}

/** `npm run keys` against the running server: create, list and revoke keys over DATA_DIR/admin.sock. */
async function startAdminSocket(services: Services, settings: Settings, clearAuthCache: () => void): Promise<Server> {
  const admin = express();
  admin.use(express.json());
  admin.post('/keys', async (req, res) => {
    const plan = String(req.body?.plan ?? '') as PlanId;
    if (!PLAN_IDS.includes(plan)) {
      res.status(400).json({ error: `unknown plan '${plan}'` });
      return;
    }
    res.json(await createKey(services.state, { plan, name: req.body?.name, accountId: req.body?.account }));
  });
  admin.get('/keys', async (_req, res) => res.json(await listKeys(services.state)));
  admin.post('/keys/revoke', async (req, res) => {
    const ok = await revokeKey(services.state, String(req.body?.id ?? ''));
    clearAuthCache();
    res.json({ revoked: ok });
  });
  const socketPath = join(settings.dataDir, 'admin.sock');
  rmSync(socketPath, { force: true });
  const adminServer = createServer(admin);
  await new Promise<void>((resolve) => adminServer.listen(socketPath, resolve));
  return adminServer;
}
