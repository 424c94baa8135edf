import { Parser } from 'htmlparser2';
import { cleanText } from './normalize.ts';

/**
 * A small lenient element tree over htmlparser2 in xmlMode (real filings carry stray entities), keyed by LOCAL
 * names and matched case-insensitively: prefixes vary between filers (`ns1:`, `com:`, none) and so does case
 * (N-CEN mixes `registrantCity`/`registrantcity`, 13D/G `issuerCIK`/`issuerCik`).
 *
 * Two lookups, both taking a `/`-separated path:
 * - `at`/`textAt` follow the path exactly through direct children: for large regular documents (13F, N-PORT,
 *   N-CEN) where a missing element must stay missing rather than match a namesake deeper down.
 * - `find`/`findText` let each step fall back to the first descendant of that name: for the small one-per-filing
 *   forms (Form D, 144, 13D/G) whose wrappers differ between schema versions.
 */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  /** The element's own text (not its descendants'), trimmed. */
  text: string;
}

function localName(qname: string): string {
  return qname.slice(qname.indexOf(':') + 1);
}

/**
 * Parses XML text (or chunks of it) and calls `onElement` for every closed element whose local name is in
 * `emit`; those elements are dropped from the tree afterwards, so a 50 MB N-PORT never sits whole in memory.
 * Returns the remaining tree's root.
 */
export async function streamXml(
  input: string | AsyncIterable<string>,
  emit: Set<string>,
  onElement: (node: XmlNode, path: string[], root: XmlNode) => void | Promise<void>,
): Promise<XmlNode> {
  const pending: { node: XmlNode; path: string[] }[] = [];
  const { parser, root } = treeParser(emit, pending);
  const drain = async () => {
    while (pending.length) {
      const { node, path } = pending.shift()!;
      await onElement(node, path, root);
    }
  };
  if (typeof input === 'string') {
    parser.end(input);
    await drain();
  } else {
    for await (const chunk of input) {
      parser.write(chunk);
      await drain();
    }
    parser.end();
    await drain();
  }
  return root;
}

/** The whole document as a tree; its root is a `#document` node holding the top-level element(s). */
export function parseXml(xml: string): XmlNode {
  const { parser, root } = treeParser(new Set(), []);
  parser.end(xml);
  return root;
}

function treeParser(emit: Set<string>, pending: { node: XmlNode; path: string[] }[]) {
  const root: XmlNode = { name: '#document', attrs: {}, children: [], text: '' };
  const stack: XmlNode[] = [root];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const attrsLocal: Record<string, string> = {};
        for (const [k, v] of Object.entries(attrs)) attrsLocal[localName(k)] = v;
        const node: XmlNode = { name: localName(name), attrs: attrsLocal, children: [], text: '' };
        stack[stack.length - 1].children.push(node);
        stack.push(node);
      },
      ontext(text) {
        stack[stack.length - 1].text += text;
      },
      onclosetag() {
        if (stack.length <= 1) return;
        const node = stack.pop()!;
        node.text = node.text.trim();
        if (emit.has(node.name)) {
          stack[stack.length - 1].children.pop();
          pending.push({ node, path: stack.slice(1).map((n) => n.name) });
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  return { parser, root };
}

const same = (node: XmlNode, lowerName: string) => node.name.toLowerCase() === lowerName;

/** Direct children with this local name. */
export function children(node: XmlNode | null | undefined, name: string): XmlNode[] {
  if (!node) return [];
  const n = name.toLowerCase();
  return node.children.filter((c) => same(c, n));
}

/** Follows a `/`-separated path through direct children only. */
export function at(node: XmlNode | null | undefined, path: string): XmlNode | null {
  let cur: XmlNode | null = node ?? null;
  for (const part of path.split('/')) {
    if (!cur) return null;
    const n = part.toLowerCase();
    cur = cur.children.find((c) => same(c, n)) ?? null;
  }
  return cur;
}

/** Own text of the element at an exact path, or null when it is missing or empty. */
export function textAt(node: XmlNode | null | undefined, path: string): string | null {
  const n = at(node, path);
  return n && n.text !== '' ? n.text : null;
}

/** Follows a `/`-separated path where each step is a direct child or, failing that, the first descendant. */
export function find(node: XmlNode | null | undefined, path: string): XmlNode | null {
  let cur: XmlNode | null = node ?? null;
  for (const part of path.split('/')) {
    if (!cur) return null;
    const n = part.toLowerCase();
    cur = cur.children.find((c) => same(c, n)) ?? firstDescendant(cur, n);
  }
  return cur;
}

function firstDescendant(node: XmlNode, lowerName: string): XmlNode | null {
  for (const c of node.children) {
    if (same(c, lowerName)) return c;
    const d = firstDescendant(c, lowerName);
    if (d) return d;
  }
  return null;
}

/** Whole text (descendants included) of the element `find` reaches, whitespace folded; null when empty. */
export function findText(node: XmlNode | null | undefined, path: string): string | null {
  return textOf(find(node, path));
}

/** All descendants with this local name, in document order (nested namesakes included). */
export function all(node: XmlNode | null | undefined, name: string): XmlNode[] {
  const out: XmlNode[] = [];
  const n = name.toLowerCase();
  const walk = (p: XmlNode) => {
    for (const c of p.children) {
      if (same(c, n)) out.push(c);
      walk(c);
    }
  };
  if (node) walk(node);
  return out;
}

/** Whole text content (descendants included), whitespace folded; null when empty. */
export function textOf(node: XmlNode | null | undefined): string | null {
  if (!node) return null;
  let s = node.text;
  for (const c of node.children) s += ` ${textOf(c) ?? ''}`;
  return cleanText(s);
}
