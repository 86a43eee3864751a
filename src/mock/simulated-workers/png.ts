// A solid-colour PNG (truecolour, 8 bit), so the image built-in answers a real, decodable image.
import { deflate, deflateSync } from 'node:zlib';
import { promisify } from 'node:util';

const deflateAsync = promisify(deflate);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

type Rgb = readonly [number, number, number];

function header(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return ihdr;
}

/** The image's filtered scanlines (filter byte 0, then RGB triples), before compression. */
function rawRows(width: number, height: number, rgb: Rgb): Buffer {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const raw = Buffer.alloc(row.length * height);
  for (let y = 0; y < height; y++) row.copy(raw, y * row.length);
  return raw;
}

function assemble(width: number, height: number, compressed: Buffer): Buffer {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header(width, height)), chunk('IDAT', compressed), chunk('IEND', Buffer.alloc(0))]);
}

export function solidPng(width: number, height: number, rgb: Rgb): Buffer {
  return assemble(width, height, deflateSync(rawRows(width, height, rgb)));
}

/** The same image, compressed off the event loop (zlib's thread pool): for sizes where deflate takes milliseconds. */
export async function solidPngAsync(width: number, height: number, rgb: Rgb): Promise<Buffer> {
  return assemble(width, height, await deflateAsync(rawRows(width, height, rgb)));
}
