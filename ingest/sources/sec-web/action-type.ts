/**
 * What a litigation release reports, from its text and the titles of the documents it links. The regulator
 * publishes no such field; the first matching rule wins, in order of finality (a release announcing a final
 * judgment usually also recalls the complaint). Null when nothing matches (feed items carry only names).
 */
const RULES: [string, RegExp][] = [
  ['dismissal', /\bdismiss(ed|al)\b/i],
  ['final_judgment', /\bfinal judgments?\b|\bdefault judgments?\b|\bjudgment against\b/i],
  ['settlement', /\bsettle(d|ment)\b|\bconsent(ed)? to\b|\bconsent of\b/i],
  ['emergency_action', /\basset freeze\b|\btemporary restraining order\b|\bemergency action\b/i],
  ['verdict', /\bjury (verdict|found)\b|\bverdict\b/i],
  ['complaint', /\bcomplaint\b|\bcharged\b|\bfiled (a )?(civil )?(action|charges)\b/i],
];

export const ACTION_TYPES = RULES.map(([t]) => t);

export function actionTypeOf(...texts: (string | null | undefined)[]): string | null {
  const text = texts.filter(Boolean).join(' ');
  if (!text) return null;
  for (const [type, re] of RULES) if (re.test(text)) return type;
  return null;
}
