import { z } from 'zod';

/** API record of /v1/insider/form144. */

export const Form144Record = z.object({
  accession: z.string(),
  row_seq: z.number().int(),
  submission_type: z.string().nullable().describe('144 or 144/A.'),
  filed_date: z.string(),
  issuer: z.object({ cik: z.string(), name: z.string().nullable(), sec_file_number: z.string().nullable() }),
  person_name: z.string().nullable().describe('Person for whose account the securities are to be sold.'),
  relationships: z.array(z.string()),
  class_of_securities: z.string().nullable(),
  broker_name: z.string().nullable(),
  broker_normalized_name: z.string().nullable(),
  broker_address: z.object({
    street1: z.string().nullable(),
    street2: z.string().nullable(),
    city: z.string().nullable(),
    state_or_country: z.string().nullable(),
    zip_code: z.string().nullable(),
  }),
  units_to_be_sold: z.number().nullable().describe('Proposed quantity, not an executed sale.'),
  aggregate_market_value: z.number().nullable().describe('USD.'),
  units_outstanding: z.number().nullable(),
  approx_sale_date: z.string().nullable(),
  exchange: z.string().nullable(),
  notice_date: z.string().nullable(),
  plan_adoption_dates: z.array(z.string()).describe('Rule 10b5-1 plan adoption dates.'),
  securities_to_be_sold: z.array(z.record(z.string(), z.unknown())),
  sold_past_3_months: z.array(z.record(z.string(), z.unknown())),
  remarks: z.string().nullable(),
  signature: z.string().nullable().describe('The notice signature as typed; its date is notice_date.'),
  source: z.string(),
  source_url: z.string().nullable(),
});
