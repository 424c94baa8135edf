/**
 * Plans and the cost table exactly as docs/api-contract.md (Metering); the meter, /v1/account and the docs read
 * these and nothing else.
 */
export const PLANS = {
  free: { name: 'Free evaluation', monthly_price_usd: 0, included_credits: 100, overage_per_1000_usd: null, one_time: true },
  starter: { name: 'Starter', monthly_price_usd: 49, included_credits: 7_500, overage_per_1000_usd: 10.0, one_time: false },
  builder: { name: 'Builder', monthly_price_usd: 149, included_credits: 35_000, overage_per_1000_usd: 7.5, one_time: false },
  pro: { name: 'Pro', monthly_price_usd: 399, included_credits: 125_000, overage_per_1000_usd: 5.0, one_time: false },
  scale: { name: 'Scale', monthly_price_usd: 999, included_credits: 500_000, overage_per_1000_usd: 3.5, one_time: false },
  business: { name: 'Business', monthly_price_usd: 2_500, included_credits: 1_500_000, overage_per_1000_usd: 2.5, one_time: false },
  // "custom" in the API contract: the operator sets the terms; we record usage against a large default allowance.
  enterprise: { name: 'Enterprise', monthly_price_usd: null, included_credits: 10_000_000, overage_per_1000_usd: null, one_time: false },
} as const;

export type PlanId = keyof typeof PLANS;
export const PLAN_IDS = Object.keys(PLANS) as PlanId[];

/** Operation classes of the API contract's cost table and the credits each costs here (the range's ends). */
const COSTS = {
  resolve_identifier: { min: 1, max: 2 },
  search_filings: { min: 3, max: 5 },
  filing_metadata: { min: 3, max: 5 },
  filterable_list: { min: 5, max: 5 },
  parse_filing: { min: 10, max: 20 },
  full_company_profile: { min: 25, max: 50 },
  account: { min: 0, max: 0 },
} as const;

/**
 * Default cost of an endpoint that declares none, so of every list and lookup: the filterable-list price (the API contract, docs/api-contract.md:
 * "most read endpoints cost about 5"). A route of another class declares `cost: COSTS.<class>`.
 */
export const DEFAULT_COST = COSTS.filterable_list.max;

/**
 * Credits of the "download or parse a filing" class, from the bytes fetched or read: 10 for small filings, one more
 * per 250 kB, at most 20 (the class's range in COSTS).
 */
export function parseCost(bytes: number): number {
  return COSTS.parse_filing.min + Math.min(COSTS.parse_filing.max - COSTS.parse_filing.min, Math.floor(bytes / 250_000));
}

/** Rows of a bulk export (`GET /v1/<list>/export`) one credit pays for, after the export's base price. */
export const EXPORT_ROWS_PER_CREDIT = 1_000;

/**
 * Credits of a bulk export of `rows` rows: one list call's price (the count and the set-up) plus one credit per
 * started 1,000 rows. Paging the same rows costs 5 per 100; a bulk read is priced as the cheaper path it is.
 */
export function exportCost(rows: number): number {
  return DEFAULT_COST + Math.ceil(rows / EXPORT_ROWS_PER_CREDIT);
}
