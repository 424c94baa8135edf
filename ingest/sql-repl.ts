import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { SqlSession } from './lake/sql-session.ts';
import { formatRows, type OutputFormat } from './sql-format.ts';

/**
 * The interactive prompt of `npm run sql` (no query given): statements end with `;` and may span lines; dot
 * commands (`.tables`, `.schema <table>`, `.out <file>`, `.quit`) act at once. The history is kept in
 * `<DATA_DIR>/sql_history` (last 500 lines) so it survives restarts. Piped input is read the same way.
 */

const HISTORY_LINES = 500;
const HELP = '.tables  .schema <table>  .out <file.csv|.parquet|.json> (next statement goes to that file)  .help  .quit';

export async function repl(session: SqlSession, opts: { format: OutputFormat; historyFile: string }): Promise<number> {
  const tty = !!process.stdin.isTTY;
  const history = tty && existsSync(opts.historyFile) ? readFileSync(opts.historyFile, 'utf8').split('\n').filter(Boolean).slice(-HISTORY_LINES).reverse() : [];
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: tty, history, historySize: HISTORY_LINES, prompt: 'sql> ' });
  if (tty) console.log(`lake SQL (read-only); end statements with ';'. ${HELP}`);
  let buffer = '';
  let outFile: string | null = null;
  let failures = 0;
  const say = (s: string) => console.log(s);

  async function dot(line: string): Promise<boolean> {
    const [cmd, arg] = line.trim().split(/\s+/, 2);
    if (cmd === '.quit' || cmd === '.exit') return false;
    if (cmd === '.tables') for (const t of session.tables) say(`${t.name.padEnd(28)} ${t.description}`);
    else if (cmd === '.schema') {
      const spec = session.tables.find((t) => t.name === arg);
      if (!spec) say(`.schema: no table ${arg ?? '(none given)'}; see .tables`);
      else await execute(`DESCRIBE ${spec.name}`);
    } else if (cmd === '.out') {
      outFile = arg ?? null;
      say(outFile ? `next statement's result goes to ${outFile}` : '.out needs a file name');
    } else say(HELP);
    return true;
  }

  async function execute(sql: string): Promise<void> {
    try {
      if (outFile) {
        const file = outFile;
        outFile = null;
        say(`${await session.copyTo(sql, file)} rows written to ${file}`);
        return;
      }
      for (const r of await session.run(sql)) say(formatRows(r.rows, opts.format));
    } catch (err) {
      failures++;
      say(`sql error: ${(err as Error).message}`);
    }
  }

  if (tty) rl.prompt();
  for await (const line of rl) {
    if (tty && line.trim()) appendFileSync(opts.historyFile, `${line}\n`);
    if (!buffer && line.trim().startsWith('.')) {
      if (!(await dot(line))) break;
    } else {
      buffer += `${line}\n`;
      if (buffer.trim().endsWith(';')) {
        const sql = buffer;
        buffer = '';
        await execute(sql);
      }
    }
    if (tty) {
      rl.setPrompt(buffer ? '...> ' : 'sql> ');
      rl.prompt();
    }
  }
  if (buffer.trim()) await execute(buffer);
  rl.close();
  return failures ? 1 : 0;
}
