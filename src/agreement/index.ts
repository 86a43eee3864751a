// Property-based agreement of the mock (or any target) with the bundled specs: seeded spec-valid
// requests and single-point violations for every operation of REST v1, queue v2, GraphQL and REST v2.
export { runAgreement, allOperations, operationSeed, type AgreementOptions, type AgreementReport, type AgreementFailure } from './runner.js';
export { ALLOWED_REFUSALS, checkAllowList, type AllowedRefusal } from './allow-list.js';
export type { AgreementTarget } from './transport.js';
export { heapAfterGc } from './heap.js';
