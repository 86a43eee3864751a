// Request and result types of one openapi-typescript operation object, shared by the REST v1 and REST v2
// clients (each applies them to its own generated `operations`).
type Operation = { parameters: { path?: unknown; query?: unknown }; responses: unknown };
type SuccessStatus = 200 | 201 | 202 | 204;

export type PathParamsOf<O extends Operation> = NonNullable<O['parameters']['path']>;
export type QueryParamsOf<O extends Operation> = NonNullable<O['parameters']['query']>;
export type RequestBodyOf<O> = O extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;

/** JSON body of the success answer (`undefined` for 204; a union where several success statuses exist). */
export type ResultOf<O> = O extends { responses: infer R }
  ? {
      [S in keyof R & SuccessStatus]: R[S] extends { content: { 'application/json': infer B } } ? B : undefined;
    }[keyof R & SuccessStatus]
  : never;

/** Arguments of `request(operationId, args)`: `path` when the path has ids, `query` when allowed, `body` when required. */
export type ArgsOf<O extends Operation> = ([PathParamsOf<O>] extends [never] ? { path?: never } : { path: PathParamsOf<O> }) &
  ([QueryParamsOf<O>] extends [never] ? { query?: never } : { query?: QueryParamsOf<O> }) &
  ([RequestBodyOf<O>] extends [never] ? { body?: never } : { body: RequestBodyOf<O> });
