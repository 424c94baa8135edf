import { Parser } from 'htmlparser2';
import { UpstreamError } from '../../common/http.ts';
import { normalizeAccession, padCik, toIsoDate } from '../../common/normalize.ts';
import { normalizeSpaces } from './html-text.ts';

/**
 * The filing index page (`{acc20}-index.htm`) and the directory listing (`{acc18}/index.json`): the document
 * manifest without downloading the submission. The page's "Document Format Files" and "Data Files" tables give
 * sequence, description, file, type and size; its header gives form, dates and (8-K) the items.
 */

export interface IndexDocument {
  sequence: number | null;
  description: string | null;
  filename: string | null;
  /** Path on the archive host as linked (`/Archives/edgar/data/…`), null for unnamed legacy documents. */
  href: string | null;
  type: string | null;
  size: number | null;
}

export interface FilingIndexPage {
  accession: string | null;
  form: string | null;
  filed: string | null;
  accepted: string | null;
  period: string | null;
  /** 8-K item numbers listed in the header (`5.02`). */
  items: string[];
  filers: { name: string; cik: string | null; role: string | null }[];
  documents: IndexDocument[];
}

interface Cell {
  text: string;
  href: string | null;
}

export function parseFilingIndexHtml(html: string): FilingIndexPage {
  const page: FilingIndexPage = { accession: null, form: null, filed: null, accepted: null, period: null, items: [], filers: [], documents: [] };
  const info: [string, string][] = [];
  let infoKey: string | null = null;
  let capture: 'infoHead' | 'info' | 'formName' | 'secNum' | 'company' | null = null;
  let captureDepth = 0;
  let buf = '';
  let depth = 0;
  let inFileTable = false;
  let row: Cell[] | null = null;
  let cell: Cell | null = null;
  const rows: Cell[][] = [];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        depth++;
        const cls = attrs.class ?? '';
        if (!capture) {
          if (name === 'div' && cls === 'infoHead') capture = 'infoHead';
          else if (name === 'div' && cls === 'info') capture = 'info';
          else if (name === 'div' && attrs.id === 'formName') capture = 'formName';
          else if (name === 'div' && attrs.id === 'secNum') capture = 'secNum';
          else if (name === 'span' && cls === 'companyName') capture = 'company';
          if (capture) {
            captureDepth = depth;
            buf = '';
          }
        } else if (name === 'br') buf += '\n';
        if (capture === 'company' && name === 'a' && attrs.href) buf += ` [${attrs.href}] `;
        if (name === 'table' && cls.includes('tableFile')) inFileTable = true;
        if (inFileTable && name === 'tr') row = [];
        if (inFileTable && row && (name === 'td' || name === 'th')) cell = { text: '', href: null };
        if (cell && name === 'a' && attrs.href && !cell.href) cell.href = attrs.href;
      },
      ontext(t) {
        if (capture) buf += t;
        if (cell) cell.text += t;
      },
      onclosetag(name) {
        if (capture && depth === captureDepth) {
          const text = normalizeSpaces(buf).trim();
          if (capture === 'infoHead') infoKey = text;
          else if (capture === 'info' && infoKey) info.push([infoKey, buf]);
          else if (capture === 'formName') page.form = /Form\s+(.+?)\s+-/.exec(text)?.[1] ?? /Form\s+(\S+)/.exec(text)?.[1] ?? null;
          else if (capture === 'secNum') page.accession = normalizeAccession(/(\d{10}-\d{2}-\d{6})/.exec(text)?.[1]);
          else if (capture === 'company') {
            const m = /^(.*?)\s*\(([^)]+)\)/.exec(text.replace(/\s*\[[^\]]*\]\s*/g, ' '));
            const cik = /CIK=(\d{1,10})/.exec(text)?.[1] ?? /(\d{10})/.exec(text)?.[1];
            page.filers.push({ name: (m?.[1] ?? text).trim(), role: m?.[2]?.trim() ?? null, cik: padCik(cik) });
          }
          capture = null;
        }
        if (inFileTable && cell && (name === 'td' || name === 'th')) {
          row?.push({ text: normalizeSpaces(cell.text).trim(), href: cell.href });
          cell = null;
        }
        if (inFileTable && name === 'tr' && row) {
          rows.push(row);
          row = null;
        }
        if (name === 'table') inFileTable = false;
        depth--;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();

  for (const [k, v] of info) {
    const text = normalizeSpaces(v).trim();
    if (k === 'Filing Date') page.filed = toIsoDate(text);
    else if (k === 'Accepted') page.accepted = text || null;
    else if (k === 'Period of Report') page.period = toIsoDate(text);
    else if (k === 'Items') for (const m of v.matchAll(/Item\s+(\d{1,2}\.\d{2})/g)) page.items.push(m[1]!);
  }
  for (const r of rows) {
    if (r.length < 5 || r[0]!.text === 'Seq') continue;
    // Forms 3/4/5 also list the regulator's XSL rendering of the XML (…/xslF345X03/…): a view, not a file.
    if (r[2]!.href && /\/xsl[^/]*\//i.test(r[2]!.href)) continue;
    const [seq, desc, doc, type, size] = r;
    // Column 3 reads "jwn-20230301.htm iXBRL"; the link names the file (inline viewer links start with /ix?doc=).
    const href = doc!.href ? doc!.href.replace(/^\/ix\?doc=/, '') : null;
    const fromHref = href && !href.endsWith('/') ? safeDecode(href.split('/').pop()!) : null;
    const filename = fromHref ?? (doc!.text.split(/\s+/)[0] || null);
    page.documents.push({
      sequence: Number.parseInt(seq!.text, 10) || null,
      description: desc!.text || null,
      filename,
      href: fromHref ? href : null,
      type: type!.text || null,
      size: Number.parseInt(size!.text.replace(/,/g, ''), 10) || null,
    });
  }
  return page;
}

/** `{acc18}/index.json` items (names and sizes; no document types). */
export function parseDirectoryJson(json: string, url: string): { name: string; size: number | null; lastModified: string | null }[] {
  let parsed: { directory?: { item?: { name?: string; size?: string; 'last-modified'?: string; type?: string }[] } } | null;
  try {
    parsed = JSON.parse(json);
  } catch {
    // An HTML error page served with a 200: the archive failing, answered 502, not a bug of ours.
    throw new UpstreamError('the filing directory listing is not JSON', 'http', 200, url);
  }
  const items = parsed?.directory?.item;
  return (Array.isArray(items) ? items : [])
    .filter((it) => it.name && it.type !== 'folder.gif')
    .map((it) => ({ name: it.name!, size: it.size ? Number(it.size) : null, lastModified: it['last-modified'] ?? null }));
}

/** An href's last segment decoded; a malformed escape in the page's markup is kept as written rather than thrown. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
