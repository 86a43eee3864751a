// The secret strings of one GraphQL request, so no error message echoes them (graphql-js quotes invalid
// input values). Only values at secret positions count: SecretCreateInput.value and credential-named
// fields. Names, ids, images and env entries stay visible: hiding them makes errors unreadable
// ("a template named '[redacted]' already exists") and protects nothing.
import { Kind, visit, type ArgumentNode, type DocumentNode, type ObjectFieldNode, type ValueNode } from 'graphql';

export const REDACTED = '[redacted]';
const SECRET_FIELDS = new Set(['value', 'password', 'accessSecret', 'apiKey', 'api_key']);
/** Shorter values would blank out ordinary letters of every message. */
const MIN_SECRET_LENGTH = 3;
/** Literal secrets in a query that does not parse: the error quotes the token where parsing failed (`value "…"`). */
const LITERAL_SECRET = /\b(?:value|password|accessSecret|apiKey|api_key)\s*:?\s*"((?:[^"\\\n]|\\.)*)"/g;

/** `value` beside `key` is an environment variable ({key, value}): configuration, not a secret. */
const isSecretField = (name: string, hasKeySibling: boolean) => SECRET_FIELDS.has(name) && !(name === 'value' && hasKeySibling);

export function secretStrings(query: string, variables: unknown, document: DocumentNode | undefined, apiKey: string | undefined): string[] {
  const found = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH) found.add(value);
  };
  fromVariables(variables, add, 0);
  const vars = (variables ?? {}) as Record<string, unknown>;
  const fromNode = (value: ValueNode) => {
    if (value.kind === Kind.STRING) add(value.value);
    else if (value.kind === Kind.VARIABLE) add(vars[value.name.value]);
  };
  if (document) {
    visit(document, {
      ObjectValue(node) {
        const hasKey = node.fields.some((f) => f.name.value === 'key');
        node.fields.forEach((f: ObjectFieldNode) => isSecretField(f.name.value, hasKey) && fromNode(f.value));
      },
      Argument(node: ArgumentNode) {
        if (isSecretField(node.name.value, false)) fromNode(node.value);
      },
    });
  } else {
    for (const match of query.matchAll(LITERAL_SECRET)) {
      add(match[1]);
      add(unescapeJsonString(match[1]!));
    }
  }
  add(apiKey);
  return [...found].sort((a, b) => b.length - a.length);
}

function fromVariables(node: unknown, add: (value: unknown) => void, depth: number): void {
  if (depth > 16 || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) fromVariables(item, add, depth + 1);
    return;
  }
  const entries = Object.entries(node as Record<string, unknown>);
  const hasKey = entries.some(([k]) => k === 'key');
  for (const [key, value] of entries) {
    if (isSecretField(key, hasKey)) add(value);
    else fromVariables(value, add, depth + 1);
  }
}

function unescapeJsonString(raw: string): string | undefined {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
}

/** Replaces each secret, as sent and as graphql-js quotes it (JSON-escaped), with `[redacted]`. */
export function redactSecrets(message: string, secrets: readonly string[]): string {
  let text = message;
  for (const secret of secrets) {
    if (text.includes(secret)) text = text.split(secret).join(REDACTED);
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret && text.includes(escaped)) text = text.split(escaped).join(REDACTED);
  }
  return text;
}
