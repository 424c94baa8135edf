import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EFTS_HITS_FILE } from '../../sources/edgar/archive/local-archive.ts';
import { documentsOf } from './documents.ts';
import { eftsHitsOf } from './efts-hits.ts';
import { acc18, cikNumber, type SampleArchiveFiling } from './filing.ts';
import { filingIndexPage } from './index-page.ts';
import { submissionText } from './submission.ts';

/**
 * Writes a sample archive for `filings` under `root`, in the regulator's URL layout: for every CIK a filing is
 * listed under, `Archives/edgar/data/{cik}/{acc18}/` holds its index page, its documents and its complete submission
 * text file (the archive serves a filing under each party's CIK); `efts/hits.json` holds the full-text index's hits.
 * Replaces whatever `root` held.
 */
export async function writeSampleArchive(root: string, filings: SampleArchiveFiling[]): Promise<{ filings: number; files: number }> {
  await rm(root, { recursive: true, force: true });
  let files = 0;
  const hits = [];
  for (const f of filings) {
    const docs = documentsOf(f);
    const submission = submissionText(f, docs);
    const contents: [string, string][] = [
      ...docs.map((d): [string, string] => [d.fileName, d.body]),
      [`${f.accession}.txt`, submission],
      [`${f.accession}-index.htm`, filingIndexPage(f, docs, Buffer.byteLength(submission))],
    ];
    for (const cik of f.ciks) {
      const dir = join(root, 'Archives', 'edgar', 'data', cikNumber(cik), acc18(f.accession));
      await mkdir(dir, { recursive: true });
      for (const [name, body] of contents) await writeFile(join(dir, name), body);
      files += contents.length;
    }
    hits.push(...eftsHitsOf(f, docs));
  }
  await mkdir(join(root, 'efts'), { recursive: true });
  await writeFile(join(root, EFTS_HITS_FILE), JSON.stringify({ hits: { total: { value: hits.length, relation: 'eq' }, hits } }));
  return { filings: filings.length, files };
}
