import { Parser } from 'htmlparser2';

/**
 * A small element tree over htmlparser2 in xmlMode: lenient (real filings carry stray entities and odd
 * prefixes), keyed by LOCAL names because the 13F/N-PORT/N-CEN prefixes vary (`ns1:`, `n1:`, `com:`, none).
 * `streamXml` detaches each repeating element once handled, so a 50 MB N-PORT never sits whole in memory.
 */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

function localName(qname: string): string {
  const i = qname.indexOf(':');
  return i >= 0 ? qname.slice(i + 1) : qname;
}

/**
 * Parses XML text (or chunks of it) and calls `onElement` for every closed element whose local name is in
 * `emit`; those elements are dropped from the tree afterwards. Returns the remaining tree's root.
 */
export async function streamXml(
  input: string | AsyncIterable<string>,
  emit: Set<string> = new Set(),
  onElement: (node: XmlNode, path: string[], root: XmlNode) => void | Promise<void> = () => {},
): Promise<XmlNode> {
  const root: XmlNode = { name: '#document', attrs: {}, children: [], text: '' };
  const stack: XmlNode[] = [root];
  const pending: { node: XmlNode; path: string[] }[] = [];
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
          const parent = stack[stack.length - 1];
          parent.children.pop();
          pending.push({ node, path: stack.slice(1).map((n) => n.name) });
        }
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeSelfClosing: true },
  );
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

export async function parseXml(xml: string): Promise<XmlNode> {
  return streamXml(xml);
}

/** First child with this local name (case-insensitive: N-CEN mixes `registrantCity`/`registrantcity`). */
export function child(node: XmlNode | null | undefined, name: string): XmlNode | null {
  if (!node) return null;
  const n = name.toLowerCase();
  return node.children.find((c) => c.name.toLowerCase() === n) ?? null;
}

export function children(node: XmlNode | null | undefined, name: string): XmlNode[] {
  if (!node) return [];
  const n = name.toLowerCase();
  return node.children.filter((c) => c.name.toLowerCase() === n);
}

/** Follows a `/`-separated path of local names. */
export function at(node: XmlNode | null | undefined, path: string): XmlNode | null {
  let cur: XmlNode | null = node ?? null;
  for (const part of path.split('/')) {
    cur = child(cur, part);
    if (!cur) return null;
  }
  return cur;
}

/** Text at a path, or null when the element is missing or empty. */
export function textAt(node: XmlNode | null | undefined, path: string): string | null {
  const n = at(node, path);
  return n && n.text !== '' ? n.text : null;
}

/** Depth-first search for the first element with this local name. */
export function find(node: XmlNode | null | undefined, name: string): XmlNode | null {
  if (!node) return null;
  const n = name.toLowerCase();
  const stack = [...node.children];
  while (stack.length) {
    const c = stack.shift()!;
    if (c.name.toLowerCase() === n) return c;
    stack.unshift(...c.children);
  }
  return null;
}

export function findAll(node: XmlNode | null | undefined, name: string, out: XmlNode[] = []): XmlNode[] {
  if (!node) return out;
  const n = name.toLowerCase();
  for (const c of node.children) {
    if (c.name.toLowerCase() === n) out.push(c);
    else findAll(c, name, out);
  }
  return out;
}
