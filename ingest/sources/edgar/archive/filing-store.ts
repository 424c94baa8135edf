import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UpstreamError, type FetchOptions, type HttpClient } from '../../common/http.ts';
import { cikDigits, normalizeAccession, padCik } from '../../common/normalize.ts';
import type { Settings } from '../../../../schemas/settings.ts';
import { itemNumbersFromTitles } from './classify-8k.ts';
import { parseDirectoryJson, parseFilingIndexHtml } from './filing-index.ts';
import { documentLines } from './html-text.ts';
import { parseSubmission, type Submission } from '../sgml.ts';

/**
 * Per-accession filing cache and fetcher. A filing never changes once accepted, so its manifest and every
 * document fetched are kept under `<dataDir>/filings/<accession>/` and a second request does no network I/O.
 * Order of sources: the filing index page (types and sizes without the bodies), else the full submission
 * `.txt` (split into its documents once), else the directory listing `index.json` (names and sizes only).
 */

export interface FilingDocument {
  sequence: number | null;
  /** `10-K`, `EX-21.1`, `GRAPHIC`, `XML`…; null when only the directory listing was available. */
  type: string | null;
  description: string | null;
  file_name: string | null;
  size: number | null;
  url: string;
}

export interface FilingManifest {
  accession: string;
  cik: string;
  form: string | null;
  company: string | null;
  filed_date: string | null;
  period: string | null;
  accepted: string | null;
  /** 8-K item numbers declared in the filing header (index page, `.nc` tags, or mapped SGML titles). */
  items: string[];
  source: 'index' | 'submission' | 'directory';
  index_url: string;
  submission_url: string;
  documents: FilingDocument[];
  /** Bytes downloaded to build the manifest (drives the credit cost). */
  fetched_bytes: number;
}

export class FilingNotFoundError extends Error {}

/** Bump when a parser's output changes: cached derived values of older parsers are recomputed. */
// 2: page furniture repeated at page breaks leaves item text; Exhibit 21 header rows are no subsidiaries (#18).
const DERIVED_VERSION = 2;
const LIVE: FetchOptions = { whenPaused: 'fail', retries: 1 };
const LEGACY_8K_CUTOFF = '2004-08-23';

export interface FilingStoreOptions {
  http: HttpClient;
  settings: Settings;
  /** CIKs the filing is listed under (the lake's filing index); the accession prefix is tried after them. */
  lookupCiks?: (accession: string) => Promise<string[]>;
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
}

export function decodeBody(buf: Buffer): string {
  // Filings are ASCII with entities, sometimes UTF-8, sometimes Latin-1: UTF-8 when it decodes cleanly.
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    return buf.toString('latin1');
  }
}

export function createFilingStore(opts: FilingStoreOptions) {
  const { http, settings } = opts;
  const root = join(settings.dataDir, 'filings');
  const inflight = new Map<string, Promise<unknown>>();
  const live: FetchOptions = { ...LIVE, timeoutMs: Math.min(settings.HTTP_TIMEOUT_MS, 20_000) };

  const dirOf = (acc: string) => join(root, acc);
  const archive = (cik: string, acc: string) => `${settings.SEC_BASE_URL.replace(/\/$/, '')}/Archives/edgar/data/${Number(cik)}/${acc.replace(/-/g, '')}`;

  function once<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const running = inflight.get(key) as Promise<T> | undefined;
    if (running) return running;
    const p = fn().finally(() => inflight.delete(key));
    inflight.set(key, p);
    return p;
  }

  async function candidateCiks(acc: string, hint?: string): Promise<string[]> {
    const out: string[] = [];
    if (hint && cikDigits(hint)) out.push(cikDigits(hint)!);
    if (opts.lookupCiks) {
      try {
        for (const c of await opts.lookupCiks(acc)) if (cikDigits(c)) out.push(cikDigits(c)!);
      } catch {
        // No filing index in the lake yet: the accession prefix is the fallback.
      }
    }
    const prefix = String(Number(acc.slice(0, 10)));
    if (prefix !== '0') out.push(prefix);
    return [...new Set(out)];
  }

  async function writeSubmissionDocs(acc: string, sub: Submission, base: string): Promise<FilingDocument[]> {
    const docsDir = join(dirOf(acc), 'docs');
    await mkdir(docsDir, { recursive: true });
    const docs: FilingDocument[] = [];
    for (const [i, d] of sub.documents.entries()) {
      const seq = d.sequence ?? i + 1;
      const file = d.filename ? safeName(d.filename) : `seq-${seq}.txt`;
      await writeFile(join(docsDir, file), d.body, 'latin1');
      docs.push({
        sequence: seq,
        type: d.type || null,
        description: d.description,
        file_name: d.filename,
        size: d.size,
        url: d.filename ? `${base}/${encodeURIComponent(d.filename)}` : `${base}/${acc}.txt`,
      });
    }
    return docs;
  }

  function fromSubmission(acc: string, cik: string, sub: Submission, docs: FilingDocument[], bytes: number): FilingManifest {
    const h = sub.header;
    const legacy = (h.filed ?? '9999') < LEGACY_8K_CUTOFF;
    const items = h.items.every((i) => /^\d{1,2}(\.\d{2})?$/.test(i)) ? h.items : itemNumbersFromTitles(h.items, legacy);
    const filer = h.parties.find((p) => p.role === 'FILER' || p.role === 'SUBJECT-COMPANY' || p.role === 'ISSUER') ?? h.parties[0];
    return {
      accession: acc,
      cik: padCik(cik)!,
      form: h.form,
      company: filer?.name ?? null,
      filed_date: h.filed,
      period: h.period,
      accepted: h.accepted,
      items,
      source: 'submission',
      index_url: `${archive(cik, acc)}/${acc}-index.htm`,
      submission_url: `${archive(cik, acc)}/${acc}.txt`,
      documents: docs,
      fetched_bytes: bytes,
    };
  }

  /** Downloads the full submission (streamed to disk), splits it into the cache, and drops the raw copy. */
  async function fetchSubmission(acc: string, cik: string): Promise<{ sub: Submission; docs: FilingDocument[]; bytes: number }> {
    const url = `${archive(cik, acc)}/${acc}.txt`;
    const path = await http.download(url, live);
    try {
      const buf = await readFile(path);
      const sub = parseSubmission(buf.toString('latin1'));
      const docs = await writeSubmissionDocs(acc, sub, archive(cik, acc));
      return { sub, docs, bytes: buf.length };
    } finally {
      await rm(path, { force: true });
    }
  }

  async function buildManifest(acc: string, cikHint?: string): Promise<FilingManifest> {
    const ciks = await candidateCiks(acc, cikHint);
    for (const cik of ciks) {
      const base = archive(cik, acc);
      try {
        const res = await http.get(`${base}/${acc}-index.htm`, live);
        const page = parseFilingIndexHtml(decodeBody(res.body));
        if (page.documents.length) {
          const origin = new URL(settings.SEC_BASE_URL).origin;
          return {
            accession: acc,
            cik: padCik(cik)!,
            form: page.form,
            company: page.filers[0]?.name ?? null,
            filed_date: page.filed,
            period: page.period,
            accepted: page.accepted,
            items: page.items,
            source: 'index',
            index_url: `${base}/${acc}-index.htm`,
            submission_url: `${base}/${acc}.txt`,
            fetched_bytes: res.body.length,
            documents: page.documents.map((d) => ({
              sequence: d.sequence,
              type: d.type,
              description: d.description,
              file_name: d.filename,
              size: d.size,
              url: d.href ? `${origin}${d.href}` : `${base}/${acc}.txt`,
            })),
          };
        }
      } catch (err) {
        if (!(err instanceof UpstreamError && err.kind === 'not_found')) throw err;
      }
      try {
        const { sub, docs, bytes } = await fetchSubmission(acc, cik);
        return fromSubmission(acc, cik, sub, docs, bytes);
      } catch (err) {
        if (!(err instanceof UpstreamError && err.kind === 'not_found')) throw err;
      }
      try {
        const res = await http.get(`${base}/index.json`, live);
        const items = parseDirectoryJson(decodeBody(res.body), `${base}/index.json`);
        const docs = items
          .filter((it) => !it.name.startsWith(`${acc}-index`))
          .map((it) => ({ sequence: null, type: null, description: null, file_name: it.name, size: it.size, url: `${base}/${encodeURIComponent(it.name)}` }));
        if (docs.length) {
          return {
            accession: acc,
            cik: padCik(cik)!,
            form: null,
            company: null,
            filed_date: null,
            period: null,
            accepted: null,
            items: [],
            source: 'directory',
            index_url: `${base}/${acc}-index.htm`,
            submission_url: `${base}/${acc}.txt`,
            documents: docs,
            fetched_bytes: res.body.length,
          };
        }
      } catch (err) {
        if (!(err instanceof UpstreamError && err.kind === 'not_found')) throw err;
      }
    }
    throw new FilingNotFoundError(
      `Filing ${acc} was not found in the regulator's archive under CIK ${ciks.join(', ')}` +
        (cikHint ? '' : ' (a filing submitted by a filing agent is found by the CIK of a party to it: pass `cik`, or ingest the filing index)'),
    );
  }

  /** `cikHint`: the CIK of a party to the filing (the accession prefix may be a filing agent's). */
  async function manifest(accession: string, cikHint?: string): Promise<FilingManifest & { cached: boolean }> {
    const acc = normalizeAccession(accession);
    if (!acc) throw new FilingNotFoundError(`'${accession}' is not an accession number`);
    const file = join(dirOf(acc), 'manifest.json');
    if (existsSync(file)) return { ...(JSON.parse(await readFile(file, 'utf8')) as FilingManifest), cached: true };
    return once(`m:${acc}`, async () => {
      const m = await buildManifest(acc, cikHint);
      await mkdir(dirOf(acc), { recursive: true });
      const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(tmp, JSON.stringify(m));
      await rename(tmp, file);
      return { ...m, cached: false };
    });
  }

  /** A document's text (and how many bytes were downloaded for it: 0 when cached). */
  async function documentText(m: FilingManifest, doc: FilingDocument): Promise<{ text: string; fetchedBytes: number }> {
    const docsDir = join(dirOf(m.accession), 'docs');
    const file = join(docsDir, doc.file_name ? safeName(doc.file_name) : `seq-${doc.sequence ?? 1}.txt`);
    if (existsSync(file)) return { text: decodeBody(await readFile(file)), fetchedBytes: 0 };
    return once(`d:${file}`, async () => {
      if (!doc.file_name || doc.url.endsWith(`/${m.accession}.txt`)) {
        // Unnamed legacy documents exist only inside the full submission.
        const { bytes } = await fetchSubmission(m.accession, m.cik);
        if (!existsSync(file)) throw new FilingNotFoundError(`Document ${doc.sequence ?? ''} is not in the submission of ${m.accession}`);
        return { text: decodeBody(await readFile(file)), fetchedBytes: bytes };
      }
      const res = await http.get(doc.url, live);
      await mkdir(docsDir, { recursive: true });
      await writeFile(file, res.body);
      return { text: decodeBody(res.body), fetchedBytes: res.body.length };
    });
  }

  /**
   * A value derived from a cached document (e.g. its item sections), computed once and kept beside it: the
   * 10-K's HTML is then parsed on the first request only.
   */
  async function derived<T>(
    m: FilingManifest,
    doc: FilingDocument,
    kind: string,
    compute: (text: string) => T,
  ): Promise<{ value: T; fetchedBytes: number; textBytes: number }> {
    const file = join(dirOf(m.accession), 'derived', `${safeName(doc.file_name ?? `seq-${doc.sequence ?? 1}`)}.${safeName(kind)}.json`);
    if (existsSync(file)) {
      const saved = JSON.parse(await readFile(file, 'utf8')) as { v: number; textBytes: number; value: T };
      if (saved.v === DERIVED_VERSION) return { value: saved.value, fetchedBytes: 0, textBytes: saved.textBytes };
    }
    const { text, fetchedBytes } = await documentText(m, doc);
    const value = compute(text);
    const textBytes = Buffer.byteLength(text);
    await mkdir(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, JSON.stringify({ v: DERIVED_VERSION, textBytes, value }));
    await rename(tmp, file);
    return { value, fetchedBytes, textBytes };
  }

  return { root, manifest, documentText, derived, dirOf };
}

export type FilingStore = ReturnType<typeof createFilingStore>;

const SKIP_PRIMARY = new RegExp(
  [
    String.raw`^(R\d+\.htm|FilingSummary\.xml|MetaLinks\.json|Financial_Report\.xlsx|report\.css`,
    String.raw`|Show\.js|.*-index(-headers)?\.html?|.*\.(xsd|jpg|jpeg|gif|png|zip|pdf|css`,
    '|js|json|xlsx))$',
  ].join(''),
  'i',
);

/** The main document: sequence 1, else the one whose type is the form, else the largest HTML/text file. */
export function primaryDocument(m: FilingManifest): FilingDocument | null {
  const docs = m.documents;
  return (
    docs.find((d) => d.sequence === 1) ??
    (m.form ? docs.find((d) => d.type === m.form) : undefined) ??
    [...docs]
      .filter(
        (d) => d.file_name && !SKIP_PRIMARY.test(d.file_name) && !d.file_name.endsWith(`${m.accession}.txt`) && /\.(htm|html|txt|xml)$/i.test(d.file_name),
      )
      .sort((a, b) => (b.size ?? 0) - (a.size ?? 0))[0] ??
    null
  );
}

/** When only the directory listing was available, the cover page says which form the document is. */
export function formFromCover(text: string): string | null {
  // Inline XBRL states it: <ix:nonNumeric name="dei:DocumentType" …>10-K</ix:nonNumeric>.
  const dei = /name="dei:DocumentType"[^>]*>(?:\s*<[^>]+>)*\s*([^<\s][^<]*)</i.exec(text);
  if (dei) return dei[1]!.trim().toUpperCase();
  const head = documentLines(text.slice(0, 400_000)).slice(0, 120).join(' ');
  const m = /\bFORM\s+(10-K(?:405|SB|T)?(?:\/A)?|10-Q(?:SB)?(?:\/A)?|8-K(?:\/A)?|[345](?:\/A)?)\b/i.exec(head);
  return m ? m[1]!.toUpperCase() : null;
}
