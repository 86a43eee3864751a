// How a refused set-up call is told in a failure message: the status and the answer's own words.
import type { Answer } from '../http.js';

export function describeAnswer(answer: Answer): string {
  const body = answer.body as { message?: unknown; detail?: unknown; errors?: unknown } | undefined;
  const words = typeof body?.detail === 'string' ? body.detail : typeof body?.message === 'string' ? body.message : undefined;
  const text = words ?? (answer.text ? answer.text : '');
  return `${answer.status}${text ? ` (${text.slice(0, 160)})` : ''}`;
}
