// Consumer tests write each pact into a fresh temporary folder, then move it into pacts/ in one
// rename. So a run never leaves stale interactions behind, readers of pacts/ (the spec check, the
// verification test) never see a half-written file, and an unchanged pact is not touched at all.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PACT_DIR, pactFileName, type PactSurface } from '../../src/pact/participants.js';

export type PublishOutcome = 'unchanged' | 'written' | 'stale';

export interface PactWorkspace {
  /** Folder handed to PactV4 as `dir`. */
  readonly dir: string;
  /**
   * Moves the written pact into `targetDir`. Under CI (`CI` set) a differing committed pact is not
   * overwritten: the outcome is `stale`, so the test can fail like a codegen drift check.
   */
  finish(options?: { targetDir?: string; ci?: boolean }): PublishOutcome;
}

/** Stable text of a pact: interactions ordered by description, two-space JSON, final newline. */
export function normalisePact(text: string): string {
  const pact = JSON.parse(text) as { interactions?: { description?: string }[] };
  pact.interactions?.sort((a, b) => (a.description ?? '').localeCompare(b.description ?? ''));
  return `${JSON.stringify(pact, null, 2)}\n`;
}

export function createPactWorkspace(surface: PactSurface): PactWorkspace {
  const dir = mkdtempSync(path.join(os.tmpdir(), `pact-${surface}-`));
  return {
    dir,
    finish({ targetDir = PACT_DIR, ci = Boolean(process.env.CI) } = {}) {
      try {
        const fresh = normalisePact(readFileSync(path.join(dir, pactFileName(surface)), 'utf8'));
        const target = path.join(targetDir, pactFileName(surface));
        const committed = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
        if (committed === fresh) return 'unchanged';
        if (ci && committed !== undefined) return 'stale';
        mkdirSync(targetDir, { recursive: true });
        const temporary = `${target}.${process.pid}.tmp`;
        writeFileSync(temporary, fresh);
        renameSync(temporary, target);
        return 'written';
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
