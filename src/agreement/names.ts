// Names the run has given to resources whose names must be unique (templates, registry auths,
// secrets): a spec-valid request reusing one may be refused by the uniqueness rule, and only then.
import type { RequestCase } from './requests.js';
import type { Answer } from './transport.js';

/** Uniqueness scope of the name each create/rename operation sets ("surface:operationId" → scope). */
const NAME_SCOPES: Record<string, string> = {
  'restV1:createTemplate': 'template',
  'restV1:updateTemplate': 'template',
  'restV1:updateTemplateViaPost': 'template',
  'graphql:saveTemplate': 'template',
  'restV1:createContainerRegistryAuth': 'registryAuth',
  'graphql:secretCreate': 'secret',
};

export class NameBook {
  private readonly taken = new Map<string, Set<string>>();

  /** Whether the request sets a name that an earlier accepted request of the run already used. */
  isTaken(c: RequestCase): boolean {
    const scope = NAME_SCOPES[`${c.op.surface}:${c.op.operationId}`];
    const name = nameOf(c);
    return scope !== undefined && name !== undefined && (this.taken.get(scope)?.has(name) ?? false);
  }

  /** Records the name of an accepted create or rename. */
  record(c: RequestCase, answer: Answer): void {
    const scope = NAME_SCOPES[`${c.op.surface}:${c.op.operationId}`];
    const name = nameOf(c);
    if (scope === undefined || name === undefined || answer.status < 200 || answer.status > 299) return;
    if (c.op.surface === 'graphql' && (answer.body as { errors?: unknown } | undefined)?.errors) return;
    let names = this.taken.get(scope);
    if (!names) this.taken.set(scope, (names = new Set()));
    names.add(name);
  }
}

function nameOf(c: RequestCase): string | undefined {
  const body = c.body as Record<string, unknown> | undefined;
  const holder = c.op.surface === 'graphql' ? (body?.['input'] as Record<string, unknown> | null | undefined) : body;
  const name = holder && typeof holder === 'object' ? holder['name'] : undefined;
  return typeof name === 'string' ? name : undefined;
}
