import { zipMembers } from './zip.ts';
import { streamXml } from '../iapd/xml.ts';

/**
 * Minimal XLSX reader (workbook → sheets → rows of cell text) on yauzl + htmlparser2, so no spreadsheet library
 * is needed for the regulator's small statistical workbooks. Cells keep their displayed text; numbers stay as
 * the stored decimal string (callers parse them).
 */
export interface SheetRows {
  name: string;
  /** rows[r][c] = cell text ('' when empty); r, c 0-based. */
  rows: string[][];
}

async function* once(b: Buffer): AsyncGenerator<Buffer> {
  yield b;
}

async function parseXml(buf: Buffer, h: Parameters<typeof streamXml>[2]): Promise<void> {
  for await (const _ of streamXml(once(buf), 'utf-8', h));
}

function colIndex(ref: string): number {
  const letters = ref.match(/^[A-Z]+/)?.[0] ?? 'A';
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

export async function readXlsx(path: string): Promise<SheetRows[]> {
  const files = new Map<string, Buffer>();
  for await (const m of zipMembers(path, (n) => /^xl\/(workbook\.xml|sharedStrings\.xml|_rels\/workbook\.xml\.rels|worksheets\/[^/]+\.xml)$/.test(n))) {
    files.set(m.name, await m.read());
  }
  const shared: string[] = [];
  const ss = files.get('xl/sharedStrings.xml');
  if (ss) {
    let cur: string | null = null;
    let inT = false;
    await parseXml(ss, {
      open(n) {
        if (n === 'si') cur = '';
        if (n === 't') inT = true;
      },
      text(t) {
        if (inT && cur !== null) cur += t;
      },
      close(n) {
        if (n === 't') inT = false;
        if (n === 'si') {
          shared.push(cur ?? '');
          cur = null;
        }
      },
    });
  }
  const rels = new Map<string, string>();
  const relsBuf = files.get('xl/_rels/workbook.xml.rels');
  if (relsBuf)
    await parseXml(relsBuf, {
      open(n, a) {
        if (n === 'Relationship') rels.set(a.Id, a.Target.replace(/^\/?xl\//, ''));
      },
      close() {},
    });
  const sheets: { name: string; target: string }[] = [];
  const wb = files.get('xl/workbook.xml');
  if (!wb) throw new Error(`${path}: not an XLSX workbook (no xl/workbook.xml)`);
  await parseXml(wb, {
    open(n, a) {
      if (n === 'sheet') sheets.push({ name: a.name, target: rels.get(a['r:id']) ?? `worksheets/sheet${sheets.length + 1}.xml` });
    },
    close() {},
  });

  const out: SheetRows[] = [];
  for (const s of sheets) {
    const buf = files.get(`xl/${s.target}`);
    if (!buf) continue;
    const rows: string[][] = [];
    let r = -1;
    let c = 0;
    let type = '';
    let text = '';
    let inValue = false;
    await parseXml(buf, {
      open(n, a) {
        if (n === 'row') {
          r = a.r ? Number(a.r) - 1 : r + 1;
          rows[r] = rows[r] ?? [];
          c = -1;
        } else if (n === 'c') {
          c = a.r ? colIndex(a.r) : c + 1;
          type = a.t ?? 'n';
          text = '';
        } else if (n === 'v' || n === 't') inValue = true;
      },
      text(t) {
        if (inValue) text += t;
      },
      close(n) {
        if (n === 'v' || n === 't') inValue = false;
        if (n === 'c' && r >= 0) rows[r][c] = type === 's' ? (shared[Number(text)] ?? '') : text;
      },
    });
    out.push({ name: s.name, rows: Array.from(rows, (row) => Array.from(row ?? [], (v) => v ?? '')) });
  }
  return out;
}

/** Writes a small XLSX (sample generators): inline strings, numeric cells as numbers. */
export function xlsxMembers(sheets: { name: string; rows: (string | number | null)[][] }[]): { name: string; data: Buffer }[] {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  const col = (i: number) => {
    let s = '';
    i++;
    while (i > 0) {
      const m = (i - 1) % 26;
      s = String.fromCharCode(65 + m) + s;
      i = Math.floor((i - 1) / 26);
    }
    return s;
  };
  const sheetOverrides = sheets
    .map(
      (_, i) =>
        `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
    )
    .join('');
  const sheetEntries = sheets.map((s, i) => `<sheet name="${esc(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
  const sheetRelationships = sheets
    .map(
      (_, i) =>
        `<Relationship Id="rId${i + 1}" ` +
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" ' +
        `Target="worksheets/sheet${i + 1}.xml"/>`,
    )
    .join('');
  const members = [
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
          '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/xl/workbook.xml" ' +
          'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
          `${sheetOverrides}</Types>`,
      ),
    },
    {
      name: '_rels/.rels',
      data: Buffer.from(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
          '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          '<Relationship Id="rId1" ' +
          'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" ' +
          'Target="xl/workbook.xml"/></Relationships>',
      ),
    },
    {
      name: 'xl/workbook.xml',
      data: Buffer.from(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
          '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
          'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
          `<sheets>${sheetEntries}</sheets></workbook>`,
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: Buffer.from(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
          '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          `${sheetRelationships}</Relationships>`,
      ),
    },
  ];
  sheets.forEach((s, i) => {
    const body = s.rows
      .map(
        (row, r) =>
          `<row r="${r + 1}">${row
            .map((v, c) => {
              if (v == null || v === '') return '';
              const ref = `${col(c)}${r + 1}`;
              return typeof v === 'number' ? `<c r="${ref}"><v>${v}</v></c>` : `<c r="${ref}" t="inlineStr"><is><t>${esc(v)}</t></is></c>`;
            })
            .join('')}</row>`,
      )
      .join('');
    members.push({
      name: `xl/worksheets/sheet${i + 1}.xml`,
      data: Buffer.from(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
          `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`,
      ),
    });
  });
  return members;
}
