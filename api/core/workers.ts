import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverModules } from '../../ingest/pipeline/index.ts';
import type { Services } from './services.ts';

/** A background worker living in the server process (monitor matcher, webhook deliveries…). */
export interface Worker {
  name: string;
  start(services: Services): Promise<{ stop(): Promise<void> }>;
}

const apiRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Starts every `api/<area>/worker.ts` (default export: Worker[]). */
export async function startWorkers(services: Services, opts: { only?: string[] } = {}): Promise<{ stop(): Promise<void> }> {
  const running: { stop(): Promise<void> }[] = [];
  for (const { value } of await discoverModules<Worker[]>(apiRoot, 'worker.ts')) {
    for (const w of value) {
      if (opts.only && !opts.only.includes(w.name)) continue;
      running.push(await w.start(services));
    }
  }
  return {
    async stop() {
      for (const r of running.reverse()) await r.stop();
    },
  };
}
