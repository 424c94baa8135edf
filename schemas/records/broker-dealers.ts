import { z } from 'zod';
import { OfficeAddress } from './shared.ts';

/** API record of /v1/broker-dealers. */

export const BrokerDealer = z.object({
  bd_crd: z.string().nullable().describe('Firm CRD (from IAPD records), when known.'),
  sec_number: z.string().nullable().describe('8-##### SEC file number.'),
  cik: z.string().nullable(),
  name: z.string(),
  other_names: z.array(z.string()),
  status: z.string().describe('ACTIVE when on the SEC active list; otherwise the IAPD broker-dealer scope (INACTIVE…).'),
  on_sec_active_list: z.boolean(),
  main_office: OfficeAddress.extend({ street2: z.string().nullable() }),
  phone: z.string().nullable(),
  has_disclosure: z.boolean().nullable(),
  branches_count: z.number().int().nullable(),
  finra_last_approval_date: z.string().nullable(),
  expelled_date: z.string().nullable(),
  also_adviser_sec_number: z.string().nullable(),
  snapshot_date: z.string(),
  source: z.string(),
  source_url: z.string(),
});
