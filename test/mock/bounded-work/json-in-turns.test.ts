// JSON written, parsed and copied a slice per turn (src/mock/json-in-turns.ts) is exactly JSON.stringify /
// JSON.parse, and a value too large for one turn really takes several (turns counted, not timed).
import { describe, expect, it } from 'vitest';
import { cloneJsonInTurns, JSON_CHARS_PER_TURN, JSON_NODES_PER_TURN, parseJsonInTurns, writeJsonInTurns } from '../../../src/mock/json-in-turns.js';
import { turnsTaken } from '../../../src/mock/turns.js';

async function written(value: unknown): Promise<{ text: string; turns: number }> {
  const before = turnsTaken();
  let text = '';
  await writeJsonInTurns(value, (piece) => (text += piece), {});
  return { text, turns: turnsTaken() - before };
}

const tricky = { s: 'quote " backslash \\ brackets [{]} comma , colon :', u: '\u2028\ud83d\ude00', n: null, f: 1.5e-7, neg: -0, t: true };
const large: Record<string, unknown> = {
  numbers: Array.from({ length: 3 * JSON_NODES_PER_TURN }, (_, i) => i % 7),
  records: Array.from({ length: 5_000 }, (_, i) => ({ id: `r${i}`, ...tricky, nested: [i, { deep: [i] }] })),
  sparse: [1, undefined, () => 2, 3],
  skipped: undefined,
  date: new Date(0),
  big: 'x'.repeat(JSON_CHARS_PER_TURN * 2),
  ['__proto__']: { polluted: true },
};
Object.defineProperty(large, '__proto__', { value: { own: 'property' }, enumerable: true });

describe('bounded work: JSON a slice per turn', () => {
  it('writes what JSON.stringify writes, over several turns when large', async () => {
    const small = await written(tricky);
    expect(small).toEqual({ text: JSON.stringify(tricky), turns: 0 });
    const big = await written(large);
    expect(big.text).toBe(JSON.stringify(large));
    expect(big.turns).toBeGreaterThanOrEqual(4);
  });

  it('parses what JSON.parse parses, over several turns when long', async () => {
    const text = JSON.stringify(large);
    const before = turnsTaken();
    const parsed = await parseJsonInTurns(text, {});
    expect(turnsTaken() - before).toBeGreaterThanOrEqual(4);
    expect(parsed).toEqual(JSON.parse(text));
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value).toEqual({ own: 'property' });
    const indented = JSON.stringify({ list: large['records'], empty: [], none: {} }, null, 2);
    expect(await parseJsonInTurns(indented, {})).toEqual(JSON.parse(indented));
  });

  it('parses long strings with escapes anywhere, across scan slices, as JSON.parse does', async () => {
    // Plain runs of every length around the scanner's native jump (32 characters), escapes right after a jump,
    // and one string longer than a scan slice, so string state carries over a turn.
    const pieces: string[] = [];
    for (let run = 0; run < 80; run++) pieces.push('p'.repeat(run), run % 2 ? '"' : '\\', '\\"', ']},:[{');
    const escaped = pieces.join('');
    const members = [escaped, `${'y'.repeat(5 * JSON_CHARS_PER_TURN)}"\\${escaped}`, { [escaped]: [escaped, 'z'.repeat(JSON_CHARS_PER_TURN)] }, 'tail'];
    const text = JSON.stringify(members);
    expect(await parseJsonInTurns(text, {})).toEqual(members);
    await expect(parseJsonInTurns(text.slice(0, 3 * JSON_CHARS_PER_TURN), {})).rejects.toThrow(SyntaxError);
  });

  it('refuses long malformed JSON with a SyntaxError, as JSON.parse does', async () => {
    const items = `${'1,'.repeat(JSON_CHARS_PER_TURN)}1`;
    for (const bad of [`[${items},]`, `[${items}`, `[${items}}`, `[${items}] x`, `{"a":[${items}],}`, `{"a" [${items}]}`, `[${items},{"a":1]`, `[${items},,1]`, `[,${items}]`, `{,"a":[${items}]}`]) {
      expect(() => JSON.parse(bad)).toThrow(SyntaxError);
      await expect(parseJsonInTurns(bad, {})).rejects.toThrow(SyntaxError);
    }
  });

  it('clones a large parsed value deeply in several turns, and refuses to write a large cyclic one', async () => {
    const parsed = JSON.parse(JSON.stringify(large)) as Record<string, unknown>;
    const before = turnsTaken();
    const copy = await cloneJsonInTurns(parsed, {});
    expect(turnsTaken() - before).toBeGreaterThanOrEqual(4);
    expect(copy).toEqual(parsed);
    expect(copy['records']).not.toBe(parsed['records']);
    expect((copy['records'] as unknown[])[0]).not.toBe((parsed['records'] as unknown[])[0]);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ own: 'property' });
    const cyclic: Record<string, unknown> = { numbers: large['numbers'] };
    cyclic['self'] = cyclic;
    await expect(written(cyclic)).rejects.toThrow(TypeError);
  });
});
