/**
 * A reader that stops early (`npm run ingest -- --list | head`) closes the pipe, and a later write fails with EPIPE,
 * which Node raises as an unhandled 'error' on stdout: a stack trace, exit 1, and an ingest aborted half-way. Seen when
 * the CLIs run from their sources (tsx, the launcher's fallback: their slower start writes after `head` has left). The
 * output is not wanted past that point but the work is: later writes are dropped, and the exit code stays the command's.
 */
export function dropOutputOnceReaderGone(): void {
  let gone = false;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (gone) return; // writes already under way when the pipe closed fail in turn
    if (err.code !== 'EPIPE') throw err;
    gone = true;
    process.stdout.write = () => true;
  });
}
