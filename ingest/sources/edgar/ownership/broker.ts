/**
 * Broker names as typed on Form 144 vary in case, punctuation and corporate suffix ("Goldman Sachs & Co. LLC",
 * "GOLDMAN SACHS & CO LLC"): folded to one key so a broker's notices group together.
 */
const SUFFIXES = new Set([
  'llc',
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'ltd',
  'limited',
  'lp',
  'llp',
  'plc',
  'na',
  'n a',
  'sa',
  'ag',
  'the',
]);

export function normalizeBrokerName(raw: string | null | undefined): string | null {
  if (!raw) return null;
  // Periods vanish rather than split words, so "L.L.C." reads as "llc" and "J.P." as "jp".
  let s = raw
    .toLowerCase()
    .replace(/\./g, '')
    .replace(/&/g, ' and ')
    .replace(/[,'’"()/\\-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  // Strip trailing legal suffixes repeatedly ("& Co. LLC" → "and co llc" → "and co" → "and" → "").
  const words = s.split(' ');
  while (words.length > 1 && (SUFFIXES.has(words[words.length - 1]) || words[words.length - 1] === 'and')) words.pop();
  while (words.length > 1 && words[0] === 'the') words.shift();
  s = words.join(' ');
  return s || null;
}
