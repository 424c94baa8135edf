/**
 * Money amounts as the regulator writes them in release text ("a civil penalty of $1.2 million",
 * "one million dollars", "$250,000", "US$3.5 billion") to integer USD, always with the phrase they came from:
 * analysts need to see what was parsed, and a number alone cannot be audited.
 */

export interface MoneyMention {
  /** Integer USD. */
  usd: number;
  /** The exact phrase matched, e.g. `$1.2 million`. */
  text: string;
  /** Offset of the phrase in the searched text. */
  index: number;
}

const SCALES: Record<string, number> = {
  thousand: 1e3,
  k: 1e3,
  million: 1e6,
  m: 1e6,
  mm: 1e6,
  mil: 1e6,
  mln: 1e6,
  billion: 1e9,
  b: 1e9,
  bn: 1e9,
  trillion: 1e12,
};

const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  a: 1,
  an: 1,
};
const WORD_SCALES: Record<string, number> = { hundred: 100, thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };

const NUMBER_WORD = `(?:${[...Object.keys(UNITS).filter((w) => w !== 'a' && w !== 'an'), ...Object.keys(WORD_SCALES)].join('|')})`;

/**
 * Figures: `$1.2 million`, `$ 1,234,567.89`, `US$5m`, `USD 2 billion`, `1.5 million dollars`.
 * The scale word must follow the figure directly; a bare number without `$`/`USD`/`dollars` is not money.
 */
const FIGURE = new RegExp(
  String.raw`(?:(?:US\s?\$|\$|USD\s?)\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s?(thousand|million|billion|trillion|mm|mln|mil|bn|[kmb])\b)?` +
    String.raw`|\b(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s?(thousand|million|billion|trillion)?\s+(?:U\.?S\.?\s+)?dollars\b)`,
  'gi',
);

/** Spelled-out amounts ending in "dollars": `one million dollars`, `two hundred fifty thousand dollars`. */
const WORDS = new RegExp(String.raw`\b(?:a|an|${NUMBER_WORD})(?:[\s-]+(?:and[\s-]+)?${NUMBER_WORD})*\s+(?:U\.?S\.?\s+)?dollars\b`, 'gi');

function scaled(intPart: string, frac: string | undefined, scaleWord: string | undefined): number | null {
  const base = Number(intPart.replace(/,/g, '') + (frac ?? ''));
  if (!Number.isFinite(base)) return null;
  const scale = scaleWord ? SCALES[scaleWord.toLowerCase()] : 1;
  if (scale === undefined) return null;
  const usd = Math.round(base * scale);
  return Number.isSafeInteger(usd) ? usd : null;
}

/** `two hundred fifty thousand` → 250000; null when the words do not form a number. */
export function wordsToNumber(words: string): number | null {
  const tokens = words
    .toLowerCase()
    .split(/[\s-]+/)
    .filter((t) => t && t !== 'and');
  if (!tokens.length) return null;
  let total = 0;
  let current = 0;
  let seen = false;
  for (const t of tokens) {
    if (t in UNITS) {
      current += UNITS[t];
      seen = true;
    } else if (t === 'hundred') {
      current = (current || 1) * 100;
      seen = true;
    } else if (t in WORD_SCALES) {
      total += (current || 1) * WORD_SCALES[t];
      current = 0;
      seen = true;
    } else {
      return null;
    }
  }
  return seen ? total + current : null;
}

/** Every money amount in a text, in order of appearance. */
export function findMoney(text: string | null | undefined): MoneyMention[] {
  if (!text) return [];
  const out: MoneyMention[] = [];
  for (const m of text.matchAll(FIGURE)) {
    const usd = m[1] !== undefined ? scaled(m[1], m[2], m[3]) : scaled(m[4], m[5], m[6]);
    // "$5 m" where m starts a word like "million" is handled by the alternation; a lone `$` with no digits never matches.
    if (usd !== null) out.push({ usd, text: m[0].trim(), index: m.index });
  }
  for (const m of text.matchAll(WORDS)) {
    let phrase = m[0];
    let index = m.index!;
    // The article counts only before a scale ("a million dollars"); in "a three million dollars" it is grammar.
    const article = phrase.match(/^(an?)\s+(?!hundred|thousand|million|billion|trillion)/i);
    if (article) {
      phrase = phrase.slice(article[0].length);
      index += article[0].length;
    }
    const words = phrase.replace(/\s+(?:U\.?S\.?\s+)?dollars$/i, '');
    if (/^(a|an)?$/i.test(words.trim())) continue;
    const usd = wordsToNumber(words);
    if (usd !== null && !out.some((o) => index >= o.index && index < o.index + o.text.length)) {
      out.push({ usd, text: phrase.trim(), index });
    }
  }
  return out.sort((a, b) => a.index - b.index);
}

/** The first amount of a short phrase (a table cell, a title), or null. */
export function parseMoney(text: string | null | undefined): MoneyMention | null {
  return findMoney(text)[0] ?? null;
}

export type MoneyRole = 'penalty' | 'disgorgement' | 'interest' | 'award';

const ROLE_WORDS: [MoneyRole, RegExp][] = [
  ['disgorgement', /disgorg\w*/gi],
  ['interest', /prejudgment interest|interest thereon|interest/gi],
  ['penalty', /penalt(?:y|ies)|\bfines?\b/gi],
  ['award', /\bawards?\b|\bawarded\b/gi],
];

/** Words that make an amount a total of the others in the same role ("a combined $3 million"). */
const TOTAL_WORDS = /\b(total|combined|collectively|aggregate|altogether)\b/i;

/**
 * The role of each amount: the closest role word before it in the same sentence (within 90 characters),
 * else the closest after it (within 40: "a $500,000 civil penalty").
 */
function roleOf(text: string, m: MoneyMention): MoneyRole | null {
  const sentenceStart = Math.max(text.lastIndexOf('. ', m.index), text.lastIndexOf(';', m.index)) + 1;
  const before = text.slice(Math.max(sentenceStart, m.index - 90), m.index);
  const afterEnd = m.index + m.text.length;
  const after = text.slice(afterEnd, afterEnd + 40);
  let best: { role: MoneyRole; dist: number } | null = null;
  for (const [role, re] of ROLE_WORDS) {
    for (const hit of before.matchAll(re)) {
      const dist = before.length - (hit.index! + hit[0].length);
      if (!best || dist < best.dist) best = { role, dist };
    }
  }
  if (best) return best.role;
  for (const [role, re] of ROLE_WORDS) {
    re.lastIndex = 0;
    const hit = re.exec(after);
    re.lastIndex = 0;
    if (hit && (!best || hit.index < best.dist)) best = { role, dist: hit.index };
  }
  return best?.role ?? null;
}

export interface RoleAmount {
  usd: number | null;
  /** The source phrases, joined with ` | ` when several amounts add up. */
  text: string | null;
}

/**
 * The amount a text states for one role. Several distinct amounts (one per defendant) are summed; the same
 * amount repeated is counted once (releases restate figures); an amount introduced as a total wins alone.
 */
export function amountFor(text: string | null | undefined, role: MoneyRole): RoleAmount {
  if (!text) return { usd: null, text: null };
  const mine = findMoney(text).filter((m) => roleOf(text, m) === role);
  if (!mine.length) return { usd: null, text: null };
  const total = mine.find((m) => TOTAL_WORDS.test(text.slice(Math.max(0, m.index - 40), m.index)));
  if (total) return { usd: total.usd, text: total.text };
  const distinct = new Map<number, string>();
  for (const m of mine) if (!distinct.has(m.usd)) distinct.set(m.usd, m.text);
  let usd = 0;
  for (const v of distinct.keys()) usd += v;
  return { usd, text: [...distinct.values()].join(' | ') };
}
