// OpenAI framing of a worker's answer, as RunPod's vLLM worker serves it: a text becomes a chat.completion /
// text_completion object, or, with `stream: true`, Server-Sent Events of chunks, a final chunk with
// finish_reason, a usage chunk when stream_options.include_usage, then `data: [DONE]`. An answer already in
// OpenAI's shape (an object with `object`) passes unchanged.
import { randomBytes } from 'node:crypto';
import { usageOf } from './tokens.js';

export type OpenAiRoute = 'chat' | 'completions';

export interface FrameFaults {
  /** Fault openai-stream-no-done: the stream ends without `data: [DONE]`. */
  noDone: boolean;
  /** Fault openai-usage-zeroed: every usage count is 0. */
  usageZeroed: boolean;
}

export class OpenAiFrame {
  readonly id: string;
  private readonly model: string;
  private text = '';
  private started = false;

  constructor(
    readonly route: OpenAiRoute,
    private readonly request: Record<string, unknown>,
    private readonly created: number,
    private readonly faults: FrameFaults,
  ) {
    this.id = `${route === 'chat' ? 'chatcmpl' : 'cmpl'}-${randomBytes(12).toString('hex')}`;
    this.model = typeof request['model'] === 'string' ? request['model'] : 'mock-model';
  }

  /** The whole answer (no stream). */
  completion(text: string): Record<string, unknown> {
    const usage = usageOf(this.request, text, this.faults.usageZeroed);
    const choice = this.route === 'chat'
      ? { index: 0, message: { role: 'assistant', content: text }, logprobs: null, finish_reason: 'stop' }
      : { index: 0, text, logprobs: null, finish_reason: 'stop' };
    return { id: this.id, object: this.route === 'chat' ? 'chat.completion' : 'text_completion', created: this.created, model: this.model, choices: [choice], usage };
  }

  /** SSE events for one piece of text (the first chat chunk also names the role). */
  delta(piece: string): string {
    this.text += piece;
    if (this.route === 'completions') return event(this.chunk({ index: 0, text: piece, logprobs: null, finish_reason: null }));
    const delta = this.started ? { content: piece } : { role: 'assistant', content: piece };
    this.started = true;
    return event(this.chunk({ index: 0, delta, logprobs: null, finish_reason: null }));
  }

  /** A chunk the worker produced in OpenAI's shape: passed through as its own event. */
  raw(value: unknown): string {
    return event(value);
  }

  /** The final chunk with finish_reason, the usage chunk when asked for, and `[DONE]`. */
  end(finishReason: 'stop' | 'length' = 'stop'): string {
    let out = this.route === 'chat'
      ? event(this.chunk({ index: 0, delta: {}, logprobs: null, finish_reason: finishReason }))
      : event(this.chunk({ index: 0, text: '', logprobs: null, finish_reason: finishReason }));
    const options = this.request['stream_options'];
    if (typeof options === 'object' && options !== null && (options as Record<string, unknown>)['include_usage'] === true) {
      out += event({ ...this.chunk(undefined), choices: [], usage: usageOf(this.request, this.text, this.faults.usageZeroed) });
    }
    return out + (this.faults.noDone ? '' : 'data: [DONE]\n\n');
  }

  /** An error after the stream began: one error event, then `[DONE]` (vLLM's behaviour). */
  error(message: string): string {
    return event({ error: { message, type: 'InternalServerError', code: 500 } }) + (this.faults.noDone ? '' : 'data: [DONE]\n\n');
  }

  private chunk(choice: unknown): Record<string, unknown> {
    const object = this.route === 'chat' ? 'chat.completion.chunk' : 'text_completion';
    return { id: this.id, object, created: this.created, model: this.model, choices: choice === undefined ? [] : [choice] };
  }
}

function event(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

/** Text split into stream pieces: one word with its following spaces each. */
export function pieces(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text === '' ? [] : [text]);
}

/** The text of a worker answer: a string, or the content of an OpenAI-shaped completion. */
export function textOf(output: unknown): string | undefined {
  if (typeof output === 'string') return output;
  if (typeof output === 'object' && output !== null && !Array.isArray(output)) {
    const o = output as Record<string, unknown>;
    if (typeof o['text'] === 'string' && o['object'] === undefined) return o['text'];
  }
  return undefined;
}
