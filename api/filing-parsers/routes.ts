import cover from './cover.ts';
import documents from './documents.ts';
import events from './events.ts';
import extract from './extract.ts';
import insiders from './insiders.ts';
import subsidiaries from './subsidiaries.ts';

export default [documents, extract, insiders, events, subsidiaries, cover];
