import { createServer, type Server } from 'node:http';
import { submissionTxt } from '../../ingest/sources/edgar/sgml.ts';
import { readFixture } from './fixtures.ts';

/**
 * A loopback stand-in for the regulator's live surface: the latest-filings Atom feed (newest first, paged by
 * start/count, ISO-8859-1, `<updated>` with an Eastern offset, one entry per party: the recorded sample's
 * layout in ../shared/fixtures/edgar/index/), the archive's full submission `.txt` files, and the daily
 * index `master.YYYYMMDD.idx` of what it published. Filings are real recorded ones (a Form 4, an 8-K, a
 * Schedule 13D) re-issued under fresh accessions, so every parser sees the real format.
 */

export type Kind = 'form4' | '8k' | '13d';

interface Party {
  cik: string;
  name: string;
  role: string;
}

export interface Published {
  accession: string;
  form: string;
  parties: Party[];
  /** Feed time (`<updated>`). */
  updated: Date;
  /** performance.now() when it became visible in the feed (latency benches). */
  publishedAtPerf: number;
  body: string;
}

interface Template {
  form: string;
  parties: Party[];
  body(accession: string, day: string): string;
}

async function templates(): Promise<Record<Kind, Template>> {
  const f4 = await readFixture('ownership/form4_apple_adams_2022-05-04_full_submission.txt');
  const k8 = await readFixture('8k/8k_meta_2025-12-19_item5.02_full_submission.txt');
  const d13 = await readFixture('schedule13dg/schedule13d_aadi_bioscience_bml_2024_structured.xml');
  const swap = (text: string, oldAcc: string, oldDay: string) => (acc: string, day: string) =>
    text.replaceAll(oldAcc, acc).replaceAll(oldAcc.replace(/-/g, ''), acc.replace(/-/g, '')).replaceAll(oldDay, day.replace(/-/g, ''));
  return {
    form4: {
      form: '4',
      parties: [
        { cik: '0001462356', name: 'Adams Katherine L.', role: 'Reporting' },
        { cik: '0000320193', name: 'Apple Inc.', role: 'Issuer' },
      ],
      body: swap(f4, '0000320193-22-000061', '20220506'),
    },
    '8k': { form: '8-K', parties: [{ cik: '0001326801', name: 'Meta Platforms, Inc.', role: 'Filer' }], body: swap(k8, '0001628280-25-058337', '20251219') },
    '13d': {
      form: 'SCHEDULE 13D',
      parties: [
        { cik: '0001422142', name: 'Aadi Bioscience, Inc.', role: 'Subject' },
        { cik: '0001373604', name: 'BML Investment Partners, L.P.', role: 'Filed by' },
      ],
      body: (accession, day) =>
        submissionTxt({
          accession,
          formType: 'SCHEDULE 13D',
          filedDate: day,
          parties: [
            { role: 'SUBJECT COMPANY', cik: '0001422142', name: 'Aadi Bioscience, Inc.' },
            { role: 'FILED BY', cik: '0001373604', name: 'BML Investment Partners, L.P.' },
          ],
          xml: d13,
        }),
    },
  };
}

/** `2026-01-12T11:27:39-05:00`: the feed's Eastern wall time (a fixed -05:00 is enough for a stand-in). */
function eastern(d: Date): string {
  return `${new Date(d.getTime() - 5 * 3600_000).toISOString().slice(0, 19)}-05:00`;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const easternDay = (d: Date) => new Date(d.getTime() - 5 * 3600_000).toISOString().slice(0, 10);

function feedXml(base: string, entries: { f: Published; p: Party }[]): Buffer {
  const body = entries
    .map(({ f, p }) => {
      const acc18 = f.accession.replace(/-/g, '');
      return `<entry>
<title>${f.form} - ${p.name.replace(/&/g, '&amp;')} (${p.cik}) (${p.role})</title>
<link rel="alternate" type="text/html" href="${base}/Archives/edgar/data/${Number(p.cik)}/${acc18}/${f.accession}-index.htm"/>
<summary type="html">
 &lt;b&gt;Filed:&lt;/b&gt; ${easternDay(f.updated)} &lt;b&gt;AccNo:&lt;/b&gt; ${f.accession} &lt;b&gt;Size:&lt;/b&gt; 7 KB
</summary>
<updated>${eastern(f.updated)}</updated>
<category scheme="https://www.sec.gov/" label="form type" term="${f.form}"/>
<id>urn:tag:sec.gov,2008:accession-number=${f.accession}</id>
</entry>`;
    })
    .join('\n');
  return Buffer.from(
    `<?xml version="1.0" encoding="ISO-8859-1" ?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n<title>Latest Filings</title>\n${body}\n</feed>\n`,
    'latin1',
  );
}

export async function startFakeRegulator(opts: { now?: () => Date } = {}) {
  const tpl = await templates();
  const now = opts.now ?? (() => new Date());
  const published: Published[] = [];
  const hits: string[] = [];
  /** Accession → how many more archive requests answer 404 (a filing not yet on the archive host). */
  const missing = new Map<string, number>();
  let throttleFeed = 0;
  let seq = 0;
  let base = '';

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.push(url.pathname + url.search);
    if (url.pathname === '/cgi-bin/browse-edgar' && url.searchParams.get('action') === 'getcurrent') {
      if (throttleFeed > 0) {
        throttleFeed--;
        res.writeHead(429, { 'content-type': 'text/html' });
        res.end('Request Rate Threshold Exceeded');
        return;
      }
      const start = Number(url.searchParams.get('start') ?? 0);
      const count = Number(url.searchParams.get('count') ?? 40);
      const entries = [...published].reverse().flatMap((f) => f.parties.map((p) => ({ f, p })));
      res.writeHead(200, { 'content-type': 'application/atom+xml' });
      res.end(feedXml(base, entries.slice(start, start + count)));
      return;
    }
    const daily = url.pathname.match(/^\/Archives\/edgar\/daily-index\/\d{4}\/QTR\d\/master\.(\d{8})\.idx$/);
    if (daily) {
      const day = `${daily[1].slice(0, 4)}-${daily[1].slice(4, 6)}-${daily[1].slice(6)}`;
      const lines = published
        .filter((f) => easternDay(f.updated) === day)
        .flatMap((f) => f.parties.map((p) => `${Number(p.cik)}|${p.name}|${f.form}|${daily[1]}|edgar/data/${Number(p.cik)}/${f.accession}.txt`));
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`Description: Daily Index\n\nCIK|Company Name|Form Type|Date Filed|File Name\n${'-'.repeat(80)}\n${lines.join('\n')}\n`);
      return;
    }
    const hdr = url.pathname.match(/^\/Archives\/edgar\/data\/\d+\/\d{18}\/(\d{10}-\d{2}-\d{6})-index-headers\.html$/);
    const headed = hdr ? published.find((f) => f.accession === hdr[1]) : undefined;
    if (headed) {
      // The real page: the colon-dialect header HTML-escaped inside <PRE>.
      const head = headed.body.slice(0, headed.body.indexOf('</SEC-HEADER>') + 13);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<HTML><HEAD><TITLE>SEC EDGAR Submission ${headed.accession}</TITLE></HEAD><BODY>\n<PRE>${escapeHtml(head)}</PRE></BODY></HTML>\n`);
      return;
    }
    const txt = url.pathname.match(/^\/Archives\/edgar\/data\/\d+\/\d{18}\/(\d{10}-\d{2}-\d{6})\.txt$/);
    const filing = txt ? published.find((f) => f.accession === txt[1]) : undefined;
    const left = filing ? (missing.get(filing.accession) ?? 0) : 0;
    if (!filing || left > 0) {
      if (filing) missing.set(filing.accession, left - 1);
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('Not Found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(filing.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  return {
    url: base,
    hits,
    published,
    /** Publishes one filing of `kind` at `at` (default: the clock's now). */
    publish(kind: Kind, at: Date = now()): Published {
      const t = tpl[kind];
      seq++;
      const accession = `0001999999-${String(at.getUTCFullYear()).slice(2)}-${String(seq).padStart(6, '0')}`;
      const f: Published = {
        accession,
        form: t.form,
        parties: t.parties,
        updated: at,
        publishedAtPerf: performance.now(),
        body: t.body(accession, easternDay(at)),
      };
      published.push(f);
      return f;
    },
    /** The next `times` archive requests for this filing answer 404. */
    withhold(accession: string, times: number) {
      missing.set(accession, times);
    },
    /** The next `n` feed requests answer 429. */
    throttleFeed(n: number) {
      throttleFeed = n;
    },
    easternDay,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export type FakeRegulator = Awaited<ReturnType<typeof startFakeRegulator>>;
