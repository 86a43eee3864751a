// String length as JSON Schema's minLength/maxLength (and Ajv) count it: Unicode code points, so a
// surrogate pair is one character. Shared by the mock's input bounds and the agreement generator.
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
