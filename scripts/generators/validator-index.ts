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

export function validatorIndexModule(all: SurfaceValidators[]): string {
  const lines: string[] = [
    `import type { Validator, JsonBody, JsonResponse, OperationValidators, RequestParams } from './types.js';`,
    `export type { Validator, JsonBody, JsonResponse, OperationValidators, RequestParams } from './types.js';`,
  ];
  for (const s of all) {
    const f = surfaces[s.surface].dir;
    lines.push(`import * as ${s.surface}V from './${f}.js';`);
    lines.push(`import * as ${s.surface}P from './${f}.params.js';`);
    lines.push(`import type { operations as ${s.surface}Ops, components as ${s.surface}Components } from '../${f}/types.js';`);
  }
  const opsBlocks = all.map((s) => {
    const ops = s.entries.map((e) => {
      const parts = [];
      if (e.body) parts.push(`body: ${s.surface}V.${e.body} as Validator<JsonBody<${s.surface}Ops['${e.operationId}']>>`);
      parts.push(`params: ${s.surface}P.${e.params} as Validator<RequestParams<${s.surface}Ops['${e.operationId}']>>`);
      const responses = Object.entries(e.responses).map(([status, name]) =>
        name === null
          ? `'${status}': null`
          : `'${status}': ${s.surface}V.${name} as Validator<JsonResponse<${s.surface}Ops['${e.operationId}'], ${Number(status) || 0}>>`,
      );
      parts.push(`responses: { ${responses.join(', ')} }`);
      return `    ${e.operationId}: {\n      ${parts.join(',\n      ')},\n    },`;
    });
    return `  ${s.surface}: {\n${ops.join('\n')}\n  },`;
  });
  lines.push(`/** Request and response validators per surface and operationId. */`);
  lines.push(`export const validate = {\n${opsBlocks.join('\n')}\n} as const satisfies Record<string, Record<string, OperationValidators>>;`);
  const schemaBlocks = all.map((s) => {
    const entries = s.schemaNames.map(
      (n) => `    ${n}: ${s.surface}V.schema__${n} as Validator<${s.surface}Components['schemas']['${n}']>,`,
    );
    return `  ${s.surface}: {\n${entries.join('\n')}\n  },`;
  });
  lines.push(`/** One validator per named component schema. */`);
  lines.push(`export const schemas = {\n${schemaBlocks.join('\n')}\n} as const;`);
  const hooks = all.flatMap((s) =>
    s.exportNames.filter((n) => n.startsWith('webhook__')).map((n) => `  ${n.slice('webhook__'.length)}: ${s.surface}V.${n} as Validator<unknown>,`),
  );
  lines.push(`/** Validators of webhook payloads the service sends. */`);
  lines.push(`export const webhooks = {\n${hooks.join('\n')}\n} as const;`);
  return `${lines.join('\n')}\n`;
}
