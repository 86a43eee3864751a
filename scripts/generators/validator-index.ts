// The typed index over the standalone validators: validate.restV1.createEndpoint.body(x) and friends.
import type { SurfaceValidators } from './validators.js';
import { surfaces } from './specs.js';

const typeSupport = `import type { ValidateFunction } from 'ajv';

/** A precompiled Ajv validator that narrows its input to T. */
export type Validator<T> = ValidateFunction<T>;
/** JSON request body type of an openapi-typescript operation. */
export type JsonBody<O> = O extends { requestBody?: infer R }
  ? NonNullable<R> extends { content: { 'application/json': infer B } } ? B : never
  : never;
/** JSON response body type of an openapi-typescript operation for one status (problem+json included). */
export type JsonResponse<O, S extends number> = O extends { responses: infer R }
  ? S extends keyof R
    ? R[S] extends { content: { 'application/json': infer B } }
      ? B
      : R[S] extends { content: { 'application/problem+json': infer P } } ? P : undefined
    : never
  : never;
/** A parameter section (path, query) of an operation; an operation without one gets an empty object. */
type ParamSection<P, K extends string> = P extends { [key in K]?: infer X }
  ? [NonNullable<X>] extends [never] ? Record<string, never> : NonNullable<X>
  : Record<string, never>;
/** What the params validator accepts after coercion: { path, query }, typed from the operation. */
export type RequestParams<O> = O extends { parameters: infer P }
  ? { path: ParamSection<P, 'path'>; query: ParamSection<P, 'query'> }
  : never;
/** Validators of one operation; a null response entry means that status has no body. */
export type OperationValidators = {
  body?: Validator<unknown>;
  params: Validator<unknown>;
  responses: Record<string, Validator<unknown> | null>;
};
`;

export function validatorTypesModule(): string {
  return typeSupport;
}

/**
 * One surface's validators (`generated/validators/<dir>.index.ts`): what a client of that surface loads
 * lazily, so a queue client never downloads REST v2's validators.
 */
export function surfaceValidatorIndexModule(s: SurfaceValidators): string {
  const f = surfaces[s.surface].dir;
  const title = surfaces[s.surface].title;
  const lines: string[] = [
    `import type { Validator, JsonBody, JsonResponse, OperationValidators, RequestParams } from './types.js';`,
    `import * as V from './${f}.js';`,
    `import * as P from './${f}.params.js';`,
    `import type { operations as Ops, components as Components } from '../${f}/types.js';`,
  ];
  const ops = s.entries.map((e) => {
    const parts = [];
    if (e.body) parts.push(`body: V.${e.body} as Validator<JsonBody<Ops['${e.operationId}']>>`);
    parts.push(`params: P.${e.params} as Validator<RequestParams<Ops['${e.operationId}']>>`);
    const responses = Object.entries(e.responses).map(([status, name]) =>
      name === null
        ? `'${status}': null`
        : `'${status}': V.${name} as Validator<JsonResponse<Ops['${e.operationId}'], ${Number(status) || 0}>>`,
    );
    parts.push(`responses: { ${responses.join(', ')} }`);
    return `  ${e.operationId}: {\n    ${parts.join(',\n    ')},\n  },`;
  });
  lines.push(`/** ${title} request and response validators per operationId. */`);
  lines.push(`export const validate = {\n${ops.join('\n')}\n} as const satisfies Record<string, OperationValidators>;`);
  const schemaEntries = s.schemaNames.map((n) => `  ${n}: V.schema__${n} as Validator<Components['schemas']['${n}']>,`);
  lines.push(`/** One validator per named ${title} component schema. */`);
  lines.push(`export const schemas = {\n${schemaEntries.join('\n')}\n} as const;`);
  lines.push(`/** Validators of the ${title} webhook payloads the service sends. */`);
  lines.push(`export const webhooks = {\n${webhookNames(s).map((n) => `  ${n}: V.webhook__${n} as Validator<unknown>,`).join('\n')}\n} as const;`);
  const required = s.entries.filter((e) => e.bodyRequired).map((e) => `'${e.operationId}'`);
  lines.push(`/** operationIds whose request body is required; an optional body may be absent. */`);
  lines.push(`export const requiredBodies: ReadonlySet<string> = new Set([${required.join(', ')}]);`);
  return `${lines.join('\n')}\n`;
}

export const surfaceValidatorIndexPath = (s: SurfaceValidators): string => `validators/${surfaces[s.surface].dir}.index.ts`;

const webhookNames = (s: SurfaceValidators): string[] =>
  s.exportNames.filter((n) => n.startsWith('webhook__')).map((n) => n.slice('webhook__'.length));

/** The typed index over all surfaces (`validate.restV1.createEndpoint.body(x)`), composed of the per-surface modules. */
export function validatorIndexModule(all: SurfaceValidators[]): string {
  const owner = new Map<string, string>();
  for (const s of all) {
    for (const name of webhookNames(s)) {
      const other = owner.get(name);
      if (other) throw new Error(`webhook "${name}" is declared by both ${other} and ${s.surface}`);
      owner.set(name, s.surface);
    }
  }
  const lines: string[] = [`export type { Validator, JsonBody, JsonResponse, OperationValidators, RequestParams } from './types.js';`];
  for (const s of all) lines.push(`import * as ${s.surface}Index from './${surfaces[s.surface].dir}.index.js';`);
  const table = (member: string) => all.map((s) => `  ${s.surface}: ${s.surface}Index.${member},`).join('\n');
  lines.push(`/** Request and response validators per surface and operationId. */`);
  lines.push(`export const validate = {\n${table('validate')}\n} as const;`);
  lines.push(`/** One validator per named component schema. */`);
  lines.push(`export const schemas = {\n${table('schemas')}\n} as const;`);
  const hooks = all.filter((s) => webhookNames(s).length > 0).map((s) => `  ...${s.surface}Index.webhooks,`);
  lines.push(`/** Validators of webhook payloads the service sends. */`);
  lines.push(`export const webhooks = {\n${hooks.join('\n')}\n} as const;`);
  lines.push(`/** Per surface: operationIds whose request body is required. */`);
  lines.push(`export const requiredBodies = {\n${table('requiredBodies')}\n} as const;`);
  return `${lines.join('\n')}\n`;
}
