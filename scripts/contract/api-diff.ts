// The TypeScript API diff: API Extractor's reports (etc/api/*.api.md) of the last release and of now, read
// with the TypeScript parser into one entry per exported name and member ("compute-contract: RestV2Client
// .serverless.builds.list"). A removed entry, a function whose parameters or result changed, or a property
// made required is breaking; a changed type elsewhere is dangerous (it may widen or narrow); added is safe.
import ts from 'typescript';
import type { ContractChange } from './change.js';

type Entry =
  | { kind: 'function'; params: { name: string; optional: boolean; type: string }[]; returns: string }
  | { kind: 'property'; optional: boolean; type: string }
  | { kind: 'container' }
  | { kind: 'other'; text: string };

/** The TypeScript code block of an API report. */
function codeOf(report: string): string {
  const start = report.indexOf('```ts');
  const end = report.lastIndexOf('```');
  return start === -1 || end <= start ? '' : report.slice(start + 5, end);
}

// API Extractor renames clashing names Foo_2, Foo_3 … in the order it meets them; the suffix moves when an
// unrelated declaration is added, so it is not part of a type's meaning.
const normal = (text: string) => text.replace(/\b([A-Za-z]\w*)_\d+\b/g, '$1').replace(/\s+/g, ' ').trim();

function nameOf(node: ts.Node & { name?: ts.Node }, source: ts.SourceFile): string {
  const name = node.name;
  if (!name) return '(default)';
  return ts.isComputedPropertyName(name) ? name.getText(source) : (name as ts.Identifier).text ?? name.getText(source);
}

function functionEntry(node: ts.SignatureDeclarationBase, source: ts.SourceFile, key: string, out: Map<string, Entry>): Entry {
  const members = membersOf(node.type);
  // A factory returning an object literal type (createRestV2Client) is judged member by member: `key().pods.list`.
  if (members.length > 0) collectMembers(members.flatMap((m) => [...m]), `${key}()`, source, out);
  return {
    kind: 'function',
    params: node.parameters.map((p) => ({ name: p.name.getText(source), optional: !!p.questionToken || !!p.initializer || !!p.dotDotDotToken, type: normal(p.type?.getText(source) ?? 'any') })),
    returns: members.length > 0 ? '{ … }' : normal(node.type?.getText(source) ?? 'void'),
  };
}

/** Members of a type that reads as an object: a literal, or an intersection of literals. */
function membersOf(type: ts.TypeNode | undefined): ts.NodeArray<ts.TypeElement>[] {
  if (!type) return [];
  if (ts.isTypeLiteralNode(type)) return [type.members];
  if (ts.isIntersectionTypeNode(type)) return type.types.flatMap((t) => membersOf(t));
  if (ts.isParenthesizedTypeNode(type)) return membersOf(type.type);
  return [];
}

function collectMembers(members: readonly ts.Node[], prefix: string, source: ts.SourceFile, out: Map<string, Entry>): void {
  for (const member of members) {
    if (ts.isConstructorDeclaration(member) || ts.isConstructSignatureDeclaration(member)) {
      out.set(`${prefix}.constructor`, functionEntry(member, source, `${prefix}.constructor`, out));
    } else if (ts.isMethodSignature(member) || ts.isMethodDeclaration(member)) {
      const name = `${prefix}.${nameOf(member, source)}`;
      const key = out.has(name) ? `${name}#${[...out.keys()].filter((k) => k.startsWith(name)).length}` : name;
      out.set(key, functionEntry(member, source, key, out));
    } else if (ts.isPropertySignature(member) || ts.isPropertyDeclaration(member)) {
      const key = `${prefix}.${nameOf(member, source)}`;
      const type = member.type;
      if (type && ts.isFunctionTypeNode(type)) out.set(key, functionEntry(type, source, key, out));
      else if (membersOf(type).length > 0) {
        out.set(key, { kind: 'container' });
        collectMembers(membersOf(type).flatMap((m) => [...m]), key, source, out);
      } else out.set(key, { kind: 'property', optional: !!member.questionToken, type: normal(type?.getText(source) ?? 'any') });
    } else if (ts.isGetAccessor(member) || ts.isSetAccessor(member)) {
      out.set(`${prefix}.${nameOf(member, source)}`, { kind: 'property', optional: false, type: normal(member.type?.getText(source) ?? 'any') });
    } else if (ts.isCallSignatureDeclaration(member)) {
      out.set(`${prefix}()`, functionEntry(member, source, `${prefix}()`, out));
    } else if (ts.isIndexSignatureDeclaration(member)) {
      out.set(`${prefix}[]`, { kind: 'other', text: normal(member.getText(source)) });
    } else if (ts.isEnumMember(member)) {
      out.set(`${prefix}.${nameOf(member, source)}`, { kind: 'other', text: normal(member.getText(source)) });
    }
  }
}

/** Every exported name and member of one API report, keyed "Name" / "Name.member.member". */
export function apiEntriesOf(report: string): Map<string, Entry> {
  const source = ts.createSourceFile('report.d.ts', codeOf(report), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out = new Map<string, Entry>();
  for (const statement of source.statements) {
    const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (ts.isExportDeclaration(statement)) {
      // `export { a as b }`: each exported name is an entry.
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause)) for (const element of clause.elements) out.set(element.name.text, { kind: 'other', text: normal(element.getText(source)) });
      continue;
    }
    if (!exported) continue;
    if (ts.isFunctionDeclaration(statement)) {
      const name = nameOf(statement, source);
      const key = out.has(name) ? `${name}#${[...out.keys()].filter((k) => k === name || k.startsWith(`${name}#`)).length}` : name;
      out.set(key, functionEntry(statement, source, key, out));
    } else if (ts.isInterfaceDeclaration(statement) || ts.isClassDeclaration(statement)) {
      const key = nameOf(statement, source);
      out.set(key, { kind: 'container' });
      collectMembers([...statement.members], key, source, out);
    } else if (ts.isEnumDeclaration(statement)) {
      const key = nameOf(statement, source);
      out.set(key, { kind: 'container' });
      collectMembers([...statement.members], key, source, out);
    } else if (ts.isTypeAliasDeclaration(statement)) {
      const key = nameOf(statement, source);
      if (membersOf(statement.type).length > 0 && !statement.typeParameters) {
        out.set(key, { kind: 'container' });
        collectMembers(membersOf(statement.type).flatMap((m) => [...m]), key, source, out);
      } else out.set(key, { kind: 'other', text: normal(statement.getText(source)) });
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const key = declaration.name.getText(source);
        const type = declaration.type;
        if (type && ts.isFunctionTypeNode(type)) out.set(key, functionEntry(type, source, key, out));
        else if (membersOf(type).length > 0) {
          out.set(key, { kind: 'container' });
          collectMembers(membersOf(type).flatMap((m) => [...m]), key, source, out);
        } else out.set(key, { kind: 'property', optional: false, type: normal(type?.getText(source) ?? declaration.initializer?.getText(source) ?? 'any') });
      }
    } else if (ts.isModuleDeclaration(statement)) {
      out.set(nameOf(statement, source), { kind: 'other', text: normal(statement.getText(source)) });
    }
  }
  return out;
}

function judgeFunction(before: Extract<Entry, { kind: 'function' }>, after: Extract<Entry, { kind: 'function' }>): { level: ContractChange['level']; why: string } | undefined {
  const reasons: string[] = [];
  before.params.forEach((param, index) => {
    const now = after.params[index];
    if (!now) reasons.push(`parameter \`${param.name}\` removed`);
    else if (now.type !== param.type) reasons.push(`parameter \`${param.name}\`: ${param.type} -> ${now.type}`);
    else if (param.optional && !now.optional) reasons.push(`parameter \`${param.name}\` now required`);
  });
  const added = after.params.slice(before.params.length);
  for (const param of added) if (!param.optional) reasons.push(`new required parameter \`${param.name}\``);
  if (before.returns !== after.returns) reasons.push(`result ${before.returns} -> ${after.returns}`);
  if (reasons.length > 0) return { level: 'breaking', why: reasons.join('; ') };
  if (added.length > 0) return { level: 'safe', why: `new optional parameter(s) ${added.map((p) => `\`${p.name}\``).join(', ')}` };
  const loosened = before.params.filter((param, index) => !param.optional && after.params[index]?.optional);
  if (loosened.length > 0) return { level: 'safe', why: `parameter(s) ${loosened.map((p) => `\`${p.name}\``).join(', ')} now optional` };
  return undefined;
}

function shorten(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** Names a CHANGELOG line can use for an entry: the full path, and its last two or one segments. */
function namesFor(entryPoint: string, key: string): string[] {
  const parts = key.replace(/#\d+$/, '').split('.');
  const names = new Set([key.replace(/#\d+$/, ''), `${entryPoint}:${key}`]);
  if (parts.length > 2) names.add(parts.slice(-2).join('.'));
  if (parts.length > 1) names.add(parts.slice(1).join('.'));
  return [...names];
}

/** entryPoint: the package subpath the reports belong to ("compute-contract", "compute-contract/mock"). */
export function diffApiReports(entryPoint: string, beforeReport: string | undefined, afterReport: string | undefined): ContractChange[] {
  if (beforeReport === afterReport) return [];
  const before = beforeReport === undefined ? new Map<string, Entry>() : apiEntriesOf(beforeReport);
  const after = afterReport === undefined ? new Map<string, Entry>() : apiEntriesOf(afterReport);
  const changes: ContractChange[] = [];
  const parentIn = (key: string, map: Map<string, Entry>) => {
    const cut = key.lastIndexOf('.');
    return cut === -1 || map.has(key.slice(0, cut));
  };
  const push = (key: string, level: ContractChange['level'], action: ContractChange['action'], why: string) =>
    changes.push({ surface: 'typescript', level, party: 'caller', action, subject: `${entryPoint}: ${key}`, what: `${entryPoint}: \`${key.replace(/#\d+$/, '')}\` ${why}`, names: namesFor(entryPoint, key) });
  if (beforeReport !== undefined && afterReport === undefined) {
    changes.push({ surface: 'typescript', level: 'breaking', party: 'caller', action: 'removed', subject: entryPoint, what: `entry point \`${entryPoint}\` removed`, names: [entryPoint] });
    return changes;
  }
  for (const [key, entry] of before) {
    const now = after.get(key);
    // Only the outermost removal is named: a removed interface's members went with it.
    if (!now) {
      if (after.size > 0 && !parentIn(key, after) && key.includes('.')) continue;
      push(key, 'breaking', 'removed', 'removed');
      continue;
    }
    if (now.kind !== entry.kind) {
      push(key, 'breaking', 'changed', `changed from a ${entry.kind} to a ${now.kind}`);
    } else if (entry.kind === 'function' && now.kind === 'function') {
      const judged = judgeFunction(entry, now);
      if (judged) push(key, judged.level, 'changed', judged.why);
    } else if (entry.kind === 'property' && now.kind === 'property') {
      if (entry.optional && !now.optional) push(key, 'breaking', 'changed', 'now required');
      else if (entry.type !== now.type) push(key, 'dangerous', 'changed', `type ${shorten(entry.type)} -> ${shorten(now.type)}`);
      else if (!entry.optional && now.optional) push(key, 'dangerous', 'changed', 'now optional');
    } else if (entry.kind === 'other' && now.kind === 'other' && entry.text !== now.text) {
      push(key, 'dangerous', 'changed', `${shorten(entry.text)} -> ${shorten(now.text)}`);
    }
  }
  for (const key of after.keys()) {
    if (before.has(key)) continue;
    if (before.size > 0 && !parentIn(key, before) && key.includes('.')) continue;
    push(key, 'safe', 'added', 'added');
  }
  return changes;
}
