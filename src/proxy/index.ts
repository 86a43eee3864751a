// Validating proxy and offline traffic check (docs/proxy.md): per-exchange judgement against the specs.
export { startProxy, parseUpstream, REPORT_PATH, MAX_HEAD_BYTES, type ProxyOptions, type RunningProxy } from './forward.js';
export { judgeExchange, type Judgement, type JudgeOptions } from './judge.js';
export { classify, parseSurface, TRAFFIC_SURFACES, type Classification, type TrafficSurface } from './classify.js';
export { MAX_CAPTURED_BODY_BYTES, type Exchange, type CapturedBody, type Violation } from './exchange.js';
export { readHar, parseHar, HarError, MAX_HAR_BYTES, MAX_HAR_ENTRIES, type HarEntry, type HarMiss } from './har.js';
export { checkTraffic, type TrafficCheck } from './traffic-check.js';
export { SecretBook, MAX_SECRETS, MIN_SECRET_LENGTH } from './secrets.js';
export { Tally, exitCodeOf, MAX_DISTINCT_VIOLATIONS, type TrafficReport, type TallyViolation } from './tally.js';
export { writeTrafficReports, trafficDocument, trafficJunit } from './report-files.js';
export { failingLevels } from './levels-option.js';
export { IdOwners, MAX_REMEMBERED_IDS, objectIds } from './id-owners.js';
export { AnswerMemo, MEMO_MAX_ANSWERS, MEMO_MAX_BODY_BYTES, type ParsedAnswer } from './answer-memo.js';
