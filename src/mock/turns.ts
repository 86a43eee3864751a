// Work split across event-loop turns (issue 30: bounded work per request). A request whose work grows
// with the account, the window or the payload does it a slice per turn, and other requests are served
// between the slices. One FIFO serves every such request: each setImmediate releases one slice, and the
// next release is queued from inside it, so it lands in the next loop iteration, after the I/O of other
// requests — however many long requests run at once, a turn holds one slice. docs/mock.md "Bounded work".

/** The longest one slice of work is meant to hold the event loop (measured by `npm run bench:bounded-work`). */
export const TURN_BUDGET_MS = 20;

interface Waiting {
  owner: object;
  release: () => void;
}

const waiting: Waiting[] = [];
let releaseQueued = false;
let turns = 0;
/** Owners whose waiting slices are released at once, without a turn of their own (their work is abandoned). */
const abandoned = new WeakSet<object>();

function releaseOne(): void {
  releaseQueued = false;
  let next = waiting.shift();
  while (next && abandoned.has(next.owner)) {
    next.release();
    next = waiting.shift();
  }
  if (waiting.length > 0) {
    releaseQueued = true;
    setImmediate(releaseOne);
  }
  if (next) {
    turns++;
    next.release();
  }
}

/** Resolves in a later event-loop turn, after the slices queued before it; `owner` is the request the work belongs to. */
export function nextTurn(owner: object): Promise<void> {
  return new Promise((release) => {
    waiting.push({ owner, release });
    if (!releaseQueued) {
      releaseQueued = true;
      setImmediate(releaseOne);
    }
  });
}

/** The owner's work stops: its waiting slices resolve at once (the caller checks and fails them). */
export function abandonTurns(owner: object): void {
  abandoned.add(owner);
}

/** Turns handed out so far (tests count them to prove a request was split). */
export function turnsTaken(): number {
  return turns;
}

/** `count` steps, `perTurn` of them per turn (the first slice runs now). */
export async function inSlices(count: number, perTurn: number, owner: object, step: (index: number) => void): Promise<void> {
  for (let start = 0; start < count; start += perTurn) {
    if (start > 0) await nextTurn(owner);
    const end = Math.min(count, start + perTurn);
    for (let i = start; i < end; i++) step(i);
  }
}

/** Views of stored records built per turn by a list (a pod view is ~10–25 µs: a slice stays near 5 ms). */
export const VIEWS_PER_TURN = 250;

/** `items.map(view)`, VIEWS_PER_TURN items per turn; a list that fits one slice is mapped now (no promise). */
export function mapInSlices<T, R>(items: readonly T[], view: (item: T) => R, owner: object = {}): R[] | Promise<R[]> {
  if (items.length <= VIEWS_PER_TURN) return items.map(view);
  const out: R[] = [];
  return inSlices(items.length, VIEWS_PER_TURN, owner, (i) => out.push(view(items[i]!))).then(() => out);
}

/** `f(value)`, after `value` settles when it is a promise (keeps a synchronous path synchronous). */
export const whenReady = <T, R>(value: T | Promise<T>, f: (settled: T) => R): R | Promise<R> => (value instanceof Promise ? value.then(f) : f(value));
