// Judges the Server-Sent Events of a REST v2 stream against the event schema its operation names
// (x-sse-data: the component schema of each event's `data:`, whose `ts` is the event's `id:`). A block
// without data may only carry `retry:` (a whole number of ms). Only whole blocks are judged.
import { validateSchema } from '../validation/index.js';

export interface SseBlock {
  fields: Record<string, string>;
  /** Field names in the order they came (a repeated `data:` joins with a line break, as EventSource does). */
  names: string[];
}

/** Splits SSE text into blocks of fields (comments dropped); at most `max` blocks. */
export function parseSseBlocks(text: string, max = 1000): SseBlock[] {
  const blocks: SseBlock[] = [];
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n\n')) {
    if (blocks.length >= max) break;
    const lines = raw.split('\n').filter((l) => l !== '' && !l.startsWith(':'));
    if (lines.length === 0) continue;
    const block: SseBlock = { fields: {}, names: [] };
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      block.fields[name] = name in block.fields && name === 'data' ? `${block.fields[name]}\n${value}` : value;
      block.names.push(name);
    }
    blocks.push(block);
  }
  return blocks;
}

/** What the events break of the declared event schema (empty when they agree); at most `max` problems. */
export function eventStreamProblems(text: string, dataSchema: string, max = 3): string[] {
  const problems: string[] = [];
  for (const [i, block] of parseSseBlocks(text).entries()) {
    if (problems.length >= max) break;
    const at = `event ${i}`;
    const unknown = block.names.filter((n) => !['id', 'data', 'retry', 'event'].includes(n));
    if (unknown.length) problems.push(`${at}: unknown field(s) ${unknown.join(', ')}`);
    if (!('data' in block.fields)) {
      if (!/^\d+$/.test(block.fields['retry'] ?? '')) problems.push(`${at}: a block without data must carry retry: in whole ms (got ${JSON.stringify(block.fields).slice(0, 120)})`);
      continue;
    }
    let data: unknown;
    try {
      data = JSON.parse(block.fields['data']!);
    } catch {
      problems.push(`${at}: data is not JSON: ${block.fields['data']!.slice(0, 80)}`);
      continue;
    }
    const issues = validateSchema('restV2', dataSchema, data);
    if (issues.length) problems.push(`${at}: data does not match ${dataSchema}: ${issues.slice(0, 3).map((x) => `${x.path || '/'} ${x.message}`).join('; ')}`);
    const ts = (data as { ts?: unknown } | null)?.ts;
    if (block.fields['id'] !== ts) problems.push(`${at}: id ${JSON.stringify(block.fields['id'])} is not the data's ts ${JSON.stringify(ts)}`);
  }
  return problems;
}
