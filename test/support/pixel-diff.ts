import { inflateSync } from 'node:zlib';

/** A decoded image: 4 bytes (RGBA) a pixel, row by row. */
export interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Decodes the PNGs Chromium's screenshots are: 8-bit RGB or RGBA, not interlaced (anything
 * else throws): enough to compare screenshots, without a dependency for it.
 *
 * @example const { width, height } = decodePng(await page.screenshot());
 */
export function decodePng(png: Buffer): Rgba {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = body.subarray(8);
      channels = colour === 6 ? 4 : colour === 2 ? 3 : 0;
      if (depth !== 8 || !channels || interlace)
        throw new Error(`unsupported PNG: bit depth ${depth}, colour type ${colour}, interlace ${interlace}`);
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = y * (stride + 1) + 1;
    const row = y * stride;
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? pixels[row + x - channels]! : 0;
      const up = y > 0 ? pixels[row - stride + x]! : 0;
      const upLeft = x >= channels && y > 0 ? pixels[row - stride + x - channels]! : 0;
      pixels[row + x] = (raw[line + x]! + predict(filter, left, up, upLeft)) & 0xff;
    }
  }
  if (channels === 4) return { width, height, data: pixels };
  const data = new Uint8Array(width * height * 4).fill(255);
  for (let i = 0; i < width * height; i++) data.set(pixels.subarray(i * 3, i * 3 + 3), i * 4);
  return { width, height, data };
}

/** The PNG filter types' predictors (None, Sub, Up, Average, Paeth). */
function predict(filter: number, left: number, up: number, upLeft: number): number {
  if (filter === 0) return 0;
  if (filter === 1) return left;
  if (filter === 2) return up;
  if (filter === 3) return (left + up) >> 1;
  if (filter !== 4) throw new Error(`unknown PNG filter ${filter}`);
  const p = left + up - upLeft;
  const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
  return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
}

export interface PixelDiff {
  /** pixels where some channel differs by more than the threshold */
  differing: number;
  total: number;
  /** differing / total; 1 when the sizes differ */
  ratio: number;
}

/**
 * How much two screenshots differ: the share of pixels where any channel differs by more
 * than `threshold` (0–255; a little slack for anti-aliasing). Images of different sizes
 * differ entirely.
 *
 * @example expect(pixelDiff(plainPng, hostilePng).ratio).toBeLessThan(0.001);
 */
export function pixelDiff(a: Buffer, b: Buffer, threshold = 16): PixelDiff {
  const [x, y] = [decodePng(a), decodePng(b)];
  const total = x.width * x.height;
  if (x.width !== y.width || x.height !== y.height) return { differing: total, total, ratio: 1 };
  let differing = 0;
  for (let i = 0; i < x.data.length; i += 4) {
    for (let c = 0; c < 4; c++) {
      if (Math.abs(x.data[i + c]! - y.data[i + c]!) > threshold) {
        differing++;
        break;
      }
    }
  }
  return { differing, total, ratio: differing / total };
}
