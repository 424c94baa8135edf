/**
 * Runs `fn` over `items` with at most `concurrency` calls in flight: enough to keep libuv's thread pool busy on
 * file-system calls without queueing thousands of them at once.
 */
export async function forEachBounded<T>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
