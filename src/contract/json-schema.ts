// The subset of JSON Schema the bundled specs use (with the contract's own x- extensions), as the
// tools that read schemas (the agreement generator, the GraphQL bound reader) see it.

export type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

export interface Schema {
  $ref?: string;
  type?: JsonType | JsonType[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  readOnly?: boolean;
  writeOnly?: boolean;
  /** Values must be unique (per account); valid requests get a fresh value. */
  'x-unique'?: string;
  /** A secret: never printed in a report. */
  'x-secret'?: boolean;
  [extension: string]: unknown;
}
