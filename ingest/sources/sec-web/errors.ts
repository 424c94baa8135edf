/**
 * A page or feed that yields nothing usable. Thrown (never counted as a bad row) so the ingest fails loudly
 * with the URL: a silently empty run would look like "no new releases" when the site layout changed.
 */
export class UnparsablePageError extends Error {
  constructor(
    readonly url: string,
    reason: string,
  ) {
    super(`cannot parse ${url}: ${reason}`);
    this.name = 'UnparsablePageError';
  }
}
