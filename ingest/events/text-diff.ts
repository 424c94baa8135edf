/**
 * Paragraph-level comparison of two versions of an item's text. Paragraphs are normalized (case, spacing,
 * digits kept) and matched exactly; the similarity is the share of characters in paragraphs both versions hold
 * (Dice coefficient over paragraph lengths), so a rewritten paragraph counts as one removed plus one added.
 */
export interface TextDiff {
  similarity: number;
  added: string[];
  removed: string[];
  paragraphsBefore: number;
  paragraphsAfter: number;
}

const norm = (p: string) => p.toLowerCase().replace(/\s+/g, ' ').replace(/[“”]/g, '"').replace(/[‘’]/g, "'").trim();

function paragraphsOf(text: string): string[] {
  return text
    .split(/\n+/)
    .map((p) => p.trim())
    .filter((p) => p.length >= 20);
}

export function compareText(before: string, after: string): TextDiff {
  const a = paragraphsOf(before);
  const b = paragraphsOf(after);
  const setA = new Map(a.map((p) => [norm(p), p]));
  const setB = new Map(b.map((p) => [norm(p), p]));
  let common = 0;
  for (const k of setB.keys()) if (setA.has(k)) common += k.length;
  const total = [...setA.keys()].reduce((s, k) => s + k.length, 0) + [...setB.keys()].reduce((s, k) => s + k.length, 0);
  return {
    similarity: total ? Math.round(((2 * common) / total) * 10000) / 10000 : 1,
    added: [...setB.entries()].filter(([k]) => !setA.has(k)).map(([, p]) => p),
    removed: [...setA.entries()].filter(([k]) => !setB.has(k)).map(([, p]) => p),
    paragraphsBefore: a.length,
    paragraphsAfter: b.length,
  };
}
