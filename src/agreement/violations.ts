// Single-point violations of a valid JSON value against its schema: each changes exactly one
// location (wrong type, one past a bound, broken pattern/format/enum, a required property removed,
// an unknown property added where additionalProperties is false) and names that location.
import { codePointLength, jsonTypeOf, pointerSegment, type JsonType, type Resolver, type Schema, typesOf } from './schema.js';

export type ViolationKind =
  | 'wrong-type' | 'not-integer' | 'below-minimum' | 'above-maximum' | 'too-short' | 'too-long' | 'pattern'
  | 'format' | 'enum' | 'missing-required' | 'unknown-property' | 'too-few-items' | 'too-many-items'
  | 'too-many-properties' | 'malformed-json' | 'missing-body';

export interface Violation {
  kind: ViolationKind;
  /** JSON Pointer of the violated location relative to the value's root ('' = the root). */
  pointer: string;
  /** Short human description (never contains a secret value). */
  detail: string;
  /** The mutated value (a copy; the input is not changed), made when first read. */
  readonly value: unknown;
}

/**
 * A violation whose mutated value is made when first read: a request picks one of its violations, and
 * making each one's copy (and a 16 MiB string past a secret's maxLength) for the others was wasted work.
 */
function violation(kind: ViolationKind, pointer: string, detail: string, make: () => unknown): Violation {
  let made: { value: unknown } | undefined;
  return {
    kind, pointer, detail,
    get value() {
      made ??= { value: make() };
      return made.value;
    },
  };
}

/** A replacement made only when the violation's value is read (see `violation`). */
class Deferred {
  constructor(readonly make: () => unknown) {}
}

type Path = (string | number)[];

export interface ViolationOptions {
  resolve: Resolver;
  /** The index-th of distinct valid values of a schema, for growing arrays and maps past their maximum. */
  sample: (schema: Schema, index: number) => unknown;
  /** Values are strings on the wire (query and path parameters): only violations a string can carry. */
  asString?: boolean;
}

export function findViolations(value: unknown, schema: Schema, options: ViolationOptions): Violation[] {
  const out: Violation[] = [];
  walk(value, schema, [], value, options, out);
  return out;
}

function walk(node: unknown, raw: Schema, path: Path, root: unknown, o: ViolationOptions, out: Violation[]): void {
  const s = o.resolve(raw);
  const pointer = path.map(pointerSegment).map((p) => `/${p}`).join('');
  const add = (kind: ViolationKind, detail: string, replacement: unknown) =>
    out.push(violation(kind, pointer, detail, () => setAt(root, path, replacement instanceof Deferred ? replacement.make() : replacement)));
  const types = typesOf(s);
  // A single-point violation of a union is not well defined, except for anyOf/oneOf over `required` lists
  // (image or templateId; exactly one of templateId and imageName): the object's own properties are
  // broken as usual, none of those removed.
  const union = s.oneOf ?? s.anyOf;
  if (union && !requiredAlternativesOnly(union.map(o.resolve), s)) return;
  const wrong = wrongTypeValue(types, o.asString === true);
  if (wrong !== undefined) add('wrong-type', `${describeType(types)} replaced by ${jsonTypeOf(wrong.value)}`, wrong.value);
  if (s.const !== undefined) return;
  if (s.enum) {
    const allowed = (c: unknown) => types.includes(jsonTypeOf(c)) || (jsonTypeOf(c) === 'integer' && types.includes('number'));
    const outside = ['not-in-enum', 'NOT_IN_ENUM', -7, false].find((c) => !s.enum!.includes(c) && allowed(c));
    if (outside !== undefined) add('enum', 'value outside the enum', outside);
    return;
  }
  const t = node === null ? 'null' : jsonTypeOf(node);
  if (t === 'integer' || t === 'number') numberViolations(node as number, s, types, add);
  else if (t === 'string') stringViolations(node as string, s, add);
  else if (t === 'array') arrayViolations(node as unknown[], s, path, root, o, out, add);
  else if (t === 'object') objectViolations(node as Record<string, unknown>, s, path, root, o, out, add);
}

function wrongTypeValue(types: JsonType[], asString: boolean): { value: unknown } | undefined {
  if (types.length === 0) return undefined;
  const allows = (t: JsonType) => types.includes(t) || (t === 'integer' && types.includes('number'));
  if (asString) {
    // On the wire everything is a string: only a string that cannot be read as the declared type counts.
    // A single value is a one-item array on the wire (explode form), so arrays have no wrong type either.
    if (allows('string') || allows('array')) return undefined;
    return { value: 'not-a-value' };
  }
  const candidates: unknown[] = ['not-a-value', 7, true, [], {}];
  const found = candidates.find((c) => !allows(jsonTypeOf(c)) && !(jsonTypeOf(c) === 'integer' && allows('number')));
  return found === undefined ? undefined : { value: found };
}

function describeType(types: JsonType[]): string {
  return types.join('|');
}

type Add = (kind: ViolationKind, detail: string, replacement: unknown) => void;

function numberViolations(_n: number, s: Schema, types: JsonType[], add: Add): void {
  if (s.minimum !== undefined) add('below-minimum', `minimum ${s.minimum} − 1`, s.minimum - 1);
  else if (s.exclusiveMinimum !== undefined) add('below-minimum', `exclusiveMinimum ${s.exclusiveMinimum}`, s.exclusiveMinimum);
  if (s.maximum !== undefined) add('above-maximum', `maximum ${s.maximum} + 1`, s.maximum + 1);
  else if (s.exclusiveMaximum !== undefined) add('above-maximum', `exclusiveMaximum ${s.exclusiveMaximum}`, s.exclusiveMaximum);
  if (types.includes('integer') && !types.includes('number')) {
    const base = s.minimum ?? s.exclusiveMinimum ?? 0;
    const half = Math.min(Math.max(base + 0.5, (s.minimum ?? -Infinity) + 0.5), (s.maximum ?? Infinity) - 0.5);
    if (Number.isFinite(half)) add('not-integer', 'a fraction where an integer is required', half);
  }
}

const PATTERN_BREAKERS = ['!', '~', ' ', 'x y', '#', '\u00e9', '0', 'a', '.', '-', '0.0/ftp'];
const FORMAT_BREAKERS: Record<string, string> = { uri: 'not a uri', 'date-time': 'yesterday', date: 'tomorrow', uuid: 'not-a-uuid', email: 'no-at-sign' };

function stringViolations(v: string, s: Schema, add: Add): void {
  const minLength = s.minLength ?? 0;
  const maxLength = s.maxLength;
  const fitsLength = (c: string) => codePointLength(c) >= minLength && (maxLength === undefined || codePointLength(c) <= maxLength);
  if (minLength > 0) add('too-short', `minLength ${minLength} − 1`, new Deferred(() => [...v].slice(0, minLength - 1).join('')));
  if (maxLength !== undefined) add('too-long', `maxLength ${maxLength} + 1`, new Deferred(() => grow(v, maxLength + 1, s.pattern)));
  if (s.pattern !== undefined) {
    const re = new RegExp(s.pattern, 'u');
    const breaker = PATTERN_BREAKERS.map((b) => pad(b, minLength)).find((c) => !re.test(c) && fitsLength(c));
    if (breaker !== undefined) add('pattern', `not matching ${s.pattern}`, breaker);
  }
  if (s.format !== undefined) {
    const broken = FORMAT_BREAKERS[s.format];
    if (broken !== undefined && fitsLength(broken)) add('format', `not a ${s.format}`, broken);
  }
}

/** A string of exactly `length` code points, keeping a pattern's alphabet when there is one. */
function grow(v: string, length: number, pattern?: string): string {
  const chars = [...v];
  const filler = pattern && /[A-Za-z]/.test(pattern) ? 'a' : chars[0] ?? 'a';
  return chars.length >= length ? chars.slice(0, length).join('') : v + filler.repeat(length - chars.length);
}

function pad(text: string, minLength: number): string {
  let out = text;
  while (codePointLength(out) < minLength) out += text.slice(-1) || 'x';
  return out;
}

function arrayViolations(items: unknown[], s: Schema, path: Path, root: unknown, o: ViolationOptions, out: Violation[], add: Add): void {
  if ((s.minItems ?? 0) > 0) add('too-few-items', `minItems ${s.minItems} − 1`, items.slice(0, s.minItems! - 1));
  if (s.maxItems !== undefined) {
    // Distinct fillers (a server may count distinct entries, e.g. env keys), the shortest for plain
    // strings, so the violation is the count alone (not, say, an oversized URL).
    const itemSchema = s.items ? o.resolve(s.items) : {};
    const plain = itemSchema.type === 'string' && !itemSchema.pattern && !itemSchema.format && !itemSchema.enum;
    const seen = new Set(items.map((item) => JSON.stringify(item)));
    const grown = [...items];
    for (let i = 0; grown.length <= s.maxItems && i < 4 * (s.maxItems + 2); i++) {
      const tag = i.toString(36);
      const filler = plain ? `${'a'.repeat(Math.max(0, (itemSchema.minLength ?? 0) - tag.length))}${tag}` : o.sample(itemSchema, i);
      if (seen.has(JSON.stringify(filler))) continue;
      seen.add(JSON.stringify(filler));
      grown.push(filler);
    }
    if (grown.length > s.maxItems) add('too-many-items', `maxItems ${s.maxItems} + 1`, grown.slice(0, s.maxItems + 1));
  }
  if (s.items) items.forEach((item, i) => walk(item, s.items!, [...path, i], root, o, out));
}

/** anyOf whose alternatives only require properties of the schema (restating them), nothing else to break. */
function requiredAlternativesOnly(alternatives: Schema[], parent: Schema): boolean {
  const inert = (k: string, v: unknown) => k === 'required' || k === 'description' || k.startsWith('x-')
    // Restated properties (Ajv strictRequired) the schema itself declares.
    || (k === 'properties' && Object.keys(v as object).every((p) => parent.properties?.[p] !== undefined));
  return alternatives.every((alt) => Object.entries(alt).every(([k, v]) => inert(k, v)));
}

function objectViolations(obj: Record<string, unknown>, s: Schema, path: Path, root: unknown, o: ViolationOptions, out: Violation[], add: Add): void {
  const pointer = path.map((p) => `/${pointerSegment(p)}`).join('');
  for (const key of s.required ?? []) {
    if (!(key in obj)) continue;
    out.push(violation('missing-required', `${pointer}/${pointerSegment(key)}`, `required property ${key} removed`, () => {
      const copy = { ...obj };
      delete copy[key];
      return setAt(root, path, copy);
    }));
  }
  const extra = s.additionalProperties;
  const declared = s.properties ?? {};
  if (extra === false) {
    const name = 'unexpectedProperty';
    out.push(violation('unknown-property', `${pointer}/${name}`, `unknown property ${name} added`, () => setAt(root, path, { ...obj, [name]: 1 })));
  }
  if (s.maxProperties !== undefined) {
    const max = s.maxProperties;
    // Made only when this violation is the one picked (maxProperties 256: 257 samples for each request otherwise).
    add('too-many-properties', `maxProperties ${max} + 1`, new Deferred(() => {
      const grown: Record<string, unknown> = { ...obj };
      const valueSchema = typeof extra === 'object' ? extra : {};
      // The key count kept as it grows (counting the keys anew at every step was quadratic in maxProperties 256).
      let keys = Object.keys(grown).length;
      for (let i = 0; keys <= max && i <= max + 1; i++) {
        const key = `extra${i}`;
        if (!Object.hasOwn(grown, key)) keys++;
        grown[key] = o.sample(valueSchema, i);
      }
      return grown;
    }));
  }
  for (const [key, child] of Object.entries(obj)) {
    const childSchema = declared[key] ?? (typeof extra === 'object' ? extra : undefined);
    if (childSchema) walk(child, childSchema, [...path, key], root, o, out);
  }
}

/** A deep copy of root with the node at path replaced. */
function setAt(root: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(root)) {
    const copy = [...root];
    copy[head as number] = setAt(root[head as number], rest, replacement);
    return copy;
  }
  const obj = root as Record<string, unknown>;
  return { ...obj, [head!]: setAt(obj[head as string], rest, replacement) };
}
