// The answer memo (src/proxy/answer-memo.ts): an operation's answer byte-for-byte equal to its last one is
// not parsed or validated again, and judging it finds exactly what judging it afresh finds.
import { describe, expect, it } from 'vitest';
import { AnswerMemo, MEMO_MAX_ANSWERS, MEMO_MAX_BODY_BYTES } from '../../src/proxy/answer-memo.js';
import { emptyBody, type Exchange } from '../../src/proxy/exchange.js';
import { IdOwners } from '../../src/proxy/id-owners.js';
import { judgeExchange, type Judgement } from '../../src/proxy/judge.js';
import { SecretBook } from '../../src/proxy/secrets.js';

const KEY_A = 'answer-memo-key-aaaa';
const KEY_B = 'answer-memo-key-bbbb';
const JOB = { id: 'd1372356-878f-45ed-8b21-a91caf82fffd-u1', status: 'COMPLETED', delayTime: 0, executionTime: 1, output: { ok: true } };

function status(key: string, answer: unknown, jobId = JOB.id): Exchange {
  const bytes = Buffer.from(typeof answer === 'string' ? answer : JSON.stringify(answer));
  return {
    method: 'GET', url: `http://upstream.test/v2/ep0123456/status/${jobId}`, requestHeaders: { authorization: `Bearer ${key}` }, requestBody: emptyBody(),
    status: 200, responseHeaders: { 'content-type': 'application/json' }, responseBody: { bytes, totalBytes: bytes.length, recorded: true },
  };
}

/** Judges each exchange with and without a memo (fresh session state each): the judgements must agree. */
function judgeBoth(exchanges: Exchange[]): { memo: AnswerMemo; withMemo: Judgement[]; without: Judgement[] } {
  const memo = new AnswerMemo();
  const run = (answers?: AnswerMemo) => {
    const book = new SecretBook();
    const owners = new IdOwners();
    return exchanges.map((ex) => judgeExchange(ex, book, { owners, answers }));
  };
  return { memo, withMemo: run(memo), without: run() };
}

describe('answer memo', () => {
  it('a polled status answered with the same bytes is parsed and validated once, and judged the same every time', () => {
    const { memo, withMemo, without } = judgeBoth([status(KEY_A, JOB), status(KEY_A, JOB), status(KEY_A, JOB)]);
    expect(memo.hits).toBe(2);
    expect(withMemo).toEqual(without);
    expect(withMemo[2]!.checked).toContain('AGREE-VALID-001');
    expect(withMemo.flatMap((j) => j.violations)).toEqual([]);
  });
  it('AGREE-VALID-001 an answer that changes is judged afresh: a body turning invalid is still caught', () => {
    const { memo, withMemo, without } = judgeBoth([status(KEY_A, JOB), status(KEY_A, { ...JOB, status: 'DONE' }), status(KEY_A, JOB)]);
    expect(memo.hits).toBe(0);
    expect(withMemo).toEqual(without);
    expect(withMemo.map((j) => j.violations.map((v) => v.ruleId))).toEqual([[], ['AGREE-VALID-001'], []]);
  });
  it('ISOLATION-READ-001 the same bytes answered to another key are still flagged (the ids are reused, the owner check is not)', () => {
    const { memo, withMemo, without } = judgeBoth([status(KEY_A, JOB), status(KEY_B, JOB)]);
    expect(memo.hits).toBe(1);
    expect(withMemo).toEqual(without);
    expect(withMemo[1]!.violations.map((v) => v.ruleId)).toEqual(['ISOLATION-READ-001']);
  });
  it(`remembers at most ${MEMO_MAX_ANSWERS} operation-and-status answers of at most ${MEMO_MAX_BODY_BYTES} bytes each`, () => {
    const long = { ...JOB, output: { text: 'x'.repeat(MEMO_MAX_BODY_BYTES) } };
    const { memo, withMemo, without } = judgeBoth([status(KEY_A, long), status(KEY_A, long)]);
    expect(memo.size).toBe(0);
    expect(memo.hits).toBe(0);
    expect(withMemo).toEqual(without);
    const many = new AnswerMemo();
    const parse = () => ({ ok: true as const, value: 1 });
    for (let i = 0; i <= MEMO_MAX_ANSWERS; i++) many.answerOf(`op${i}`, { bytes: Buffer.from('1'), totalBytes: 1, recorded: true }, parse);
    expect(many.size).toBe(MEMO_MAX_ANSWERS);
  });
});
