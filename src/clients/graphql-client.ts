/**
 * GraphQL client (templates and secrets, plus the management operations the official SDKs send) over graphql-request with the generated typed documents.
 * The key goes in `?api_key=` as the seed documents (`auth: 'header'` sends `Authorization: Bearer`
 * instead, as the official SDKs now do). `errors[]` in a 200 answer → GraphQLResponseError with every
 * message and path; a non-2xx answer → the status class (AuthenticationError, RateLimitError …).
 */
// Types only here: graphql-request loads graphql-js (~130 modules), so it is imported on the first request,
// not with the package root.
import type { GraphQLClient, TypedDocumentString } from 'graphql-request';
import {
  DeleteTemplateDocument,
  GetPodTemplateDocument,
  SaveTemplateDocument,
  SecretCreateDocument,
  SecretDeleteDocument,
  type GetPodTemplateQuery,
  type SaveTemplateInput,
  type SaveTemplateMutation,
  type SecretCreateInput,
  type SecretCreateMutation,
} from '../../generated/graphql/graphql.js';
import { ApiError, GraphQLResponseError, ValidationError, errorFromResponse, type GraphQLErrorEntry } from './errors.js';
import { requireOption, type CallOptions, type TransportOptions } from './http.js';
import { SecretRedactor } from './redact.js';
import { createRetryFetch } from './retry-fetch.js';
import { validateGraphqlVariables, type VariablesValidator } from './graphql-variables.js';
import { graphqlManagementCalls } from './graphql-management.js';

export type { SaveTemplateInput, SecretCreateInput } from '../../generated/graphql/graphql.js';
export type PodTemplate = NonNullable<SaveTemplateMutation['saveTemplate']>;
export type Secret = NonNullable<SecretCreateMutation['secretCreate']>;

export interface GraphqlClientOptions extends TransportOptions {
  /** GraphQL address without the key, e.g. `https://api.runpod.io/graphql`. */
  graphqlUrl: string;
  /** Where the key goes: `query` (`?api_key=`, the seed's mechanism, default) or `header` (Bearer). */
  auth?: 'query' | 'header';
  /** Check variables against the SDL before sending. Default true. */
  validateRequests?: boolean;
  /** Replaces the built-in variables check. */
  variablesValidator?: VariablesValidator;
}

type Variables = Record<string, unknown>;

let graphqlRequest: Promise<typeof import('graphql-request')> | undefined;
function loadGraphqlRequest(): Promise<typeof import('graphql-request')> {
  if (!graphqlRequest) {
    graphqlRequest = import('graphql-request');
    // A failed import is not cached: the next request tries again.
    graphqlRequest.catch(() => (graphqlRequest = undefined));
  }
  return graphqlRequest;
}

export function createGraphqlClient(options: GraphqlClientOptions) {
  const apiKey = requireOption(options.apiKey, 'apiKey');
  const url = new URL(requireOption(options.graphqlUrl, 'graphqlUrl'));
  const auth = options.auth ?? 'query';
  if (auth === 'query') url.searchParams.set('api_key', apiKey);
  const endpoint = url.toString();
  const baseRedactor = new SecretRedactor([apiKey]);
  const headers: Record<string, string> = { ...options.headers, ...(auth === 'header' ? { Authorization: `Bearer ${apiKey}` } : {}) };

  async function request<Result, Vars extends Variables>(
    document: TypedDocumentString<Result, Vars>,
    variables: Vars,
    callOptions: CallOptions = {},
  ): Promise<Result> {
    const query = String(document);
    const operationId = /(?:query|mutation)\s+(\w+)/.exec(query)?.[1];
    const redactor = baseRedactor.extend().addFromBody(variables);
    const errorInit = { operationId, redactor };

    if (options.validateRequests !== false) {
      const issues = await (options.variablesValidator ?? validateGraphqlVariables)(query, variables);
      if (issues.length > 0) throw new ValidationError(issues, errorInit);
    }

    // One object literal of a fixed shape per call, as the REST v1 / queue v2 transport builds it (a
    // spread of the client-wide settings into a new object cost more).
    const o = options;
    const fetch = createRetryFetch({
      fetch: o.fetch, maxRetries: callOptions.maxRetries ?? o.maxRetries, timeoutMs: callOptions.timeoutMs ?? o.timeoutMs,
      onRetry: o.onRetry, baseDelayMs: o.baseDelayMs, maxDelayMs: o.maxDelayMs, maxRetryAfterMs: o.maxRetryAfterMs,
      sleep: o.sleep, random: o.random, idempotent: /^\s*query\b/.test(query.replace(/^\s*#.*$/gm, '')),
      signal: callOptions.signal, operationId, redactor,
    });
    const { GraphQLClient, ClientError } = await loadGraphqlRequest();
    const client = new GraphQLClient(endpoint, {
      fetch: fetch as typeof globalThis.fetch,
      headers: { ...headers, ...callOptions.headers },
      errorPolicy: 'all',
    });

    let response: Awaited<ReturnType<GraphQLClient['rawRequest']>>;
    try {
      response = await client.rawRequest<Result, Vars>(query, variables);
    } catch (error) {
      // ClientError's own message embeds the variables (secret values): never pass it on as is.
      if (error instanceof ClientError) {
        const { status, headers: responseHeaders, errors } = error.response;
        const body = errors ? { message: errors[0]?.message, errors } : { message: String(error.response.body ?? '').slice(0, 500) || undefined };
        throw errorFromResponse({ ...errorInit, status, headers: responseHeaders, body });
      }
      if (error instanceof ApiError) throw error;
      throw new ApiError({ ...errorInit, message: `Invalid GraphQL response: ${error instanceof Error ? error.name : 'unknown'}` });
    }
    if (response.errors && response.errors.length > 0) {
      const entries: GraphQLErrorEntry[] = response.errors.map((entry) => ({
        message: entry.message,
        ...(entry.path ? { path: entry.path } : {}),
        ...(entry.locations ? { locations: entry.locations } : {}),
        ...(entry.extensions && Object.keys(entry.extensions).length > 0 ? { extensions: entry.extensions } : {}),
      }));
      throw new GraphQLResponseError(entries, { ...errorInit, status: response.status, headers: response.headers, data: response.data });
    }
    return response.data as Result;
  }

  return {
    request,
    /** Creates (input without id) or fully replaces (input with id) a template. */
    saveTemplate: async (input: SaveTemplateInput, callOptions?: CallOptions): Promise<PodTemplate> => {
      const data = await request(SaveTemplateDocument, { input }, callOptions);
      if (!data.saveTemplate) throw new ApiError({ operationId: 'SaveTemplate', message: 'saveTemplate returned null without errors' });
      return data.saveTemplate;
    },
    /** Deletes a template by name; fails while a pod or endpoint uses it. */
    deleteTemplate: async (templateName: string, callOptions?: CallOptions): Promise<void> => {
      await request(DeleteTemplateDocument, { templateName }, callOptions);
    },
    secretCreate: async (input: SecretCreateInput, callOptions?: CallOptions): Promise<Secret> => {
      const data = await request(SecretCreateDocument, { input }, callOptions);
      if (!data.secretCreate) throw new ApiError({ operationId: 'SecretCreate', message: 'secretCreate returned null without errors' });
      return data.secretCreate;
    },
    secretDelete: async (id: string, callOptions?: CallOptions): Promise<void> => {
      await request(SecretDeleteDocument, { id }, callOptions);
    },
    /** One template by id, or null when no template has it. */
    podTemplate: async (id: string, callOptions?: CallOptions): Promise<GetPodTemplateQuery['podTemplate']> =>
      (await request(GetPodTemplateDocument, { id }, callOptions)).podTemplate,
    // The account, GPU, pod, endpoint and registry operations the official SDKs send.
    ...graphqlManagementCalls(request),
  };
}

export type GraphqlClient = ReturnType<typeof createGraphqlClient>;
