import { pino, type Logger } from 'pino';

export type { Logger };

type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/**
 * The process logger: one JSON line per record on stderr (stdout stays for what a CLI prints as its answer),
 * at the level of the `LOG_LEVEL` setting. Components take a child with their name (`log.child({ component })`)
 * and the API one per request with its `request_id`, so an operator can follow one request or one ingest run
 * through the lines. pino rather than console: real levels, structured fields, and an asynchronous writer that
 * keeps logging off the request path.
 */
export function createLogger(level: Level = 'info', destination: NodeJS.WritableStream = process.stderr): Logger {
  return pino({ level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}
