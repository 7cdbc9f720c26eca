import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A camera's EXIF: its make, a description and where the photo was taken (GPS IFD). */
export const CAMERA_EXIF = {
  IFD0: { Make: 'HeedTestCam', Model: 'Pocket 7', ImageDescription: 'taken at home' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '59/1 54/1 3/1', GPSLongitudeRef: 'E', GPSLongitude: '10/1 45/1 7/1' },
};

/** Strings a cleaned file must not hold any more: what the fixtures below write into their metadata. */
export const PRIVATE_MARKERS = [
  'HeedTestCam',
  'Pocket 7',
  'taken at home',
  'Secret comment',
  'x:xmpmeta',
  'GPSLatitude',
  'Exif\0\0',
  'eXIf',
  'tEXt',
  'iTXt',
];

/**
 * A photo-like JPEG with a camera's EXIF and GPS position, optionally an EXIF orientation
 * (6: the sensor's picture must be turned 90° clockwise), and a comment marker.
 * @example await jpegWithGps({ width: 60, height: 40, orientation: 6 })
 */
export async function jpegWithGps(options: { width: number; height: number; orientation?: number }): Promise<Buffer> {
  const image = sharp(await gradient(options.width, options.height))
    .withExif(CAMERA_EXIF)
    .withMetadata({ orientation: options.orientation ?? 1 });
  return insertJpegComment(await image.jpeg({ quality: 95 }).toBuffer(), 'Secret comment');
}

/**
 * A PNG carrying an eXIf chunk (a camera's EXIF with GPS), a tEXt comment and an iTXt XMP packet.
 * @example await pngWithMetadata(32, 16)
 */
export async function pngWithMetadata(width: number, height: number): Promise<Buffer> {
  const png = await sharp(await gradient(width, height))
    .withExif(CAMERA_EXIF)
    .png()
    .toBuffer();
  const xmp = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:Description GPSLatitude="59,54N"/></x:xmpmeta>';
  return pngInsert(png, [
    ['tEXt', Buffer.from('Comment\0Secret comment', 'latin1')],
    ['iTXt', Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\0\0\0\0', 'latin1'), Buffer.from(xmp)])],
  ]);
}

/**
 * An animated GIF of `frames` frames, each a different colour, 100 ms apart, looping forever.
 * @example await animatedGif(3, 10, 10)
 */
export async function animatedGif(frames: number, width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * frames * 3);
  for (let f = 0; f < frames; f++)
    raw.fill(Buffer.from([(f * 80) % 256, 120, 255 - ((f * 80) % 256)]), f * width * height * 3, (f + 1) * width * height * 3);
  return sharp(raw, { raw: { width, height: height * frames, channels: 3, pageHeight: height } })
    .gif({ delay: Array(frames).fill(100), loop: 0 })
    .toBuffer();
}

/**
 * A valid PNG header and IHDR for `width` × `height` whose pixels are one deflated run of zeros:
 * a few kilobytes on disk, `width × height` bytes once decoded (a decompression bomb).
 * 1-bit grey keeps building it cheap (20000 × 20000 is 50 MB of zeros before deflating).
 * @example pngBomb(20_000, 20_000) // ~50 KB
 */
export function pngBomb(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter, no interlace
  const rows = deflateSync(Buffer.alloc((1 + Math.ceil(width / 8)) * height), { level: 9 });
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr), pngChunk('IDAT', rows), pngChunk('IEND', Buffer.alloc(0))]);
}

/**
 * A screenshot-like PNG: flat panels, lines of "text" and a coloured photo area, the mix that a
 * PNG encoder meets in a real screenshot.
 * @example await screenshotPng(1920, 1080)
 */
export async function screenshotPng(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3, 0xf4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      if (x < width / 5)
        raw.fill(0x2b, o, o + 3); // side bar
      else if (y % 24 < 12 && (x * 7 + y * 3) % 11 < 6 && x < width * 0.7)
        raw.fill(0x30, o, o + 3); // text lines
      else if (x >= width * 0.7 && y < height / 2) raw.set([(x * 3) % 256, (y * 5) % 256, ((x ^ y) * 7) % 256], o); // photo area
    }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/**
 * A photo-like JPEG (smooth gradients with noise) of `width` × `height`, as a phone camera writes it.
 * @example await photoJpeg(4000, 3000) // 12 megapixels
 */
export async function photoJpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#6a8caf', noise: { type: 'gaussian', mean: 128, sigma: 12 } } })
    .composite([{ input: await gradient(Math.min(width, 2000), Math.min(height, 2000)), gravity: 'centre', blend: 'overlay' }])
    .withExif(CAMERA_EXIF)
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** Chunks inserted just before a PNG's IEND. */
export function pngInsert(png: Buffer, chunks: [type: string, data: Buffer][]): Buffer {
  const iend = png.length - 12;
  return Buffer.concat([png.subarray(0, iend), ...chunks.map(([type, data]) => pngChunk(type, data)), png.subarray(iend)]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A COM segment right after the JPEG's SOI marker. */
function insertJpegComment(jpeg: Buffer, comment: string): Buffer {
  const text = Buffer.from(comment, 'latin1');
  const segment = Buffer.alloc(4);
  segment.set([0xff, 0xfe], 0);
  segment.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, text, jpeg.subarray(2)]);
}

/** A smooth RGB gradient as a PNG: a picture whose rotation can be seen in its corners. */
async function gradient(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) raw.set([Math.round((255 * x) / width), Math.round((255 * y) / height), 90], (y * width + x) * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}
