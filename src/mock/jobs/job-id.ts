// Job ids as RunPod's (`<uuid v4>-u1`; `sync-<uuid v4>-u1` for /runsync), each made as one flat string. Node's
// randomUUID() joins some twenty short pieces into a tree of ~15 cons strings (~480 bytes), which every stored job
// would keep for its lifetime: under a /run flood that was half of a queued job's heap, and of the mock's GC work.
import { randomFillSync } from 'node:crypto';

/** Random bytes are drawn for this many ids at a time (one call into the CSPRNG per batch, as randomUUID does). */
const IDS_PER_FILL = 256;
const UUID_BYTES = 16;
const entropy = Buffer.alloc(UUID_BYTES * IDS_PER_FILL);
let drawn = IDS_PER_FILL;

const HEX = Buffer.from('0123456789abcdef', 'latin1');
const SYNC_PREFIX = Buffer.from('sync-', 'latin1');
const SUFFIX = Buffer.from('-u1', 'latin1');
const DASH = 0x2d;
/** The id's characters are written here, then read out as one string. */
const text = Buffer.alloc(SYNC_PREFIX.length + 36 + SUFFIX.length);

export function newJobId(sync: boolean): string {
  if (drawn === IDS_PER_FILL) {
    randomFillSync(entropy);
    drawn = 0;
  }
  const from = UUID_BYTES * drawn++;
  let at = sync ? SYNC_PREFIX.copy(text, 0) : 0;
  for (let i = 0; i < UUID_BYTES; i++) {
    let byte = entropy[from + i]!;
    // RFC 9562: version 4 in byte 6's high nibble, variant 0b10 in byte 8's two high bits.
    if (i === 6) byte = (byte & 0x0f) | 0x40;
    else if (i === 8) byte = (byte & 0x3f) | 0x80;
    text[at++] = HEX[byte >> 4]!;
    text[at++] = HEX[byte & 0x0f]!;
    if (i === 3 || i === 5 || i === 7 || i === 9) text[at++] = DASH;
  }
  at += SUFFIX.copy(text, at);
  return text.toString('latin1', 0, at);
}
