// Account names and the journal kinds of per-account collections: apart from accounts.ts, so the store
// (which names its collections by account) and the accounts directory (which holds the stores) import
// no cycle.
/** The account of every key given without `@ACCOUNT`: today's single identity (`user_mock`). */
export const DEFAULT_ACCOUNT = 'user_mock';
/** Longest account name (documented in docs/mock.md and `mock --help`). */
export const MAX_ACCOUNT_NAME_LENGTH = 64;
/** Letters, digits, `_`, `-`, `.`; starts with a letter or digit (never `:` or `@`, which separate the key spec). */
const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** Why `name` is not an account name, or undefined when it is one. */
export function accountNameProblem(name: string): string | undefined {
  if (name === '') return 'the account name after @ is empty';
  if (name.length > MAX_ACCOUNT_NAME_LENGTH) return `the account name is ${name.length} characters long; at most ${MAX_ACCOUNT_NAME_LENGTH} are allowed`;
  if (!ACCOUNT_NAME.test(name)) return `the account name '${name}' may hold only letters, digits, '_', '-' and '.', starting with a letter or digit`;
  return undefined;
}

/** The journal kind of a collection of `account` (the default account keeps the names state files had before accounts). */
export function accountKind(kind: string, account: string): string {
  return account === DEFAULT_ACCOUNT ? kind : `${kind}@${account}`;
}

/** `pods@acme` → { kind: 'pods', account: 'acme' }; `pods` → the default account. */
export function splitAccountKind(stored: string): { kind: string; account: string } {
  const at = stored.indexOf('@');
  return at === -1 ? { kind: stored, account: DEFAULT_ACCOUNT } : { kind: stored.slice(0, at), account: stored.slice(at + 1) };
}
