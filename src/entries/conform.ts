// `compute-contract/conform`: the conformance suite (one check per rule of specs/rules.yaml) and the rule catalogue.
export * from '../conform/index.js';
export { rules, type RuleId, type Rule } from '../../generated/rules.js';
