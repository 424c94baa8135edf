import account from './account.ts';
import healthz from './healthz.ts';
import sources from './sources.ts';

export default [healthz, account, sources];
