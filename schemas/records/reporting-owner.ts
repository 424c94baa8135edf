import { z } from 'zod';

/** A Form 3/4/5 reporting owner, as `/v1/insider` and `/v1/filings/{accession}/insiders` both return it. */
export const OwnerRecord = z.object({
  cik: z.string().nullable(),
  name: z.string().nullable(),
  relationships: z.array(z.string()).describe('Director, Officer, TenPercentOwner, Other.'),
  officer_title: z.string().nullable(),
  other_text: z.string().nullable(),
});
