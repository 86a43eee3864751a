// The migration example runs from a clean clone (`npm run example:migrate`) and shows what it promises:
// REST v2 reading REST v1's resources, and REST v1 answering 410 Gone after retirement.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('examples/migrate-v1-to-v2', () => {
  it('runs to the end: v1 creates, v2 reads and updates, retired v1 answers 410 naming the v2 operation', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'examples/migrate-v1-to-v2/migrate.ts'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/REST v1 created template (\w+) and endpoint \w+/);
    expect(run.stdout).toMatch(/REST v2 updateTemplate → image example\/worker:1\.1; REST v1 now reads imageName example\/worker:1\.1/);
    expect(run.stdout).toMatch(/gets 410: REST v1 was retired on 2026-11-15; use GET \/v2\/templates \(REST v2 listTemplates\) instead/);
    expect(run.stdout).toMatch(/REST v2 still lists inference-worker \(example\/worker:1\.1\)/);
  }, 90_000);
});
