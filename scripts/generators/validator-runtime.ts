// The runtime the generated validators share instead of Ajv's own helper for string lengths: written to
// generated/validators/runtime.js by `npm run generate`, imported by each surface's validator modules.
// JSON Schema counts a string's length in Unicode code points. Ajv's helper walks every UTF-16 unit; this one
// finds the first high surrogate with the regular-expression engine (native, and immediate on a one-byte
// string) and walks only from there: a 1 MiB ASCII value is ~2 µs instead of ~6 ms, with the same count
// for every string (lone surrogates count one each, as in Ajv's; test/validation/code-point-length.test.ts).

/** The name the validator modules call (replacing Ajv's `ucs2length`). */
export const CODE_POINT_LENGTH = 'codePointLength';

/** Ajv's standalone reference to its helper, as it appears in the code it generates. */
export const AJV_UCS2LENGTH = 'require("ajv/dist/runtime/ucs2length").default';

export const validatorRuntimeModule = (): string => `// String lengths for the validators (scripts/generators/validator-runtime.ts says why they are not Ajv's).
const HIGH_SURROGATE = /[\\uD800-\\uDBFF]/;

/** A string's length in code points, as JSON Schema's minLength and maxLength count it. */
export function ${CODE_POINT_LENGTH}(text) {
  const first = text.search(HIGH_SURROGATE);
  if (first === -1) return text.length;
  const units = text.length;
  let length = first;
  let at = first;
  while (at < units) {
    length++;
    const unit = text.charCodeAt(at++);
    if (unit >= 0xd800 && unit <= 0xdbff && at < units && (text.charCodeAt(at) & 0xfc00) === 0xdc00) at++;
  }
  return length;
}
`;

export const validatorRuntimeDeclarations = (): string => `export declare function ${CODE_POINT_LENGTH}(text: string): number;\n`;

/** A validator module's code with Ajv's helper replaced by the shared runtime's (an import added where it is used). */
export function useValidatorRuntime(code: string): string {
  if (!code.includes(AJV_UCS2LENGTH)) return code;
  return `import { ${CODE_POINT_LENGTH} } from './runtime.js';\n${code.split(AJV_UCS2LENGTH).join(CODE_POINT_LENGTH)}`;
}
