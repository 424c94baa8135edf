import { z } from 'zod';

/** API record of /v1/private-fund-stats. */

export const StatRecord = z.object({
  quarter_end_date: z.string(),
  tab_name: z.string(),
  table_title: z.string().nullable(),
  row_key: z.string(),
  metric_key: z.string(),
  value: z.number().nullable().describe('Null when masked or not numeric; see value_raw.'),
  value_raw: z.string().nullable(),
  source: z.string(),
  source_url: z.string(),
});
