import { ITEMS_8K } from '../../sources/edgar/archive/items.ts';
import { type ArchiveDocument, acc18, cikNumber, escapeHtml, type SampleArchiveFiling } from './filing.ts';

/**
 * The filing index page (`{accession}-index.htm`) in the markup the regulator serves: the `formName`/`secNum`
 * header, `infoHead`/`info` pairs (dates, 8-K items), a `tableFile` of documents (Seq, Description, Document, Type,
 * Size) ending with the complete submission text file, and one `companyName` per party. This is the markup
 * ingest/sources/edgar/archive/filing-index.ts reads (docs/formats/01-edgar-indexes.md).
 */
export function filingIndexPage(f: SampleArchiveFiling, docs: ArchiveDocument[], submissionBytes: number): string {
  const folder = `/Archives/edgar/data/${cikNumber(f.ciks[0]!)}/${acc18(f.accession)}`;
  const info = [
    ['Filing Date', f.filedDate],
    ['Accepted', f.accepted ?? ''],
    ['Documents', String(docs.length)],
    ...(f.reportDate ? [['Period of Report', f.reportDate]] : []),
  ];
  const items = f.items.map((i) => `Item ${i}: ${escapeHtml(ITEMS_8K[i] ?? 'Other Events')}<br />`).join('');
  const rows: string[] = [];
  for (const d of docs) {
    const size = Buffer.byteLength(d.body);
    if (d.xslRendering) {
      rows.push(row(String(d.sequence), d.description, `${folder}/xslF345X05/${d.fileName}`, d.fileName.replace(/\.xml$/, '.html'), d.type, size));
    }
    rows.push(row(String(d.sequence), d.description, `${folder}/${d.fileName}`, d.fileName, d.type, size));
  }
  rows.push(row('&nbsp;', 'Complete submission text file', `${folder}/${f.accession}.txt`, `${f.accession}.txt`, '&nbsp;', submissionBytes));
  const parties = f.ciks.map((cik) => {
    const isOwner = f.owner?.cik === cik;
    const name = isOwner ? f.owner!.name : f.company;
    const role = f.owner ? (isOwner ? 'Reporting' : 'Issuer') : 'Filer';
    return [
      '<div class="companyInfo">',
      `<span class="companyName">${escapeHtml(name)} (${role})`,
      '<acronym title="Central Index Key">CIK</acronym>: ',
      `<a href="/cgi-bin/browse-edgar?CIK=${cik}&amp;action=getcompany">${cik} (see all company filings)</a></span>`,
      '</div>',
    ].join('\n');
  });
  return `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8" />
<title>EDGAR Filing Documents for ${f.accession}</title>
</head>
<body style="margin: 0; font-size: 16px; ">
<div id="contentDiv">
<div class="formDiv">
<div id="formHeader">
<div id="formName">
<strong>Form ${escapeHtml(f.form)}</strong> - ${formTitle(f.form)}:
</div>
<div id="secNum">
<strong><acronym title="Securities and Exchange Commission">SEC</acronym> Accession <acronym title="Number">No.</acronym></strong> ${f.accession}
</div>
</div>
<div class="formContent">
<div class="formGrouping">
${info.map(([k, v]) => `<div class="infoHead">${k}</div>\n<div class="info">${escapeHtml(v!)}</div>`).join('\n')}
</div>
${items ? `<div class="formGrouping">\n<div class="infoHead">Items</div>\n<div class="info">${items}</div>\n</div>` : ''}
<div style="clear:both"></div>
</div>
</div>
<div class="formDiv">
<div>
<p>Document Format Files</p>
<table class="tableFile" summary="Document Format Files">
<tr>
<th scope="col"><acronym title="Sequence Number">Seq</acronym></th>
<th scope="col">Description</th>
<th scope="col">Document</th>
<th scope="col">Type</th>
<th scope="col">Size</th>
</tr>
${rows.join('\n')}
</table>
</div>
</div>
<div class="filerDiv">
${parties.join('\n')}
</div>
</div>
</body>
</html>
`;
}

function formTitle(form: string): string {
  if (form.startsWith('8-K')) return 'Current report';
  if (form.startsWith('10-K')) return 'Annual report';
  return 'Statement of changes in beneficial ownership of securities';
}

function row(seq: string, description: string, href: string, text: string, type: string, size: number): string {
  return [
    '<tr>',
    `<td scope="row">${seq}</td>`,
    `<td scope="row">${escapeHtml(description)}</td>`,
    `<td scope="row"><a href="${href}">${escapeHtml(text)}</a></td>`,
    `<td scope="row">${type === '&nbsp;' ? type : escapeHtml(type)}</td>`,
    `<td scope="row">${size}</td>`,
    '</tr>',
  ].join('\n');
}
