import type { Worker } from '../core/workers.ts';
import { startMonitoring } from './runtime.ts';

/** The monitor matcher and the webhook delivery scheduler, one loop inside the server. */
const workers: Worker[] = [
  {
    name: 'monitoring',
    async start(services) {
      const rt = startMonitoring(services);
      return { stop: () => rt.stop() };
    },
  },
];

export default workers;
