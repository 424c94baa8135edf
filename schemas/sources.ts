/**
 * Source labels: the `source` of every API envelope and record, and of every dataset in the catalog (/v1/sources).
 * Defined here once; datasets and routes name a label through `SOURCE` (`SOURCE.sec_form_adv`), so a misspelt label
 * does not compile, and the OpenAPI document describes each endpoint's label with the text below.
 */
export const SOURCES = {
  sec_form_13f: 'Form 13F reports of institutional investment managers (quarterly Form 13F data sets and 13F-HR filings).',
  sec_form_adv: 'Monthly Form ADV roster of registered and exempt-reporting investment advisers.',
  sec_form_adv_schedule_d: 'Form ADV Schedule D 7.B.(1) private funds, from the monthly adviser filing data.',
  sec_broker_dealers: 'SEC active broker-dealer list, joined with IAPD firm records.',
  iapd_form_crs: 'Form CRS relationship summaries (IAPD Form CRS data).',
  iapd_individuals: 'Investment adviser representatives (IAPD individual compilation feed).',
  sec_private_fund_stats: 'SEC Private Funds Statistics (quarterly workbook).',
  sec_enforcement: 'SEC administrative proceedings and litigation releases, as enforcement actions.',
  sec_litigation_releases: 'SEC litigation releases (civil actions in federal court).',
  sec_trading_suspensions: 'SEC trading suspension orders.',
  sec_whistleblower: 'SEC whistleblower award final orders.',
  uspto_patent_grants: 'USPTO weekly patent grant full-text files.',
  sec_submissions: 'EDGAR submissions data and the company ticker file (the entity directory).',
  sec_edgar_index: 'EDGAR full and daily filing indexes, enriched with the submissions data.',
  sec_edgar_archive: 'Filing documents from the EDGAR archive.',
  sec_efts: 'EDGAR full-text search.',
  sec_8k_item_1_05: 'Form 8-K Item 1.05 (material cybersecurity incident) filings, found by full-text search.',
  sec_fsds: 'Financial Statement Data Sets (quarterly sub/num/tag files).',
  sec_xbrl_companyfacts: 'XBRL company facts data.',
  sec_insider_transactions: 'Forms 3, 4 and 5 (quarterly Insider Transactions data sets and ownership XML filings).',
  sec_form_144: 'Form 144 notices of proposed sales.',
  sec_schedule_13dg: 'Schedules 13D and 13G beneficial ownership reports.',
  sec_form_d: 'Form D notices of exempt offerings (quarterly Form D data sets and Form D XML filings).',
  sec_form_ncen: 'Form N-CEN fund census reports (quarterly N-CEN data sets and XML filings).',
  sec_form_nport: 'Form N-PORT fund portfolio reports (quarterly N-PORT data sets and NPORT-P filings).',
  sec_proxy: 'DEF 14A proxy statements.',
  irs_990: 'IRS Form 990, 990-EZ and 990-PF e-file returns.',
  'sec_proxy+irs_990': 'Board members from both DEF 14A proxy statements and IRS Form 990 returns (each record names its own).',
  svc: 'The service itself (health).',
  svc_account: "The caller's account and credit balance.",
  svc_catalog: 'The lake catalog: datasets, record counts and refresh times.',
  svc_events: 'Events detected by this service from the filings it ingests.',
  svc_monitoring: "Monitors, webhook endpoints, deliveries and alerts of the caller's account.",
} as const satisfies Record<string, string>;

export type SourceLabel = keyof typeof SOURCES;

/** Each label by name (`SOURCE.sec_form_adv === 'sec_form_adv'`). */
export const SOURCE = Object.fromEntries(Object.keys(SOURCES).map((label) => [label, label])) as { readonly [L in SourceLabel]: L };

export function isSourceLabel(s: string): s is SourceLabel {
  return Object.hasOwn(SOURCES, s);
}
