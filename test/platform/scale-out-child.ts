import { startServer } from '../../api/server.ts';
import { loadSettings } from '../../schemas/settings.ts';

/**
 * One API process of a scale-out test or bench: the real server (API and its workers) on an ephemeral port, with the
 * state store STATE_DATABASE_URL names. Prints its port as one JSON line; stops on SIGTERM.
 */
const running = await startServer(loadSettings({ ...process.env, PORT: '0' }));
console.log(JSON.stringify({ port: running.port }));
process.on('SIGTERM', async () => {
  await running.close();
  process.exit(0);
});
