import type { DiffHandler } from './handler.ts';
import { filingsHandler } from './handlers/filings.ts';
import { form4Handler } from './handlers/form4.ts';
import { formDHandler } from './handlers/formd.ts';
import { proxyHandler } from './handlers/proxy.ts';
import { textChangesHandler } from './handlers/text-changes.ts';
import { thirteenFHandler } from './handlers/thirteenf.ts';

/** Every events diff handler; the diff stage runs those whose input tables an ingest changed. */
export const diffHandlers: readonly DiffHandler[] = [filingsHandler, form4Handler, thirteenFHandler, formDHandler, proxyHandler, textChangesHandler];
