// A rules report as a neutral document (headings, paragraphs, tables, lists) and its Markdown and HTML
// renderings: the conformance suite and the validating proxy write their reports in this one format.
export interface Table { head: string[]; rows: string[][] }
export type Block = { h: string } | { p: string } | { table: Table } | { list: string[] };

const mdCell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function toMarkdown(blocks: Block[]): string {
  const out: string[] = [];
  let first = true;
  for (const b of blocks) {
    if ('h' in b) out.push(`${first ? '#' : '##'} ${b.h}`, '');
    else if ('p' in b) out.push(b.p, '');
    else if ('list' in b) out.push(...b.list.map((l) => `- ${l}`), '');
    else {
      out.push(`| ${b.table.head.map(mdCell).join(' | ')} |`, `|${b.table.head.map(() => '---').join('|')}|`);
      for (const row of b.table.rows) out.push(`| ${row.map(mdCell).join(' | ')} |`);
      out.push('');
    }
    first = false;
  }
  return out.join('\n');
}

const h = (s: string) => s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
const inline = (s: string) => h(s).replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>').replace(/`([^`]+)`/g, '<code>$1</code>');

export function toHtml(blocks: Block[]): string {
  const body: string[] = [];
  let first = true;
  for (const b of blocks) {
    if ('h' in b) body.push(first ? `<h1>${h(b.h)}</h1>` : `<h2>${h(b.h)}</h2>`);
    else if ('p' in b) body.push(`<p>${inline(b.p)}</p>`);
    else if ('list' in b) body.push(`<ul>${b.list.map((l) => `<li>${inline(l)}</li>`).join('')}</ul>`);
    else {
      const rows = b.table.rows.map((r) => {
        const cls = r.some((c) => c.startsWith('**FAIL**')) ? ' class="fail"' : r.some((c) => c.startsWith('skipped')) ? ' class="skip"' : '';
        return `<tr${cls}>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`;
      });
      body.push(`<table><thead><tr>${b.table.head.map((c) => `<th>${h(c)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`);
    }
    first = false;
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>compute-contract conformance report</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse;margin:.5rem 0 1.5rem}
td,th{border:1px solid #ccc;padding:.25rem .5rem;vertical-align:top;text-align:left}th{background:#f3f3f3}
tr.fail td{background:#fde8e8}tr.skip td{color:#777}code{background:#f3f3f3;padding:0 .2rem}
</style></head><body>
${body.join('\n')}
</body></html>
`;
}
