import { Parser } from 'htmlparser2';

/**
 * The `dei:` facts of an inline XBRL document (ix:nonNumeric / ix:nonFraction whose name starts with `dei:`) with
 * the contexts they point at. Only what a cover page needs: the facts' printed text, transformation format,
 * scale and sign, and each context's period end (or instant) and dimension members. Tags and attributes are
 * matched by local name in lower case, because filers' agents spell the prefixes (`xbrli:`, none) differently.
 */

export interface DeiFact {
  /** Local name without the `dei:` prefix, e.g. `EntityRegistrantName`. */
  name: string;
  contextRef: string | null;
  /** `ixt:date-monthname-day-year-en`, `ixt-sec:boolballotbox`, `ixt:fixed-true` … */
  format: string | null;
  scale: number;
  negative: boolean;
  numeric: boolean;
  /** The printed text, nested facts' text included, whitespace collapsed. */
  text: string;
}

export interface DeiContext {
  /** Period end date (duration) or the instant, `YYYY-MM-DD`. */
  date: string | null;
  /** Explicit dimension members (`us-gaap:CommonClassAMember`); empty for the entity's default context. */
  members: string[];
}

export interface DeiFacts {
  facts: DeiFact[];
  contexts: Map<string, DeiContext>;
}

function local(name: string): string {
  const i = name.lastIndexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}

/** True when the document carries inline XBRL markup at all (cheaper than parsing when it does not). */
export function hasInlineXbrl(html: string): boolean {
  return /<ix:(nonNumeric|nonFraction|header)\b/i.test(html);
}

export function readDeiFacts(html: string): DeiFacts {
  const facts: DeiFact[] = [];
  const contexts = new Map<string, DeiContext>();
  const open: { fact: DeiFact | null; tag: string }[] = [];
  let excludeDepth = 0;
  let context: { id: string; ctx: DeiContext } | null = null;
  let leaf: string | null = null;
  let leafText = '';

  const parser = new Parser(
    {
      onopentag(tag, attrs) {
        const name = local(tag);
        if (name === 'exclude') excludeDepth++;
        if (name === 'nonnumeric' || name === 'nonfraction') {
          const factName = attrs.name ?? '';
          const isDei = /^dei:/i.test(factName);
          const fact: DeiFact | null = isDei
            ? {
                name: factName.slice(4),
                contextRef: attrs.contextref ?? null,
                format: attrs.format ?? null,
                scale: Number(attrs.scale ?? 0) || 0,
                negative: attrs.sign === '-',
                numeric: name === 'nonfraction',
                text: '',
              }
            : null;
          // Listed at the opening tag: document order, also for a fact nested in another.
          if (fact) facts.push(fact);
          open.push({ fact, tag: name });
          return;
        }
        if (name === 'context' && attrs.id) {
          context = { id: attrs.id, ctx: { date: null, members: [] } };
          return;
        }
        if (context && (name === 'enddate' || name === 'instant' || name === 'explicitmember')) {
          leaf = name;
          leafText = '';
        }
      },
      ontext(t) {
        if (leaf) leafText += t;
        if (excludeDepth > 0) return;
        for (const o of open) if (o.fact) o.fact.text += t;
      },
      onclosetag(tag) {
        const name = local(tag);
        if (name === 'exclude') excludeDepth = Math.max(0, excludeDepth - 1);
        if (name === 'nonnumeric' || name === 'nonfraction') {
          const o = open.pop();
          if (o?.fact) o.fact.text = o.fact.text.replace(/[\s\u00a0]+/g, ' ').trim();
          return;
        }
        if (context && leaf === name) {
          const v = leafText.trim();
          if (name === 'explicitmember') context.ctx.members.push(v);
          else context.ctx.date = v.slice(0, 10);
          leaf = null;
        }
        if (context && name === 'context') {
          contexts.set(context.id, context.ctx);
          context = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  return { facts, contexts };
}
