import { Parser } from 'htmlparser2';
import { decodeHTML } from 'entities';
import { cleanText, rfc822Date } from '../common/normalize.ts';
import { UnparsablePageError } from './errors.ts';

/** One RSS 2.0 `<item>`, fields as published (missing ones null). */
export interface RssItem {
  title: string | null;
  link: string | null;
  /** Plain text of the description (it may carry HTML). */
  description: string | null;
  /** `YYYY-MM-DD` as written in the feed's own time zone (the regulator publishes US Eastern). */
  pubDate: string | null;
  /** `dc:creator`: the litigation feed puts the release number here. */
  creator: string | null;
  guid: string | null;
}
/** RFC-822 `Mon, 01 Jul 2024 15:00:56 -0400` → `2024-07-01` (the date printed, not shifted to UTC). */

/** Tags inside a description are markup, not content. */
function htmlToText(html: string | null): string | null {
  if (html == null) return null;
  return cleanText(decodeHTML(html.replace(/<[^>]*>/g, ' ')));
}

const FIELDS = new Set(['title', 'link', 'description', 'pubdate', 'dc:creator', 'guid']);

/**
 * Lenient RSS 2.0 reader (htmlparser2, xmlMode): unknown elements ignored, a missing field becomes null,
 * surrounding whitespace trimmed (the litigation feed puts a newline inside `<link>`). A body that is not
 * an RSS channel throws with the URL.
 */
export function parseRss(xml: string, url: string): RssItem[] {
  const items: RssItem[] = [];
  let sawChannel = false;
  let current: Record<string, string> | null = null;
  let field: string | null = null;
  let buf = '';
  const parser = new Parser(
    {
      onopentag(name) {
        const n = name.toLowerCase();
        if (n === 'channel' || n === 'rss') sawChannel = true;
        if (n === 'item') current = {};
        else if (current && FIELDS.has(n)) {
          field = n;
          buf = '';
        }
      },
      ontext(t) {
        if (field) buf += t;
      },
      onclosetag(name) {
        const n = name.toLowerCase();
        if (current && field === n) {
          current[n] = buf;
          field = null;
        }
        if (n === 'item' && current) {
          const c: Record<string, string> = current;
          items.push({
            title: cleanText(decodeHTML(c.title ?? '')),
            link: cleanText(c.link),
            description: htmlToText(c.description ?? null),
            pubDate: rfc822Date(c.pubdate),
            creator: cleanText(c['dc:creator']),
            guid: cleanText(c.guid),
          });
          current = null;
        }
      },
    },
    // Entities decoded by hand (decodeHTML): feeds use HTML named entities that XML mode would leave alone.
    { xmlMode: true, decodeEntities: false, recognizeCDATA: true },
  );
  parser.write(xml);
  parser.end();
  if (!sawChannel) throw new UnparsablePageError(url, 'not an RSS feed (no <rss>/<channel> element)');
  return items;
}
