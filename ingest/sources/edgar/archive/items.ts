/**
 * Item numbers and canonical titles of Forms 8-K, 10-K and 10-Q (docs/formats/12-form-items-8k-10k-10q.md), and the
 * parsing of a user's `item=` value. One table for the extractor, the 8-K classifier and the API's 422s.
 */

export type ItemForm = '10-K' | '10-Q' | '8-K';

export const ITEMS_8K: Record<string, string> = {
  '1.01': 'Entry into a Material Definitive Agreement',
  '1.02': 'Termination of a Material Definitive Agreement',
  '1.03': 'Bankruptcy or Receivership',
  '1.04': 'Mine Safety – Reporting of Shutdowns and Patterns of Violations',
  '1.05': 'Material Cybersecurity Incidents',
  '2.01': 'Completion of Acquisition or Disposition of Assets',
  '2.02': 'Results of Operations and Financial Condition',
  '2.03': 'Creation of a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement of a Registrant',
  '2.04': 'Triggering Events That Accelerate or Increase a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement',
  '2.05': 'Costs Associated with Exit or Disposal Activities',
  '2.06': 'Material Impairments',
  '3.01': 'Notice of Delisting or Failure to Satisfy a Continued Listing Rule or Standard; Transfer of Listing',
  '3.02': 'Unregistered Sales of Equity Securities',
  '3.03': 'Material Modification to Rights of Security Holders',
  '4.01': "Changes in Registrant's Certifying Accountant",
  '4.02': 'Non-Reliance on Previously Issued Financial Statements or a Related Audit Report or Completed Interim Review',
  '5.01': 'Changes in Control of Registrant',
  '5.02': 'Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers; Compensatory Arrangements of Certain Officers',
  '5.03': 'Amendments to Articles of Incorporation or Bylaws; Change in Fiscal Year',
  '5.04': "Temporary Suspension of Trading Under Registrant's Employee Benefit Plans",
  '5.05': "Amendments to the Registrant's Code of Ethics, or Waiver of a Provision of the Code of Ethics",
  '5.06': 'Change in Shell Company Status',
  '5.07': 'Submission of Matters to a Vote of Security Holders',
  '5.08': 'Shareholder Director Nominations',
  '6.01': 'ABS Informational and Computational Material',
  '6.02': 'Change of Servicer or Trustee',
  '6.03': 'Change in Credit Enhancement or Other External Support',
  '6.04': 'Failure to Make a Required Distribution',
  '6.05': 'Securities Act Updating Disclosure',
  '6.06': 'Static Pool',
  '7.01': 'Regulation FD Disclosure',
  '8.01': 'Other Events',
  '9.01': 'Financial Statements and Exhibits',
};

/** Pre-2004-08-23 8-K numbering (captions from the old form; unverified: docs/formats/12-form-items-8k-10k-10q.md). */
export const ITEMS_8K_LEGACY: Record<string, string> = {
  '1': 'Changes in Control of Registrant',
  '2': 'Acquisition or Disposition of Assets',
  '3': 'Bankruptcy or Receivership',
  '4': "Changes in Registrant's Certifying Accountant",
  '5': 'Other Events',
  '6': "Resignations of Registrant's Directors",
  '7': 'Financial Statements, Pro Forma Financial Information and Exhibits',
  '8': 'Change in Fiscal Year',
  '9': 'Regulation FD Disclosure',
  '10': "Amendments to the Registrant's Code of Ethics, or Waiver of a Provision of the Code of Ethics",
  '11': "Temporary Suspension of Trading Under Registrant's Employee Benefit Plans",
  '12': 'Results of Operations and Financial Condition',
};

const ITEMS_10K: Record<string, { part: 'I' | 'II' | 'III' | 'IV'; title: string }> = {
  '1': { part: 'I', title: 'Business' },
  '1A': { part: 'I', title: 'Risk Factors' },
  '1B': { part: 'I', title: 'Unresolved Staff Comments' },
  '1C': { part: 'I', title: 'Cybersecurity' },
  '2': { part: 'I', title: 'Properties' },
  '3': { part: 'I', title: 'Legal Proceedings' },
  '4': { part: 'I', title: 'Mine Safety Disclosures' },
  '5': { part: 'II', title: "Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases of Equity Securities" },
  '6': { part: 'II', title: '[Reserved]' },
  '7': { part: 'II', title: "Management's Discussion and Analysis of Financial Condition and Results of Operations" },
  '7A': { part: 'II', title: 'Quantitative and Qualitative Disclosures About Market Risk' },
  '8': { part: 'II', title: 'Financial Statements and Supplementary Data' },
  '9': { part: 'II', title: 'Changes in and Disagreements with Accountants on Accounting and Financial Disclosure' },
  '9A': { part: 'II', title: 'Controls and Procedures' },
  '9B': { part: 'II', title: 'Other Information' },
  '9C': { part: 'II', title: 'Disclosure Regarding Foreign Jurisdictions that Prevent Inspections' },
  '10': { part: 'III', title: 'Directors, Executive Officers and Corporate Governance' },
  '11': { part: 'III', title: 'Executive Compensation' },
  '12': { part: 'III', title: 'Security Ownership of Certain Beneficial Owners and Management and Related Stockholder Matters' },
  '13': { part: 'III', title: 'Certain Relationships and Related Transactions, and Director Independence' },
  '14': { part: 'III', title: 'Principal Accountant Fees and Services' },
  '15': { part: 'IV', title: 'Exhibits and Financial Statement Schedules' },
  '16': { part: 'IV', title: 'Form 10-K Summary' },
};

export const ITEMS_10Q: Record<string, string> = {
  'I-1': 'Financial Statements',
  'I-2': "Management's Discussion and Analysis of Financial Condition and Results of Operations",
  'I-3': 'Quantitative and Qualitative Disclosures About Market Risk',
  'I-4': 'Controls and Procedures',
  'II-1': 'Legal Proceedings',
  'II-1A': 'Risk Factors',
  'II-2': 'Unregistered Sales of Equity Securities and Use of Proceeds',
  'II-3': 'Defaults Upon Senior Securities',
  'II-4': 'Mine Safety Disclosures',
  'II-5': 'Other Information',
  'II-6': 'Exhibits',
};

/** Canonical 10-K order (object keys cannot carry it: integer-like keys sort before `1A`). */
export const ORDER_10K = ['1', '1A', '1B', '1C', '2', '3', '4', '5', '6', '7', '7A', '8', '9', '9A', '9B', '9C', '10', '11', '12', '13', '14', '15', '16'];

/** `10-K405`, `10-KT/A`, `10-KSB` → `10-K`; `8-K/A`, `8-K12B` → `8-K`; anything else → null. */
export function itemFormOf(form: string | null | undefined): ItemForm | null {
  const f = (form ?? '').toUpperCase().replace(/\s+/g, '');
  if (f.startsWith('10-K')) return '10-K';
  if (f.startsWith('10-Q')) return '10-Q';
  if (f.startsWith('8-K')) return '8-K';
  return null;
}

export interface ItemRef {
  /** `I`/`II`… for 10-Q keys (and known for 10-K); null for 8-K. */
  part: string | null;
  /** Item number as written in headings: `1A`, `7`, `5.02`. */
  number: string;
  /** Stable key: `1A` (10-K), `II-1A` (10-Q), `5.02` (8-K). */
  key: string;
  title: string;
}

const ROMAN: Record<string, string> = { '1': 'I', '2': 'II', I: 'I', II: 'II', III: 'III', IV: 'IV', '3': 'III', '4': 'IV' };
const ITEM_PARAM = /^(?:(?:PART\s*)?(I{1,3}|IV|[1-4])\s*[-_:,/]\s*|PART\s*(I{1,3}|IV|[1-4])\s*)?(?:ITEM\s*)?(\d{1,2}(?:\.\d{2})?[A-C]?)\.?$/;

/**
 * A user's `item=` for a form: `1A`, `Item 7A`, `5.02`; 10-Q items take an optional part (`II-1A`, `part2-1a`,
 * `PartII-Item1A`); without one, Part I is meant for 1-4 and Part II for 1A, 5, 6. Returns null when the item
 * does not exist on that form.
 */
export function parseItemParam(raw: string, form: ItemForm): ItemRef | null {
  const m = ITEM_PARAM.exec(raw.trim().toUpperCase().replace(/\s+/g, ' '));
  if (!m) return null;
  const part = (m[1] ?? m[2]) ? ROMAN[(m[1] ?? m[2])!] : null;
  const num = m[3]!;
  if (form === '8-K') {
    if (part) return null;
    const title = ITEMS_8K[num] ?? ITEMS_8K_LEGACY[num];
    return title ? { part: null, number: num, key: num, title } : null;
  }
  if (form === '10-K') {
    const it = ITEMS_10K[num];
    if (!it || (part && part !== it.part)) return null;
    return { part: it.part, number: num, key: num, title: it.title };
  }
  const p = part ?? (['1A', '5', '6'].includes(num) ? 'II' : 'I');
  const key = `${p}-${num}`;
  const title = ITEMS_10Q[key];
  return title ? { part: p, number: num, key, title } : null;
}

/** Every valid `item=` key of a form (for 422 messages and docs). */
export function validItemKeys(form: ItemForm): string[] {
  if (form === '8-K') return Object.keys(ITEMS_8K);
  if (form === '10-K') return ORDER_10K;
  return Object.keys(ITEMS_10Q);
}
