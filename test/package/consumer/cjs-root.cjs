// (b) The root entry from CommonJS: Node ≥ 20.19 loads the ES module through require(esm).
const root = require('compute-contract');
const issues = root.validateRequest('restV1', 'getPod', { path: { podId: 'pod-1' } });
console.log(JSON.stringify({ createQueueClient: typeof root.createQueueClient, ApiError: typeof root.ApiError, issues }));
