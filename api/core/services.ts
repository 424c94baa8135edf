import type { HttpClient } from '../../ingest/core/http.ts';
import type { Settings } from '../../ingest/core/settings.ts';
import type { Lake } from './lake.ts';
import type { StateStore } from './state.ts';

/** What route handlers may use; built once by createApp (tests build their own with createTestApp). */
export interface Services {
  settings: Settings;
  lake: Lake;
  state: StateStore;
  http: HttpClient;
  /** The clock, injectable so tests never wait for real time (webhook retry schedule, credits periods). */
  now(): Date;
}
