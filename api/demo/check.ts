import { setTimeout as sleep } from 'node:timers/promises';
import { loadSettings } from '../../schemas/settings.ts';
import { demoCommands } from './commands.ts';
import { readDemoRun } from './demo-run.ts';
import { runCommands } from './run-commands.ts';

/**
 * `npm run demo:check`: runs every command `make demo` printed against the running demo server and exits non-zero
 * unless each answers 200 with data. The monitor → webhook steps wait for the server's worker (it scans every 2 s),
 * up to 60 s each.
 */
const settings = loadSettings();
const run = await readDemoRun(settings.dataDir);
if (!run) {
  console.error(`no demo in ${settings.dataDir}: run \`make demo\` first (it writes ${settings.dataDir}/demo/run.json)`);
  process.exit(2);
}
const base = `http://${settings.HOST === '0.0.0.0' ? '127.0.0.1' : settings.HOST}:${settings.PORT}`;
const commands = demoCommands(run, base, run.webhook ? `https://localhost:${run.receiver_port}` : null);
const results = await runCommands(commands, run.key, { retries: 60, waitBetween: () => sleep(1000) });
for (const r of results) {
  console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${String(r.status).padEnd(3)} ${r.command.family.padEnd(26)} ${r.command.url.replace(base, '')}  ${r.detail}`);
}
const failed = results.filter((r) => !r.ok).length;
console.log(failed ? `\n${failed} of ${results.length} demo commands failed` : `\nall ${results.length} demo commands answered 200 with data`);
if (failed) process.exitCode = 1;
