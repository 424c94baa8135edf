import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import routes13f from '../../api/13f/routes.ts';
import serviceRoutes from '../../api/service/routes.ts';
import { createApp } from '../../api/core/app.ts';
import { createApiServer } from '../../api/core/http-server.ts';
import { createKey } from '../../api/core/keys.ts';
import { closeServices, createServices } from '../../api/core/services.ts';
import { loadSettings } from '../../schemas/settings.ts';

/**
 * The server side of the request-overhead bench, in its own process so that its CPU is its own
 * (`process.cpuUsage()`, asked over IPC). BENCH_SERVER=api: the real server (createApiServer: the address gate,
 * Express, a `pro` key, metering on the DuckDB state store, logging at info into the file on stderr) over the 13F
 * lake in DATA_DIR. BENCH_SERVER=bare: a bare `http.createServer` answering BENCH_BARE_BODY (a file) to every
 * request, the most this Node on this machine can answer.
 */
const mode = process.env.BENCH_SERVER ?? 'api';
const send = (m: unknown) => process.send?.(m);

let server: Server;
let close: () => Promise<void> = async () => {};
let key = '';
if (mode === 'bare') {
  const body = readFileSync(process.env.BENCH_BARE_BODY ?? '', 'utf8');
  server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
} else {
  const settings = loadSettings({
    DATA_DIR: process.env.DATA_DIR ?? '',
    LOG_LEVEL: 'info',
    RATE_LIMIT_RPS: '100000',
    LAKE_REFRESH_MS: '60000',
    ...JSON.parse(process.env.BENCH_SERVER_ENV ?? '{}'),
  });
  const services = await createServices(settings, { cursorSecret: 'bench-cursor-secret-0123456789' });
  // Ready once the serving copies' background preload is done (LAKE_SERVING_PRELOAD_MB): the benches time the steady state.
  await services.lake.preloaded();
  const handle = createApp(services, { routes: [...routes13f, ...serviceRoutes] });
  const api = createApiServer(handle);
  server = api.server;
  key = (await createKey(services.state, { plan: 'pro' })).key;
  close = async () => {
    api.gate.close();
    await closeServices(services);
  };
}
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
process.on('message', async (m: { op: string }) => {
  if (m.op === 'cpu') send({ cpu: process.cpuUsage() });
  if (m.op === 'stop') {
    server.closeAllConnections();
    server.close();
    await close();
    process.exit(0);
  }
});
send({ port: (server.address() as { port: number }).port, key });
