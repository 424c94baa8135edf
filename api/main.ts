import { loadSettings } from '../schemas/settings.ts';
import { startDemoMode } from './demo/demo-mode.ts';
import { startServer } from './server.ts';

/**
 * The server process (`npm start`, `make serve`): runs as the prebuilt bundle dist/api.cjs (ingest/cli-bundle.cjs),
 * or through tsx when the bundle cannot be built. Its own file, so that `startServer` can be imported (tests, the
 * scale-out children) without starting anything, and with no top-level await, which a CommonJS bundle cannot hold.
 */
async function main(): Promise<void> {
  // `make demo` runs the server with DEMO=on: the sample archive and the webhook receiver start beside it.
  const demo = loadSettings().DEMO ? await startDemoMode(loadSettings()) : null;
  const settings = demo?.settings ?? loadSettings();
  const running = await startServer(settings, { monitoring: demo?.monitoring });
  for (const note of demo?.notes ?? []) running.services.log.info(note);
  running.services.log.info(`listening on http://${settings.HOST}:${running.port} (docs: /docs, OpenAPI: /openapi.json)`);
  // Once: a second signal (Ctrl-C in a terminal reaches the launcher and this process both) waits for the first stop.
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      await running.close();
      await demo?.close();
      process.exit(0);
    })());
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
