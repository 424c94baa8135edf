import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readdir, readFile, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { documentLines } from './html-text.ts';
import type { EftsHit } from './efts.ts';

/**
 * A loopback stand-in for www.sec.gov's archive and efts.sec.gov's search over a folder in the archive's layout
 * (`Archives/edgar/data/{cik}/{acc18}/…`, written by `make demo`): files are served as they are, a filing folder's
 * `index.json` is listed from the files present (as the real server generates it), and `/LATEST/search-index`
 * answers from the folder's full-text hits, matching the query against each hit's document text with the
 * upstream's parameters (`q`, `forms`, `ciks`, `items`, `startdt`, `enddt`, `from`; pages of 100). It lets every
 * live endpoint work offline; the address printed is the base URL for SEC_BASE_URL and SEC_EFTS_BASE_URL.
 */

/** Where the full-text hits live inside an archive folder: `{"hits":{"total","hits":[…]}}`. */
export const EFTS_HITS_FILE = join('efts', 'hits.json');
const EFTS_PAGE = 100;

const TYPES: Record<string, string> = {
  '.htm': 'text/html',
  '.html': 'text/html',
  '.xml': 'application/xml',
  '.txt': 'text/plain',
  '.json': 'application/json',
};

export interface LocalArchive {
  /** `http://127.0.0.1:{port}`. */
  url: string;
  close(): Promise<void>;
}

/** Quoted phrases must each appear, and every other word too, without regard to case (the upstream's AND). */
function termsOf(q: string): string[] {
  const terms: string[] = [];
  const rest = q.toLowerCase().replace(/"([^"]*)"/g, (_m, phrase: string) => {
    if (phrase.trim()) terms.push(phrase.trim().replace(/\s+/g, ' '));
    return ' ';
  });
  terms.push(...rest.split(/\s+/).filter(Boolean));
  return terms;
}

export async function serveLocalArchive(root: string, opts: { port?: number } = {}): Promise<LocalArchive> {
  const base = resolve(root);
  const texts = new Map<string, string>();
  let hits: EftsHit[] | null = null;

  async function documentText(hit: EftsHit): Promise<string> {
    const cik = String(Number(hit._source.ciks?.[0] ?? '0'));
    const file = hit._id.slice(hit._id.indexOf(':') + 1);
    const path = join(base, 'Archives', 'edgar', 'data', cik, (hit._source.adsh ?? '').replace(/-/g, ''), file);
    let text = texts.get(path);
    if (text === undefined) {
      text = documentLines(await readFile(path, 'utf8').catch(() => ''))
        .join(' ')
        .toLowerCase()
        .replace(/\s+/g, ' ');
      texts.set(path, text);
    }
    return text;
  }

  async function search(url: URL): Promise<string> {
    hits ??= ((JSON.parse(await readFile(join(base, EFTS_HITS_FILE), 'utf8')) as { hits: { hits: EftsHit[] } }).hits.hits ?? []) as EftsHit[];
    const q = url.searchParams;
    const list = (name: string) => q.get(name)?.split(',').filter(Boolean);
    const [forms, ciks, items] = [list('forms'), list('ciks'), list('items')];
    const [start, end] = [q.get('startdt'), q.get('enddt')];
    const terms = termsOf(q.get('q') ?? '');
    const matched: EftsHit[] = [];
    for (const h of hits) {
      const s = h._source;
      if (forms && !(s.root_forms ?? [s.form ?? '']).some((f) => forms.includes(f))) continue;
      if (ciks && !(s.ciks ?? []).some((c) => ciks.includes(c))) continue;
      if (items && !(s.items ?? []).some((i) => items.includes(i))) continue;
      if (start && (s.file_date ?? '') < start) continue;
      if (end && (s.file_date ?? '') > end) continue;
      const text = await documentText(h);
      if (terms.every((t) => text.includes(t))) matched.push(h);
    }
    const from = Number(q.get('from') ?? 0) || 0;
    return JSON.stringify({
      took: 1,
      timed_out: false,
      hits: { total: { value: matched.length, relation: 'eq' }, max_score: 1, hits: matched.slice(from, from + EFTS_PAGE) },
    });
  }

  /** A filing folder's listing, as `{acc18}/index.json` gives it. */
  async function listing(dir: string, urlPath: string): Promise<string> {
    const item = [];
    for (const name of (await readdir(dir)).sort()) {
      const st = await stat(join(dir, name));
      const modified = st.mtime.toISOString().slice(0, 19).replace('T', ' ');
      item.push({ 'last-modified': modified, name, type: st.isDirectory() ? 'folder.gif' : 'text.gif', size: st.isDirectory() ? '' : String(st.size) });
    }
    const name = urlPath.replace(/\/index\.json$/, '');
    return JSON.stringify({ directory: { item, name, 'parent-dir': name.replace(/\/[^/]+$/, '') } });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    if (url.pathname === '/LATEST/search-index') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(await search(url));
      return;
    }
    const path = resolve(base, `.${decodeURIComponent(url.pathname)}`);
    const notFound = () => {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    };
    // Judged on the decoded, resolved path: an encoded `..` must not climb out of the archive's folders.
    if (!path.startsWith(join(base, 'Archives') + sep)) return notFound();
    if (url.pathname.endsWith('/index.json')) {
      const dir = path.slice(0, -'/index.json'.length);
      const st = await stat(dir).catch(() => null);
      if (!st?.isDirectory()) return notFound();
      res.writeHead(200, { 'content-type': 'application/json' }).end(await listing(dir, url.pathname));
      return;
    }
    const st = await stat(path).catch(() => null);
    if (!st?.isFile()) return notFound();
    res.writeHead(200, { 'content-type': TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream' }).end(await readFile(path));
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(err.message);
    });
  });
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
