import { z } from 'zod';

/** API record of /v1/iapd-individuals. */

export const Employment = z.object({
  firm_name: z.string().nullable(),
  firm_crd: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  country: z.string().nullable(),
  registrations: z.array(
    z.object({ authority: z.string().nullable(), category: z.string().nullable(), status: z.string().nullable(), date: z.string().nullable() }),
  ),
});

export const Individual = z.object({
  ind_source_id: z.string().describe('Individual CRD.'),
  first_name: z.string().nullable(),
  middle_name: z.string().nullable(),
  last_name: z.string(),
  suffix: z.string().nullable(),
  full_name: z.string(),
  other_names: z.array(z.string()),
  ia_scope: z.string().describe('ACTIVE | INACTIVE (active investment adviser representative registration).'),
  bc_scope: z.string().describe('ACTIVE | NOTINSCOPE (current broker-dealer registration category).'),
  has_disclosure: z.number().int().describe('1 when any disclosure (DRP) flag is set.'),
  disclosure_types: z.array(z.string()),
  firm_count: z.number().int(),
  current_employments: z.array(Employment),
  exams: z.array(z.object({ code: z.string().nullable(), name: z.string().nullable(), date: z.string().nullable() })),
  designations: z.array(z.string()),
  cal_date: z.string().nullable().describe('Industry start: earliest registration date in the record.'),
  snapshot_date: z.string(),
  source: z.string(),
  source_url: z.string(),
});
