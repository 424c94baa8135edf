import type { Services } from './services.ts';

/** A background loop living in the server process, started after the API listens. */
export interface Worker {
  name: string;
  start(services: Services): { stop(): Promise<void> };
}

/** The server's workers, listed explicitly: the monitor matcher with the webhook delivery scheduler, and the live lane. */
const WORKERS: readonly Worker[] = [
  {
    name: 'monitoring',
    start(services) {
      services.monitoring.start();
      return { stop: () => services.monitoring.stop() };
    },
  },
  {
    name: 'live',
    start(services) {
      // Does nothing unless LIVE=on.
      services.live.start();
      return { stop: () => services.live.stop() };
    },
  },
];

export function startWorkers(services: Services, workers: readonly Worker[] = WORKERS): { stop(): Promise<void> } {
  const running = workers.map((w) => w.start(services));
  return {
    async stop() {
      for (const r of running.reverse()) await r.stop();
    },
  };
}
