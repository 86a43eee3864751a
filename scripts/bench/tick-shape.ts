// What holding one tick object buys (src/contract/tick-object-shape.ts): `process.nextTick`'s cost per tick
// over rounds of bursts, each round followed by full collections while no tick is queued (a server idle
// between loads), in a process that holds a tick object and in one that does not. Each side runs in a fresh
// child (`--expose-gc`): the held object is per process. Bounded: 12 rounds of 300 bursts of 1,000 ticks.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { keepTickObjectShape } from '../../src/contract/tick-object-shape.js';

const ROUNDS = 12;
const BURSTS = 300;
const TICKS_PER_BURST = 1_000;

function burst(): Promise<void> {
  return new Promise((resolve) => {
    let left = TICKS_PER_BURST;
    const tick = () => {
      if (--left === 0) resolve();
    };
    for (let i = 0; i < TICKS_PER_BURST; i++) process.nextTick(tick);
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** ns per tick of each round. */
async function rounds(): Promise<number[]> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('tick-shape child needs --expose-gc');
  const perRound: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < BURSTS; i++) await burst();
    perRound.push(Number(process.hrtime.bigint() - started) / (BURSTS * TICKS_PER_BURST));
    for (let i = 0; i < 2; i++) {
      await pause(20);
      gc();
    }
  }
  return perRound;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

function side(held: boolean): number[] {
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), held ? '--held' : '--free'], { encoding: 'utf8', timeout: 60_000 });
  const line = child.stdout.split('\n').find((l) => l.startsWith('['));
  if (child.status !== 0 || !line) throw new Error(`tick-shape child failed (${child.status}): ${child.stderr.slice(-500)}`);
  return JSON.parse(line) as number[];
}

/** Median ns per tick over the second half of the rounds (after the collections), held and not held. */
export function tickCostAfterIdleCollections(): { heldNs: number; notHeldNs: number; ratio: number } {
  const notHeld = side(false).slice(ROUNDS / 2);
  const held = side(true).slice(ROUNDS / 2);
  const heldNs = +median(held).toFixed(0);
  const notHeldNs = +median(notHeld).toFixed(0);
  return { heldNs, notHeldNs, ratio: +(notHeldNs / heldNs).toFixed(2) };
}

if (process.argv.includes('--held') || process.argv.includes('--free')) {
  if (process.argv.includes('--held')) keepTickObjectShape();
  void rounds().then((perRound) => process.stdout.write(`${JSON.stringify(perRound.map((ns) => +ns.toFixed(1)))}\n`));
}
