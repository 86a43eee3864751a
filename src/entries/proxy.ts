// `compute-contract/proxy`: the validating proxy and the offline traffic check (HAR), judging exchanges against the specs.
export * from '../proxy/index.js';
