// JSON Schema (the subset of ./schema.ts) → fast-check arbitrary of VALID values. Declared bounds
// are honoured exactly and their end points are generated on purpose (that is where bugs live);
// where a schema declares no bound, sizes stay modest so a run cannot exhaust the target.
import fc from 'fast-check';
import { type JsonType, type Resolver, type Schema, typesOf } from './schema.js';

/** Span of generated integers on a side the schema leaves unbounded. */
export const UNBOUNDED_SPAN = 1000;
/** Extra length beyond minLength/minItems for ordinary samples (the declared maximum is generated too). */
const SMALL_EXTRA = 12;
/** Strings and arrays up to this maximum are also generated at exactly their maximum length. */
const MAX_EXACT_LENGTH = 4096;
const MAX_EXACT_ITEMS = 256;
const MAX_DEPTH = 8;

export interface ArbitraryOptions {
  resolve: Resolver;
  /**
   * Replaces the arbitrary of a named object property (references to existing resources, unique names);
   * `at` is the property's place in the value, e.g. `gpu.id` or `mounts.network[].volumeId`.
   */
  override?: (name: string, schema: Schema, base: fc.Arbitrary<unknown>, at: string) => fc.Arbitrary<unknown> | undefined;
  /** Keys never generated in free-form objects (e.g. `mock`, which steers the conformance worker). */
  reservedKeys?: readonly string[];
}

/** One code point per unit (JSON Schema counts code points): mostly printable ASCII, some of the rest of Unicode. */
const codePoint: fc.Arbitrary<string> = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCodePoint(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCodePoint(c)) },
  {
    weight: 2,
    arbitrary: fc.integer({ min: 0x80, max: 0x10ffff - 0x800 }).map((c) => String.fromCodePoint(c >= 0xd800 ? c + 0x800 : c)),
  },
);

export function schemaArbitrary(schema: Schema, options: ArbitraryOptions): fc.Arbitrary<unknown> {
  return arb(schema, options, 0, '');
}

function arb(raw: Schema, o: ArbitraryOptions, depth: number, at: string): fc.Arbitrary<unknown> {
  if (depth > MAX_DEPTH) throw new Error('schema nesting deeper than the generator allows');
  const s = o.resolve(raw);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.oneOf ?? s.anyOf;
  if (alternatives) {
    const { oneOf: _a, anyOf: _b, ...rest } = s;
    // An alternative adds to what the schema states (anyOf over `required` lists: the union of both).
    return fc.oneof(...alternatives.map((alt) => {
      const a = o.resolve(alt);
      const required = [...new Set([...(rest.required ?? []), ...(a.required ?? [])])];
      // An alternative's properties narrow the schema's own (templateId given means a string, not null);
      // a `false` one is excluded by that alternative (oneOf templateId | imageName: never both).
      const excluded = new Set(Object.entries(a.properties ?? {}).filter(([, p]) => (p as unknown) === false).map(([k]) => k));
      const own = Object.entries(a.properties ?? {}).filter(([k]) => !excluded.has(k))
        .map(([k, p]) => [k, rest.properties?.[k] ? { ...o.resolve(rest.properties[k]!), ...o.resolve(p) } : p] as const);
      const kept = Object.entries(rest.properties ?? {}).filter(([k]) => !excluded.has(k));
      const properties = kept.length || own.length ? { ...Object.fromEntries(kept), ...Object.fromEntries(own) } : undefined;
      return arb({ ...rest, ...a, ...(required.length ? { required } : {}), ...(properties ? { properties } : {}) }, o, depth + 1, at);
    }));
  }
  const types = typesOf(s);
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  if (types.length > 1) return fc.oneof(...types.map((t) => ofType(t, s, o, depth, at)));
  return ofType(types[0]!, s, o, depth, at);
}

function ofType(type: JsonType, s: Schema, o: ArbitraryOptions, depth: number, at: string): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerArbitrary(s);
    case 'number':
      return numberArbitrary(s);
    case 'string':
      return stringArbitrary(s);
    case 'array':
      return arrayArbitrary(s, o, depth, at);
    case 'object':
      return objectArbitrary(s, o, depth, at);
  }
}

/** The integer range a schema allows, made finite (modest) where it is open. */
export function integerRange(s: Schema): { min: number; max: number } {
  let min = s.minimum !== undefined ? Math.ceil(s.minimum) : s.exclusiveMinimum !== undefined ? Math.floor(s.exclusiveMinimum) + 1 : undefined;
  let max = s.maximum !== undefined ? Math.floor(s.maximum) : s.exclusiveMaximum !== undefined ? Math.ceil(s.exclusiveMaximum) - 1 : undefined;
  if (min === undefined && max === undefined) [min, max] = [-UNBOUNDED_SPAN, UNBOUNDED_SPAN];
  else if (min === undefined) min = max! - 2 * UNBOUNDED_SPAN;
  else if (max === undefined) max = min + 2 * UNBOUNDED_SPAN;
  return { min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max!, Number.MAX_SAFE_INTEGER) };
}

function integerArbitrary(s: Schema): fc.Arbitrary<number> {
  const { min, max } = integerRange(s);
  return fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min, max }) },
    { weight: 1, arbitrary: fc.constant(min) },
    { weight: 1, arbitrary: fc.constant(max) },
  );
}

function numberArbitrary(s: Schema): fc.Arbitrary<number> {
  const { min, max } = integerRange(s);
  const lo = s.minimum ?? s.exclusiveMinimum ?? min;
  const hi = s.maximum ?? s.exclusiveMaximum ?? max;
  const double = fc.double({
    min: lo, max: hi, noNaN: true, noDefaultInfinity: true,
    minExcluded: s.minimum === undefined && s.exclusiveMinimum !== undefined,
    maxExcluded: s.maximum === undefined && s.exclusiveMaximum !== undefined,
  });
  return fc.oneof({ weight: 1, arbitrary: integerArbitrary(s) }, { weight: 1, arbitrary: double });
}

const FORMATS: Record<string, () => fc.Arbitrary<string>> = {
  // Built by hand: fc.webUrl() costs about a second to construct (percent-encoding tables).
  uri: () => {
    const word = fc.array(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), { minLength: 1, maxLength: 10 }).map((cs) => cs.join(''));
    return fc.tuple(fc.constantFrom('https', 'http'), word, fc.constantFrom('example.com', 'example.org', 'test'), fc.array(word, { maxLength: 3 }))
      .map(([scheme, host, domain, path]) => `${scheme}://${host}.${domain}/${path.join('/')}`);
  },
  'date-time': () => fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  date: () => fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  uuid: () => fc.uuid(),
  email: () => fc.emailAddress(),
};

/** Building a string arbitrary is costly (fast-check precomputes slices and regex trees): built once per shape. */
const stringCache = new Map<string, fc.Arbitrary<string>>();

function stringArbitrary(s: Schema): fc.Arbitrary<string> {
  const key = JSON.stringify([s.minLength, s.maxLength, s.pattern, s.format]);
  let cached = stringCache.get(key);
  if (!cached) stringCache.set(key, (cached = buildStringArbitrary(s)));
  return cached;
}

function buildStringArbitrary(s: Schema): fc.Arbitrary<string> {
  const minLength = s.minLength ?? 0;
  const maxLength = s.maxLength ?? Infinity;
  const fits = (v: string) => {
    const n = [...v].length;
    return n >= minLength && n <= maxLength;
  };
  if (s.format !== undefined) {
    const format = FORMATS[s.format];
    if (!format) throw new Error(`string format "${s.format}" is not supported by the generator`);
    return format().filter((v) => fits(v) && (s.pattern === undefined || new RegExp(s.pattern, 'u').test(v)));
  }
  if (s.pattern !== undefined) {
    return fc.stringMatching(new RegExp(s.pattern)).filter(fits);
  }
  const ordinary = fc.string({ unit: codePoint, minLength, maxLength: Math.min(maxLength, minLength + SMALL_EXTRA) });
  if (maxLength > MAX_EXACT_LENGTH || maxLength === minLength) return ordinary;
  return fc.oneof({ weight: 9, arbitrary: ordinary }, { weight: 1, arbitrary: fc.string({ unit: codePoint, minLength: maxLength, maxLength }) });
}

function arrayArbitrary(s: Schema, o: ArbitraryOptions, depth: number, at: string): fc.Arbitrary<unknown[]> {
  const items = s.items ? arb(s.items, o, depth + 1, `${at}[]`) : fc.jsonValue({ maxDepth: 1 });
  const minLength = s.minItems ?? 0;
  const maxLength = s.maxItems ?? Infinity;
  const make = (lo: number, hi: number) =>
    s.uniqueItems ? fc.uniqueArray(items, { minLength: lo, maxLength: hi, selector: (v) => JSON.stringify(v) }) : fc.array(items, { minLength: lo, maxLength: hi });
  const ordinary = make(minLength, Math.min(maxLength, minLength + 4));
  if (maxLength > MAX_EXACT_ITEMS || maxLength === minLength) return ordinary;
  return fc.oneof({ weight: 9, arbitrary: ordinary }, { weight: 1, arbitrary: make(maxLength, maxLength) });
}

function objectArbitrary(s: Schema, o: ArbitraryOptions, depth: number, at: string): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, raw] of Object.entries(s.properties ?? {})) {
    const prop = o.resolve(raw);
    if (prop.readOnly) continue;
    const where = at ? `${at}.${name}` : name;
    const base = arb(prop, o, depth + 1, where);
    model[name] = o.override?.(name, prop, base, where) ?? base;
  }
  const required = (s.required ?? []).filter((k) => k in model);
  const dependent = s['dependentRequired'] as Record<string, string[]> | undefined;
  // dependentRequired (excludedTypes needs pools): a key whose companions were not drawn is left out.
  const declared = dependent
    ? fc.record(model, { requiredKeys: required, noNullPrototype: true }).map((o) => Object.fromEntries(Object.entries(o).filter(([k]) => (dependent[k] ?? []).every((d) => d in o))))
    : fc.record(model, { requiredKeys: required, noNullPrototype: true });
  const extra = s.additionalProperties;
  if (extra === false || (s.properties && extra === undefined)) return conditional(enough(declared, s.minProperties), s, o, depth, at);
  const declaredCount = Object.keys(model).length;
  const maxKeys = Math.max(0, Math.min(3, (s.maxProperties ?? Infinity) - declaredCount));
  const minKeys = Math.max(0, (s.minProperties ?? 0) - declaredCount);
  const names = s['propertyNames'] ? (stringArbitrary(o.resolve(s['propertyNames'] as Schema))) : fc.string({ unit: codePoint, minLength: 1, maxLength: 12 });
  const reserved = new Set([...(o.reservedKeys ?? []), ...Object.keys(model)]);
  const values = extra === true || extra === undefined ? fc.jsonValue({ maxDepth: 2 }) : arb(extra, o, depth + 1, `${at}.*`);
  const extras = fc.dictionary(names.filter((k) => !reserved.has(k)), values, { minKeys, maxKeys: Math.max(minKeys, maxKeys), noNullPrototype: true });
  return fc.tuple(declared, extras).map(([a, b]) => ({ ...b, ...a }));
}

/** minProperties over declared properties only (a PATCH body that must change something). */
function enough(obj: fc.Arbitrary<Record<string, unknown>>, minProperties: number | undefined): fc.Arbitrary<Record<string, unknown>> {
  return minProperties ? obj.filter((v) => Object.keys(v).length >= minProperties) : obj;
}

/**
 * if/then over an object (a LOAD_BALANCER endpoint scales by request count): when a drawn value meets
 * `if` (its required keys and consts), the properties `then` constrains are drawn from `then` instead.
 */
function conditional(obj: fc.Arbitrary<Record<string, unknown>>, s: Schema, o: ArbitraryOptions, depth: number, at: string): fc.Arbitrary<Record<string, unknown>> {
  const cond = s['if'] as Schema | undefined;
  const then = s['then'] as Schema | undefined;
  if (!cond || !then) return obj;
  const constrained = Object.entries(o.resolve(then).properties ?? {});
  if (constrained.length === 0) return obj;
  const replacements = fc.record(Object.fromEntries(constrained.map(([k, v]) => [k, arb(v, o, depth + 1, at ? `${at}.${k}` : k)])));
  const meets = (v: Record<string, unknown>) => (cond.required ?? []).every((k) => k in v)
    && Object.entries(cond.properties ?? {}).every(([k, p]) => !(k in v) || p.const === undefined || v[k] === p.const);
  return fc.tuple(obj, replacements).map(([v, r]) => {
    if (!meets(v)) return v;
    const out = { ...v };
    for (const [k, value] of Object.entries(r)) if (k in v) out[k] = value;
    return out;
  });
}
