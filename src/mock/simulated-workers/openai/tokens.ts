// Token counts for `usage`: an approximation, documented in docs/workers.md — no tokenizer ships with the mock.
// ceil(characters / 4) per text (OpenAI's rule of thumb for English), plus 4 tokens per chat message for
// its role and framing; an empty text is 0 tokens.

export const CHARS_PER_TOKEN = 4;
export const TOKENS_PER_MESSAGE = 4;

export function textTokens(text: string): number {
  return Math.ceil([...text].length / CHARS_PER_TOKEN);
}

/** Prompt tokens of a chat request (`messages`) or a completions request (`prompt`). */
export function promptTokens(request: Record<string, unknown>): number {
  const messages = request['messages'];
  if (Array.isArray(messages)) {
    let total = 0;
    for (const message of messages as { content?: unknown }[]) total += TOKENS_PER_MESSAGE + textTokens(contentOf(message?.content));
    return total;
  }
  const prompt = request['prompt'];
  if (Array.isArray(prompt)) return prompt.reduce((sum: number, p) => sum + textTokens(String(p)), 0);
  return typeof prompt === 'string' ? textTokens(prompt) : 0;
}

function contentOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : '')).join('');
  return '';
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export function usageOf(request: Record<string, unknown>, completion: string, zeroed: boolean): Usage {
  if (zeroed) return { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  const prompt = promptTokens(request);
  const completionTokens = textTokens(completion);
  return { prompt_tokens: prompt, completion_tokens: completionTokens, total_tokens: prompt + completionTokens };
}
