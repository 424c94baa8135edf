import type { StateStore, StateTx } from './state.ts';

/**
 * Group commit on the embedded state store: the items submitted while the store's queue was busy share one
 * transaction. Each caller still resumes only once its item is committed, so nothing is acknowledged that a crash
 * could lose; what is saved is the fixed cost of a write transaction per item (on the DuckDB file, a write statement
 * and its commit cost ≈ 1.7 ms of CPU whatever it writes: docs/read-path.md, "Per-request overhead").
 * No timer: a group is what arrived before the store got to it, so an idle store commits a lone item at once.
 * `run` decides the whole group inside the transaction, in arrival order, and returns one outcome per item; if the
 * transaction fails, every item of the group fails with its error and `failed` undoes what `run` did in memory.
 */
export interface GroupCommit<I, O> {
  submit(item: I): Promise<O>;
  /** Nothing is waiting for a transaction, nor is one queued to take what arrives: an item now would be alone. */
  idle(): boolean;
}

export function createGroupCommit<I, O>(
  state: StateStore,
  run: (tx: StateTx, batch: readonly I[]) => Promise<O[]>,
  failed: (batch: readonly I[]) => void,
): GroupCommit<I, O> {
  type Waiting = { item: I; resolve: (o: O) => void; reject: (err: unknown) => void };
  let waiting: Waiting[] = [];
  /** Whether a transaction is queued that has not yet taken the waiting items. */
  let queued = false;

  async function commitGroup(): Promise<void> {
    let group: Waiting[] = [];
    let taken = false;
    const take = (): Waiting[] => {
      taken = true;
      group = waiting;
      waiting = [];
      queued = false;
      return group;
    };
    try {
      const outcomes = await state.transaction((tx) =>
        run(
          tx,
          take().map((w) => w.item),
        ),
      );
      group.forEach((w, i) => {
        w.resolve(outcomes[i]);
      });
    } catch (err) {
      // A transaction that failed before its body ran (BEGIN) leaves the items waiting: they fail with it too.
      const lost = taken ? group : take();
      failed(lost.map((w) => w.item));
      for (const w of lost) w.reject(err);
    }
  }

  return {
    idle: () => !queued && waiting.length === 0,
    submit(item) {
      return new Promise<O>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        if (queued) return;
        queued = true;
        void commitGroup();
      });
    },
  };
}
