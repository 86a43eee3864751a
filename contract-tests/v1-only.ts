// The rules of surface queue v2, GraphQL, REST v2 or `all` that stay judged through REST v1 only: on a target
// without REST v1 (the service since 2026-11-15) they are skipped "needs --rest-url". Each one's behaviour
// is a REST v1 field, parameter or default seen from another surface; what else it states is judged by
// other rules on such a target. docs/real-targets.md shows this list as a table; keep the two together.
export const V1_ONLY: ReadonlyMap<string, string> = new Map([
  ['GQL-TEMPLATE-014', 'dockerArgs read back as REST v1\'s dockerStartCmd (and back): a REST v1 field; REST v2 keeps args as given (RESTV2-TEMPLATE-*)'],
  ['RESTV2-CROSS-003', 'the REST v2 endpoint is the one REST v1 getEndpoint reads; its queue v2 half is what every queue v2 rule does on a REST v2 endpoint'],
  ['RESTV2-CROSS-004', 'a pod\'s template as REST v1 templateId, and a REST v1 pod made from a template seen through REST v2'],
  ['RESTV2-CROSS-005', 'REST v1\'s own default (volumeInGb 20 at /workspace) must not leak into a REST v2 template: a REST v1 default'],
  ['RESTV2-POD-007', 'a REST v1 pod read through REST v2 with the migration map\'s renames, and a REST v2 pod through REST v1: the REST v1 side of the map'],
  ['RESTV2-ENDPOINT-005', 'the endpoint\'s own template as REST v1 getEndpoint names it and REST v1 listTemplates lists it (includeEndpointBoundTemplates)'],
  ['CAPACITY-HEAP-001', 'the memory ceiling\'s 503 on REST v1 creates (REST v1 error body); mock-only, judged in the full embedded run'],
]);
