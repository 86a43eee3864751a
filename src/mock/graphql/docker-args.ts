// GraphQL `dockerArgs` (one string) ⇄ REST v1 `dockerStartCmd` / `dockerEntrypoint` (string arrays).
// The arrays are what the mock stores; dockerArgs is derived from them on every GraphQL read, so both
// surfaces always show the same start command. Forms of dockerArgs:
//   ""                                    no start command (both arrays empty)
//   {"cmd":[…],"entrypoint":[…]}          the encoding the real service stores (observed), any arrays
//   anything else                         a shell-like command line: split into dockerStartCmd
// Splitting follows POSIX shell words (whitespace separates; '…' literal; "…" with \" \\ \$ \`
// escapes; \ escapes outside quotes); an unterminated quote runs to the end (never an error).

export interface StartCommand {
  dockerStartCmd: string[];
  dockerEntrypoint: string[];
}

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function parseDockerArgs(value: string | null | undefined): StartCommand {
  if (value === null || value === undefined || value.trim() === '') return { dockerStartCmd: [], dockerEntrypoint: [] };
  return decodeJson(value) ?? { dockerStartCmd: splitShellWords(value), dockerEntrypoint: [] };
}

/** The dockerArgs GraphQL shows for stored arrays; `original` (the caller's own text) wins while it still means the same. */
export function renderDockerArgs(command: StartCommand, original?: unknown): string {
  if (typeof original === 'string' && sameCommand(parseDockerArgs(original), command)) return original;
  const { dockerStartCmd: cmd, dockerEntrypoint: entrypoint } = command;
  if (cmd.length === 0 && entrypoint.length === 0) return '';
  if (entrypoint.length > 0) return JSON.stringify({ cmd, entrypoint });
  return cmd.map(quoteShellWord).join(' ');
}

/** Stored arrays of a template record (REST defaults to []). */
export function startCommandOf(record: Record<string, unknown>): StartCommand {
  return { dockerStartCmd: stringArray(record['dockerStartCmd']), dockerEntrypoint: stringArray(record['dockerEntrypoint']) };
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function sameCommand(a: StartCommand, b: StartCommand): boolean {
  const same = (x: string[], y: string[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  return same(a.dockerStartCmd, b.dockerStartCmd) && same(a.dockerEntrypoint, b.dockerEntrypoint);
}

function decodeJson(value: string): StartCommand | undefined {
  const text = value.trim();
  if (!text.startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const { cmd, entrypoint, ...rest } = parsed as Record<string, unknown>;
  const isList = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((s) => typeof s === 'string'));
  if (Object.keys(rest).length > 0 || !isList(cmd) || !isList(entrypoint) || (cmd === undefined && entrypoint === undefined)) return undefined;
  return { dockerStartCmd: (cmd as string[] | undefined) ?? [], dockerEntrypoint: (entrypoint as string[] | undefined) ?? [] };
}

export function splitShellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word += line.slice(i + 1, end === -1 ? line.length : end);
      inWord = true;
      i = end === -1 ? line.length : end + 1;
    } else if (c === '"') {
      inWord = true;
      i++;
      while (i < line.length && line[i] !== '"') {
        if (line[i] === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) i++;
        word += line[i]!;
        i++;
      }
      i++;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[i + 1]!;
      inWord = true;
      i += 2;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}

function quoteShellWord(word: string): string {
  if (SAFE_WORD.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
