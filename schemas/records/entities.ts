import { z } from 'zod';

/** API record of /v1/entities (also the base of the /v1/entities/{identifier} resolution record). */

const EntityAddress = z
  .object({
    street1: z.string().nullable(),
    street2: z.string().nullable(),
    city: z.string().nullable(),
    state_or_country: z.string().nullable(),
    postal_code: z.string().nullable(),
    state_or_country_description: z.string().nullable(),
  })
  .nullable();

export const EntityRecord = z.object({
  cik: z.string().describe('CIK zero-padded to 10 digits.'),
  name: z.string().describe('Current conformed name.'),
  ticker: z.string().nullable().describe('Primary current ticker.'),
  tickers: z.array(z.string()),
  exchanges: z.array(z.string().nullable()).describe('Exchange of each ticker, same order.'),
  sic: z.string().nullable(),
  sic_description: z.string().nullable(),
  state_of_incorp: z.string().nullable(),
  state_of_incorp_description: z.string().nullable(),
  fiscal_year_end: z.string().nullable().describe('MMDD.'),
  entity_type: z.string().nullable().describe('operating, other, investment, individual, …'),
  category: z.string().nullable().describe('Filer status(es), `; `-separated.'),
  ein: z.string().nullable(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  business_address: EntityAddress,
  mailing_address: EntityAddress,
  former_names: z.array(z.object({ name: z.string(), from: z.string().nullable(), to: z.string().nullable() })),
  detail_source: z.string().describe('`submissions` (full record) or `company_tickers` (ticker file only).'),
  updated_date: z.string(),
  source: z.string(),
  source_url: z.string(),
});
