import sharp from 'sharp';
import { expect, test } from 'vitest';
import {
  animatedGif,
  jpegWithGps,
  PRIVATE_MARKERS,
  pngBomb,
  pngWithMetadata,
  screenshotPng,
} from '../../../../test/support/image-fixtures.ts';
import { cleanImage } from './clean-image.ts';

/** The markers of metadata still in a file's raw bytes. */
const markersIn = (bytes: Buffer) => PRIVATE_MARKERS.filter((marker) => bytes.includes(marker, 0, 'latin1'));

async function cleaned(bytes: Buffer, kind: Parameters<typeof cleanImage>[1]) {
  const out = await cleanImage(bytes, kind);
  if (!out.ok) throw new Error(out.message);
  return out;
}

test('a PNG loses its EXIF (with GPS), text and XMP chunks and keeps every pixel', async () => {
  const png = await pngWithMetadata(32, 16);
  expect(markersIn(png)).toEqual(expect.arrayContaining(['eXIf', 'tEXt', 'iTXt', 'GPSLatitude', 'HeedTestCam']));
  const out = await cleaned(png, 'png');
  const meta = await sharp(out.bytes).metadata();
  expect({ format: meta.format, exif: meta.exif, xmp: meta.xmp, icc: meta.icc, comments: meta.comments }).toEqual({
    format: 'png',
    exif: undefined,
    xmp: undefined,
    icc: undefined,
    comments: undefined,
  });
  expect(markersIn(out.bytes)).toEqual([]);
  expect({ width: out.width, height: out.height }).toEqual({ width: 32, height: 16 });
  expect(await sharp(out.bytes).raw().toBuffer()).toEqual(await sharp(png).raw().toBuffer());
});

test('a JPEG loses its EXIF with the GPS position, its comment and its colour profile', async () => {
  const jpeg = await jpegWithGps({ width: 48, height: 32 });
  expect((await sharp(jpeg).metadata()).exif).toBeDefined();
  expect(markersIn(jpeg)).toEqual(expect.arrayContaining(['Exif\0\0', 'HeedTestCam', 'Secret comment']));
  const out = await cleaned(jpeg, 'jpeg');
  const meta = await sharp(out.bytes).metadata();
  expect({ format: meta.format, exif: meta.exif, xmp: meta.xmp, icc: meta.icc }).toEqual({
    format: 'jpeg',
    exif: undefined,
    xmp: undefined,
    icc: undefined,
  });
  expect(markersIn(out.bytes)).toEqual([]);
});

test('a photo taken sideways (EXIF orientation 6) is turned upright and its orientation tag is gone', async () => {
  const jpeg = await jpegWithGps({ width: 60, height: 40, orientation: 6 });
  expect((await sharp(jpeg).metadata()).orientation).toBe(6);
  const out = await cleaned(jpeg, 'jpeg');
  expect({ width: out.width, height: out.height }).toEqual({ width: 40, height: 60 });
  const meta = await sharp(out.bytes).metadata();
  expect({ width: meta.width, height: meta.height, orientation: meta.orientation }).toEqual({
    width: 40,
    height: 60,
    orientation: undefined,
  });
  // the gradient's red grows to the right and its green downwards: turned clockwise, the bottom-left corner is now the top-left
  const { data, info } = await sharp(out.bytes).raw().toBuffer({ resolveWithObject: true });
  const [red, green] = [data[0]!, data[1]!];
  expect(red).toBeLessThan(40);
  expect(green).toBeGreaterThan(200);
  expect(info.channels).toBe(3);
});

test('an animated GIF keeps its frames, their timing and its looping', async () => {
  const out = await cleaned(await animatedGif(3, 10, 10), 'gif');
  expect({ width: out.width, height: out.height }).toEqual({ width: 10, height: 10 });
  const meta = await sharp(out.bytes).metadata();
  expect({ format: meta.format, pages: meta.pages, delay: meta.delay, loop: meta.loop }).toEqual({
    format: 'gif',
    pages: 3,
    delay: [100, 100, 100],
    loop: 0,
  });
});

test('a lossless WebP stays lossless; a lossy one is encoded again', async () => {
  const shot = await screenshotPng(120, 80);
  const lossless = await sharp(shot).webp({ lossless: true }).toBuffer();
  const out = await cleaned(lossless, 'webp');
  expect(await sharp(out.bytes).raw().toBuffer()).toEqual(await sharp(shot).raw().toBuffer());
  const lossy = await cleaned(await sharp(shot).webp({ quality: 80 }).toBuffer(), 'webp');
  expect((await sharp(lossy.bytes).metadata()).format).toBe('webp');
});

test('an image cut off halfway, or only a header, is damaged', async () => {
  const png = await screenshotPng(400, 300);
  for (const broken of [png.subarray(0, png.length >> 1), png.subarray(0, 40)]) {
    const out = await cleanImage(broken, 'png');
    expect(out).toMatchObject({ ok: false, code: 'file_damaged' });
    expect(out.ok || out.message).toMatch(/PNG image but could not be read/);
  }
  expect(await cleanImage(Buffer.from('GIF89a<html><script>alert(1)</script></html>'), 'gif')).toMatchObject({ code: 'file_damaged' });
});

test('a 20000 × 20000 decompression bomb is refused from its header, its pixels never decoded', async () => {
  const bomb = pngBomb(20_000, 20_000);
  expect(bomb.length).toBeLessThan(100_000);
  const before = process.memoryUsage().rss;
  const out = await cleanImage(bomb, 'png');
  // decoding would take 400 MB (one byte a pixel); refusing from the header takes next to nothing
  expect(process.memoryUsage().rss - before).toBeLessThan(50_000_000);
  expect(out).toEqual({
    ok: false,
    code: 'file_too_large',
    message: 'This image is 20000 × 20000 pixels; images of up to 40 megapixels can be attached.',
  });
});

test('an animation counts the pixels of all its frames', async () => {
  // three 4000 × 4000 frames whose pixel data stops at once: a few bytes that would decode to 48 megapixels
  const gif = Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    Buffer.from([0xa0, 0x0f, 0xa0, 0x0f, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff]),
    Buffer.from([0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0', 'latin1'), 0x03, 0x01, 0, 0, 0]),
    ...Array.from({ length: 3 }, () =>
      Buffer.from([0x21, 0xf9, 0x04, 0, 10, 0, 0, 0, 0x2c, 0, 0, 0, 0, 0xa0, 0x0f, 0xa0, 0x0f, 0, 0x02, 0x02, 0x44, 0x01, 0]),
    ),
    Buffer.from([0x3b]),
  ]);
  expect((await sharp(gif).metadata()).pages).toBe(3);
  expect(await cleanImage(gif, 'gif')).toEqual({
    ok: false,
    code: 'file_too_large',
    message: 'This image is 4000 × 4000 pixels in 3 frames; images of up to 40 megapixels can be attached.',
  });
});
