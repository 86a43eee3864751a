// Large JSON values the mock already wrote out a slice per turn (a job's input at submission, a worker's
// large output), kept as text by identity while the value lives. With --state the journal writes a job's
// record from these texts instead of serialising millions of values again in one event-loop turn.
// The values are never changed after they are remembered (a job's input and output are fixed once set).
import { randomUUID } from 'node:crypto';

const texts = new WeakMap<object, string>();

export function rememberJsonText(value: unknown, text: string): void {
  if (value !== null && typeof value === 'object') texts.set(value, text);
}

/** Whether one of the object's own fields is a remembered value (cheap: the fields, not the tree). */
function holdsRemembered(value: object): boolean {
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key];
    if (field !== null && typeof field === 'object' && texts.has(field)) return true;
  }
  return false;
}

/** `JSON.stringify(value)`, with every remembered value inside it copied from its text. */
export function jsonWithRememberedTexts(value: unknown): string {
  if (value === null || typeof value !== 'object' || !holdsRemembered(value)) return JSON.stringify(value);
  const marker = randomUUID();
  const parts: string[] = [];
  const json = JSON.stringify(value, (_key, field: unknown) => {
    const text = field !== null && typeof field === 'object' ? texts.get(field) : undefined;
    if (text === undefined) return field;
    parts.push(text);
    return `${marker}${parts.length - 1}`;
  });
  return json.replace(new RegExp(`"${marker}(\\d+)"`, 'g'), (_match, index: string) => parts[Number(index)]!);
}
