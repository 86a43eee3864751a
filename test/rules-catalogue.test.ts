// Checks specs/rules.yaml: rule schema, coverage of every seed constant and every seed item,
// and agreement of the queue v2 spec's x-rate-limit values with the QUEUE-RATE rules.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const specsDir = fileURLToPath(new URL('../specs/', import.meta.url));
const readText = (relative: string): string => readFileSync(join(specsDir, relative), 'utf8');

// ───────────── rules.yaml ─────────────

const SURFACES = ['rest-v1', 'queue-v2', 'graphql', 'rest-v2', 'all'] as const;
const CHECKS = ['black-box', 'clock', 'mock-only'] as const;
const TIERS = ['safe', 'full', 'slow'] as const;
const SOURCES = ['seed', 'observed', 'assumed'] as const;
const REQUIRED_KEYS = ['id', 'title', 'seed', 'surface', 'check', 'tier', 'source'] as const;
const OPTIONAL_KEYS = ['values', 'operations', 'why-not-black-box'] as const;
const ID_PATTERN = /^[A-Z][A-Z0-9]*(-[A-Z0-9]+)*-\d{3}$/;
const REFERENCE_SEPARATOR = '; ';
const PATH_SEPARATOR = ' › ';

interface Rule {
  id: string;
  title: string;
  seed: string;
  surface: (typeof SURFACES)[number];
  check: (typeof CHECKS)[number];
  tier: (typeof TIERS)[number];
  source: (typeof SOURCES)[number];
  values?: Record<string, unknown>;
  operations?: string[];
  'why-not-black-box'?: string;
}

const catalogue = parse(readText('rules.yaml')) as { version: unknown; rules: unknown; publicSources?: Record<string, { sections?: string[] }> };
const rawRules: Record<string, unknown>[] = Array.isArray(catalogue.rules)
  ? (catalogue.rules as Record<string, unknown>[])
  : [];
const rules = rawRules as unknown as Rule[];
const referencesOf = (rule: Rule): string[] => String(rule.seed).split(REFERENCE_SEPARATOR).map((r) => r.trim());
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// ───────────── operationIds (specs/CONVENTIONS.md "## operationIds") ─────────────

function parseOperationIds(conventions: string): Set<string> {
  const section = conventions.split(/^## /m).find((s) => s.startsWith('operationIds')) ?? '';
  const withoutPathParams = section.replace(/\{[^}]*\}/g, '');
  return new Set(withoutPathParams.match(/\b[a-z]+[A-Z][A-Za-z]*\b/g) ?? []);
}
const operationIds = parseOperationIds(readText('CONVENTIONS.md'));

// ───────────── public documents (REST v2 rules) ─────────────

const restV2Bundle = JSON.parse(readFileSync(fileURLToPath(new URL('../generated/rest-v2/openapi.json', import.meta.url)), 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string }>>;
  components: Record<string, Record<string, unknown>>;
};
const restV2OperationIds = new Set(Object.values(restV2Bundle.paths).flatMap((item) => Object.values(item).map((op) => op.operationId).filter(Boolean) as string[]));
const restV2Items = new Set([
  ...Object.entries(restV2Bundle.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)),
  ...['schemas', 'responses', 'headers'].flatMap((kind) => Object.keys(restV2Bundle.components[kind] ?? {})),
]);
const publicSources = catalogue.publicSources ?? {};
/** Why a public-document reference names nothing, or undefined when it names something. */
function publicReferenceProblem(reference: string): string | undefined {
  const [source, ...rest] = reference.split(PATH_SEPARATOR);
  const item = rest.join(PATH_SEPARATOR);
  if (!source || !(source in publicSources)) return `"${reference}" names no publicSources document`;
  if (source === 'rest-v2') return restV2Items.has(item) ? undefined : `"${reference}" is no operation or component of the REST v2 description`;
  const sections = publicSources[source]?.sections ?? [];
  return sections.includes(item) ? undefined : `"${reference}" is no section of ${source} listed in publicSources`;
}

// ───────────── SEED.md items ─────────────

/** Sections whose table rows must each be referenced by a rule (numbered items are always required). */
const TABLE_SECTIONS = [
  'Authentication',
  'Errors',
  'Limits',
  `Endpoints${PATH_SEPARATOR}REST management interface${PATH_SEPARATOR}Other operations`,
  `Endpoints${PATH_SEPARATOR}Queue-based endpoint operations`,
  `Endpoints${PATH_SEPARATOR}GraphQL interface`,
];
/** Words that introduce a numbered list and become the item label ("Behaviours 2"). */
const LIST_LABELS = ['Behaviours', 'Further rules', 'Rules'];

interface SeedModel {
  h2: Set<string>;
  /** Every item that must be referenced: numbered items, inline-rule sentences, rows of TABLE_SECTIONS. */
  required: string[];
}

function parseSeed(markdown: string): SeedModel {
  const h2 = new Set<string>();
  const required: string[] = [];
  let headings: string[] = [];
  let label = '';
  let tableHeader: string[] | undefined;
  const stripParenthetical = (text: string): string => text.replace(/\s*\([^)]*\)\s*$/, '').trim();
  const key = (item: string): string => [...headings, item].join(PATH_SEPARATOR);

  for (const rawLine of markdown.split('\n')) {
    const line = rawLine.trim();
    const heading = /^(#{2,4})\s+(.*)$/.exec(line);
    if (heading?.[1] && heading[2] !== undefined) {
      const level = heading[1].length - 2;
      headings = headings.slice(0, level);
      headings[level] = stripParenthetical(heading[2]);
      if (level === 0) h2.add(headings[0] ?? '');
      label = '';
      tableHeader = undefined;
      continue;
    }
    if (line.startsWith('|')) {
      const cells = line.replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
      if (!tableHeader) {
        tableHeader = cells;
        continue;
      }
      if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
      const section = headings.join(PATH_SEPARATOR);
      if (TABLE_SECTIONS.includes(section)) {
        required.push(key(tableHeader[0] === 'Method' ? `${cells[0]} ${cells[1]}` : (cells[0] ?? '')));
      }
      continue;
    }
    tableHeader = undefined;
    const numbered = /^(\d+)\.\s+/.exec(line);
    if (numbered?.[1]) {
      required.push(key(label ? `${label} ${numbered[1]}` : numbered[1]));
      continue;
    }
    if (!line) continue;
    label = LIST_LABELS.find((l) => line.startsWith(l)) ?? '';
    // An inline "Rules: a. b. c." paragraph: each sentence that is not a "not shown" note is an item.
    const inline = /^Rules:\s+(\S.*)$/.exec(line);
    if (inline?.[1]) {
      const sentences = inline[1].split(/(?<=\.)\s+/).filter((s) => !/not shown/i.test(s));
      sentences.forEach((_, index) => required.push(key(`Rules ${index + 1}`)));
      label = '';
    }
  }
  return { h2, required };
}

const seed = parseSeed(readText('SEED.md'));
const requiredKeys = new Set(seed.required);
const referencedKeys = new Set(rules.flatMap(referencesOf));

/** A last path segment of this shape claims to name a seed item (numbered item, table row, status), so it must exist. */
const ITEM_LIKE = [
  /^[A-Za-z ]*\d+$/,
  /^(?:GET|POST|PUT|PATCH|DELETE) \//,
  /^\/\S*$/,
  /^\d{3}$/,
];

// ───────────── (1) schema ─────────────

describe('rules.yaml schema', () => {
  it('has version 1 and a non-empty rules list', () => {
    expect(catalogue.version).toBe(1);
    expect(rules.length).toBeGreaterThan(0);
  });

  it('found the operationIds of CONVENTIONS.md', () => {
    for (const op of ['listPods', 'runJob', 'getJobStatusSync', 'openaiProxy', 'saveTemplate', 'podTemplate']) {
      expect(operationIds.has(op), `CONVENTIONS.md operationId ${op}`).toBe(true);
    }
  });

  it('rule ids are unique', () => {
    const seen = new Set<string>();
    const duplicates = rules.map((r) => r.id).filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
    expect(duplicates, 'duplicate rule ids').toEqual([]);
  });

  it.each(rawRules.map((raw, index) => [String(raw.id ?? `#${index}`), raw] as const))('%s is well-formed', (_id, raw) => {
    const id = String(raw.id);
    // Required keys, no unknown key, allowed enum values.
    for (const k of REQUIRED_KEYS) {
      expect.soft(typeof raw[k] === 'string' && raw[k] !== '', `${id}: "${k}" must be a non-empty string`).toBe(true);
    }
    const unknownKeys = Object.keys(raw).filter(
      (k) => !(REQUIRED_KEYS as readonly string[]).includes(k) && !(OPTIONAL_KEYS as readonly string[]).includes(k),
    );
    expect.soft(unknownKeys, `${id}: unknown keys`).toEqual([]);
    expect.soft(SURFACES, `${id}: surface`).toContain(raw.surface);
    expect.soft(CHECKS, `${id}: check`).toContain(raw.check);
    expect.soft(TIERS, `${id}: tier`).toContain(raw.tier);
    expect.soft(SOURCES, `${id}: source`).toContain(raw.source);
    expect.soft(id, `${id}: id must match AREA-TOPIC-NNN`).toMatch(ID_PATTERN);

    // Title: one line, one sentence ending with a full stop.
    expect.soft(String(raw.title), `${id}: title must be one line`).not.toMatch(/\n/);
    expect.soft(String(raw.title).trim(), `${id}: title must end with a full stop`).toMatch(/\.$/);

    // mock-only rules say why; others do not. clock rules need real waiting without clock control.
    const why = raw['why-not-black-box'];
    if (raw.check === 'mock-only') {
      expect.soft(typeof why === 'string' && why.trim().length > 0, `${id}: mock-only needs why-not-black-box`).toBe(true);
    } else {
      expect.soft(why, `${id}: why-not-black-box is only for mock-only rules`).toBeUndefined();
    }
    if (raw.check === 'clock') expect.soft(raw.tier, `${id}: clock rules are tier slow`).toBe('slow');

    // values is a map; operations are operationIds of CONVENTIONS.md.
    if (raw.values !== undefined) expect.soft(isPlainObject(raw.values), `${id}: values must be a map`).toBe(true);
    const restV2 = raw.surface === 'rest-v2';
    // A RESTV2- rule comparing a REST v1 object with its REST v2 view (the migration map's v1 side) carries surface
    // rest-v1, so that a target without REST v1 skips it for that reason (issue 35); it still cites public
    // documents and names operations of both specs.
    const comparison = id.startsWith('RESTV2-') && raw.surface === 'rest-v1';
    if (raw.operations !== undefined) {
      expect.soft(Array.isArray(raw.operations), `${id}: operations must be a list`).toBe(true);
      const known = restV2 ? restV2OperationIds : comparison ? new Set([...restV2OperationIds, ...operationIds]) : operationIds;
      const unknownOps = (Array.isArray(raw.operations) ? (raw.operations as unknown[]) : []).filter((op) => !known.has(String(op)));
      expect.soft(unknownOps, `${id}: operations not in ${restV2 ? 'specs/rest-v2' : 'CONVENTIONS.md'}`).toEqual([]);
    }
    expect.soft(restV2 || comparison, `${id}: RESTV2- ids are the rest-v2 surface's (or REST v1 comparisons'), and only theirs`).toBe(id.startsWith('RESTV2-'));

    // REST v2 rules cite public documents; every other rule cites the seed.
    if (restV2 || comparison) {
      for (const reference of referencesOf(raw as unknown as Rule)) expect.soft(publicReferenceProblem(reference), `${id}: ${reference}`).toBeUndefined();
      return;
    }
    // Seed references start with a seed ## heading; item-like references name an existing item.
    for (const reference of referencesOf(raw as unknown as Rule)) {
      const segments = reference.split(PATH_SEPARATOR);
      expect.soft(seed.h2.has(segments[0] ?? ''), `${id}: "${reference}" does not start with a seed ## heading`).toBe(true);
      const last = segments[segments.length - 1] ?? '';
      if (segments.length > 1 && ITEM_LIKE.some((p) => p.test(last))) {
        expect.soft(requiredKeys.has(reference), `${id}: "${reference}" names no seed item`).toBe(true);
      }
    }
  });
});

// ───────────── (2) seed constants ─────────────

interface SeedConstant {
  name: string;
  /** Rule id prefix the constant must live under, when it matters. */
  idPrefix?: string;
  values: Record<string, unknown>;
}

const rateRow = (path: string, operation: string, requestsPer10s: number, concurrent: number | null): SeedConstant => ({
  name: `rate limit ${path} (${operation}): ${requestsPer10s} per 10 s, concurrent ${String(concurrent)}`,
  idPrefix: 'QUEUE-RATE-',
  values: { operation, requestsPer10s, concurrent },
});

const DAYS_7_MS = 7 * 24 * 60 * 60 * 1000;
const SEED_CONSTANTS: SeedConstant[] = [
  rateRow('POST /runsync', 'runJobSync', 2000, 400),
  rateRow('POST /run', 'runJob', 1000, 200),
  rateRow('GET /status', 'getJobStatus', 2000, 400),
  rateRow('GET /stream', 'streamJob', 2000, 400),
  rateRow('POST /cancel', 'cancelJob', 100, 20),
  rateRow('POST /purge-queue', 'purgeQueue', 2, null),
  rateRow('POST /openai/*', 'openaiProxy', 2000, 400),
  rateRow('GET /requests', 'listRequests', 10, 2),
  { name: 'executionTimeout default 600000 ms', values: { executionTimeoutDefaultMs: 600000 } },
  { name: 'executionTimeout min 5000 ms', values: { executionTimeoutMinMs: 5000 } },
  { name: 'executionTimeout max 7 days', values: { executionTimeoutMaxMs: DAYS_7_MS } },
  { name: 'ttl default 86400000 ms', values: { ttlDefaultMs: 86400000 } },
  { name: 'ttl min 10000 ms', values: { ttlMinMs: 10000 } },
  { name: 'ttl max 7 days', values: { ttlMaxMs: DAYS_7_MS } },
  {
    name: 'job remaining time: ttl 7 days, 2 days queued, 5 days left',
    values: { ttlMs: DAYS_7_MS, queuedMs: 2 * 86400000, remainingMs: 5 * 86400000 },
  },
  { name: 'result retention /run 30 minutes', values: { resultRetentionRunMs: 1800000 } },
  { name: 'result retention /runsync 1 minute', values: { resultRetentionRunSyncMs: 60000 } },
  { name: 'result retention /runsync 5 minutes maximum', values: { resultRetentionRunSyncMaxMs: 300000 } },
  { name: 'webhook retries 2', values: { webhookRetries: 2 } },
  { name: 'webhook retry interval 10 s', values: { webhookRetryIntervalMs: 10000 } },
  { name: 'webhook receiver answers 200', values: { webhookSuccessStatus: 200 } },
  { name: 'template deletion delay up to 2 minutes', values: { templateDeleteDelayMs: 120000 } },
  { name: 'registry auth name must be unique', values: { registryAuthNameUnique: true } },
  { name: 'template name must be unique', values: { templateNameUnique: true } },
  { name: 'missing or invalid key answered 401', values: { status: 401 } },
  { name: 'REST base address version segment v1', values: { restVersionSegment: 'v1' } },
  { name: 'REST interface description version 0.1.0', values: { interfaceVersion: '0.1.0' } },
  { name: 'queue base address version segment v2', values: { queueVersionSegment: 'v2' } },
  { name: 'GraphQL template create requires containerDiskInGb, imageName, name, volumeInGb', values: { required: ['containerDiskInGb', 'imageName', 'name', 'volumeInGb'] } },
  { name: 'serverless template: volumeInGb 0 and isServerless true', values: { isServerless: true, volumeInGb: 0 } },
];

const hasValues = (rule: Rule, expected: Record<string, unknown>): boolean =>
  isPlainObject(rule.values) &&
  Object.entries(expected).every(([k, v]) => JSON.stringify((rule.values as Record<string, unknown>)[k]) === JSON.stringify(v));

describe('seed constants each have a rule pinning them in `values`', () => {
  it.each(SEED_CONSTANTS.map((c) => [c.name, c] as const))('seed constant: %s', (_name, constant) => {
    const matching = rules.filter(
      (r) => (!constant.idPrefix || r.id.startsWith(constant.idPrefix)) && hasValues(r, constant.values),
    );
    expect(
      matching.map((r) => r.id),
      `missing rule for seed constant "${constant.name}": no ${constant.idPrefix ?? ''}rule has values ${JSON.stringify(constant.values)}`,
    ).not.toEqual([]);
  });
});

// ───────────── (3) seed sections ─────────────

describe('seed sections are each referenced by a rule', () => {
  const expectSection = (prefix: string, pattern: RegExp): void => {
    const items = seed.required.filter((k) => k.startsWith(prefix) && pattern.test(k));
    expect(items.length, `the seed parser found no items for ${prefix} ${String(pattern)}`).toBeGreaterThan(0);
  };

  it('the seed parser finds every covered section', () => {
    expectSection('States and transitions', /Behaviours \d+$/);
    expectSection('Endpoints › GraphQL interface', /Rules \d+$/);
    expectSection('Endpoints › GraphQL interface', /› \w+$/);
    expectSection('Endpoints › REST management interface › Other operations', /› GET \//);
    expectSection('Endpoints › Queue-based endpoint operations', /› POST \//);
    expectSection('Authentication', /Rules \d+$/);
    expectSection('Authentication', /interface$/);
    expectSection('Events', /› \d+$/);
    expectSection('Errors', /› \d{3}$/);
    expectSection('Errors', /Further rules \d+$/);
    expectSection('Limits', /› \/run$/);
    expectSection('Limits', /› ttl$/);
    expectSection('Versioning', /› \d+$/);
  });

  it.each(seed.required.map((k) => [k] as const))('seed item "%s" has a rule', (item) => {
    expect(referencedKeys.has(item), `no rule's seed field references "${item}"`).toBe(true);
  });
});

// ───────────── (4) queue v2 spec x-rate-limit ─────────────

const queueRoot = join(specsDir, 'queue-v2', 'openapi.yaml');
const queuePathsDir = join(specsDir, 'queue-v2', 'paths');

interface SpecRateLimit {
  operationId: string;
  file: string;
  requestsPer10s: unknown;
  concurrent: unknown;
}

function collectRateLimits(node: unknown, file: string, out: SpecRateLimit[]): void {
  if (Array.isArray(node)) {
    node.forEach((child) => collectRateLimits(child, file, out));
    return;
  }
  if (!isPlainObject(node)) return;
  const limit = node['x-rate-limit'];
  if (typeof node.operationId === 'string' && isPlainObject(limit)) {
    out.push({ operationId: node.operationId, file, requestsPer10s: limit.requestsPer10s, concurrent: limit.concurrent });
  }
  for (const child of Object.values(node)) collectRateLimits(child, file, out);
}

function readSpecRateLimits(): SpecRateLimit[] {
  const out: SpecRateLimit[] = [];
  const files = readdirSync(queuePathsDir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.ya?ml$/.test(f));
  for (const file of files) collectRateLimits(parse(readFileSync(join(queuePathsDir, file), 'utf8')), file, out);
  return out;
}

const rateRules = rules.filter((r) => r.id.startsWith('QUEUE-RATE-') && isPlainObject(r.values) && 'operation' in r.values);

describe('queue v2 x-rate-limit agrees with the QUEUE-RATE rules', () => {
  it('specs/queue-v2/openapi.yaml exists', () => {
    expect(existsSync(queueRoot), 'specs/queue-v2/openapi.yaml is missing: cannot compare x-rate-limit').toBe(true);
  });

  it('every x-rate-limit in specs/queue-v2/paths equals its QUEUE-RATE rule', () => {
    expect(existsSync(queueRoot) && existsSync(queuePathsDir), 'specs/queue-v2 spec is missing').toBe(true);
    const limits = readSpecRateLimits();
    expect(limits.length, 'no x-rate-limit found under specs/queue-v2/paths').toBeGreaterThan(0);
    for (const limit of limits) {
      const rule = rateRules.find((r) => r.values?.operation === limit.operationId);
      expect(rule, `${limit.file}: no QUEUE-RATE rule for ${limit.operationId}`).toBeDefined();
      expect(
        { requestsPer10s: limit.requestsPer10s, concurrent: limit.concurrent },
        `${limit.file}: x-rate-limit of ${limit.operationId} differs from ${rule?.id ?? '?'}`,
      ).toEqual({ requestsPer10s: rule?.values?.requestsPer10s, concurrent: rule?.values?.concurrent });
    }
  });

  it('every QUEUE-RATE rule operation has an x-rate-limit in the spec', () => {
    expect(existsSync(queueRoot) && existsSync(queuePathsDir), 'specs/queue-v2 spec is missing').toBe(true);
    const specOperations = new Set(readSpecRateLimits().map((l) => l.operationId));
    const missing = rateRules.map((r) => String(r.values?.operation)).filter((op) => !specOperations.has(op));
    expect(missing, 'QUEUE-RATE rules whose operation has no x-rate-limit').toEqual([]);
  });
});

// ───────────── x-rule-ids anywhere in specs/ name existing rules ─────────────

function collectRuleIds(node: unknown, out: string[]): void {
  if (Array.isArray(node)) {
    node.forEach((child) => collectRuleIds(child, out));
    return;
  }
  if (!isPlainObject(node)) return;
  const ids = node['x-rule-ids'];
  if (Array.isArray(ids)) out.push(...ids.map(String));
  for (const child of Object.values(node)) collectRuleIds(child, out);
}

describe('x-rule-ids in specs/ refer to catalogued rules', () => {
  it('every x-rule-ids entry is a rule id of rules.yaml', () => {
    const known = new Set(rules.map((r) => r.id));
    const files = readdirSync(specsDir, { recursive: true, encoding: 'utf8' }).filter(
      (f) => /\.ya?ml$/.test(f) && !f.endsWith('rules.yaml'),
    );
    const unknown: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(specsDir, file), 'utf8');
      if (!text.includes('x-rule-ids')) continue;
      const found: string[] = [];
      collectRuleIds(parse(text), found);
      unknown.push(...found.filter((id) => !known.has(id)).map((id) => `${file}: ${id}`));
    }
    expect(unknown, 'x-rule-ids naming no rule').toEqual([]);
  });
});
