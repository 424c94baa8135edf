import { z } from 'zod';
import { EntityRecord } from './entities.ts';

/**
 * `/v1/entities/{identifier}`: the directory's entity record with how sure the match is and the ticker and name
 * histories it was matched against.
 */
export const ResolvedEntityRecord = EntityRecord.extend({
  match_confidence: z
    .number()
    .describe('1.0 exact CIK/current ticker/current name; 0.95 ticker history or former name; 0.85 name without corporate suffixes; lower when ambiguous.'),
  ticker_history: z.array(
    z.object({
      ticker: z.string(),
      exchange: z.string().nullable(),
      valid_from: z.string(),
      valid_to: z.string().nullable().describe('Exclusive; null while listed.'),
    }),
  ),
  name_history: z.array(z.object({ name: z.string(), valid_from: z.string().nullable(), valid_to: z.string().nullable(), is_current: z.boolean() })),
});
