import { Parser } from 'htmlparser2';
import { cleanText } from '../core/normalize.ts';

/**
 * A small lenient element tree for the one-per-filing XML forms (Form D, Form 144, Schedule 13D/G), keyed by
 * LOCAL names: the 13D/G and 144 documents mix a default namespace with `com:`/`ns2:` prefixes, and the same
 * element may appear with either. Filings are a few KB, so a tree is cheap; the hot Form 4 path has its own
 * streaming parser.
 */
export interface XmlEl {
  name: string;
  attrs: Record<string, string>;
  children: XmlEl[];
  text: string;
}

const local = (n: string) => n.slice(n.indexOf(':') + 1);

export function parseXmlTree(xml: string): XmlEl {
  const root: XmlEl = { name: '#root', attrs: {}, children: [], text: '' };
  const stack: XmlEl[] = [root];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const el: XmlEl = { name: local(name), attrs, children: [], text: '' };
        stack[stack.length - 1].children.push(el);
        stack.push(el);
      },
      ontext(t) {
        stack[stack.length - 1].text += t;
      },
      onclosetag() {
        if (stack.length > 1) stack.pop();
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(xml);
  return root;
}

/** First descendant-or-self path match: `el(tree, 'offeringData', 'offeringSalesAmounts')`. */
export function el(node: XmlEl | null | undefined, ...path: string[]): XmlEl | null {
  let cur: XmlEl | null = node ?? null;
  for (const p of path) {
    if (!cur) return null;
    cur = cur.children.find((c) => c.name === p) ?? findDeep(cur, p);
  }
  return cur;
}

function findDeep(node: XmlEl, name: string): XmlEl | null {
  for (const c of node.children) {
    if (c.name === name) return c;
    const d = findDeep(c, name);
    if (d) return d;
  }
  return null;
}

/** Direct children with this local name. */
export function kids(node: XmlEl | null | undefined, name: string): XmlEl[] {
  return node ? node.children.filter((c) => c.name === name) : [];
}

/** All descendants with this local name, in document order. */
export function all(node: XmlEl | null | undefined, name: string): XmlEl[] {
  const out: XmlEl[] = [];
  const walk = (n: XmlEl) => {
    for (const c of n.children) {
      if (c.name === name) out.push(c);
      walk(c);
    }
  };
  if (node) walk(node);
  return out;
}

/** Whole text content (descendants included), whitespace folded; null when empty. */
export function textOf(node: XmlEl | null | undefined): string | null {
  if (!node) return null;
  let s = node.text;
  for (const c of node.children) s += ` ${textOf(c) ?? ''}`;
  return cleanText(s);
}

/** Text at a path below `node`, or null. */
export function txt(node: XmlEl | null | undefined, ...path: string[]): string | null {
  return textOf(el(node, ...path));
}
