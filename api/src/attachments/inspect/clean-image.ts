import sharp, { type Metadata, type Sharp } from 'sharp';
import type { UploadRefusalCode } from '../../shared/attachment-kinds.ts';

// Sized for a 2-core server: one libvips thread per image (sharp's own default on glibc without
// jemalloc, set here so it holds on every build) leaves the other core to the event loop, and no
// operation cache: an upload is decoded once, so cached pixels would only hold memory.
sharp.concurrency(1);
sharp.cache(false);

/** An image of more pixels than this (all frames together) is refused before it is decoded. */
export const IMAGE_PIXELS_MAX = 40_000_000;

/** An image that takes longer than this to clean is given up (a many-framed GIF can be slow, not large). */
const CLEAN_SECONDS_MAX = 30;

export type ImageKind = 'png' | 'jpeg' | 'webp' | 'gif';

export type CleanedImage =
  | { ok: true; bytes: Buffer; width: number; height: number }
  | { ok: false; code: Extract<UploadRefusalCode, 'file_damaged' | 'file_too_large'>; message: string };

/**
 * An image as Heed stores it: decoded, turned upright by its EXIF orientation, and encoded again
 * in its own format with no metadata at all (EXIF with its GPS position, XMP, ICC profile,
 * comments and text chunks), animations kept. PNG and lossless WebP stay lossless; JPEG and lossy
 * WebP are encoded at quality 90, which looks the same. An image that does not decode is
 * `file_damaged`; one of more than 40 megapixels is `file_too_large` before any pixel is decoded,
 * so a decompression bomb costs nothing.
 * @example await cleanImage(photo, 'jpeg') // { ok: true, bytes: <Buffer ff d8 …>, width: 3024, height: 4032 }
 */
export async function cleanImage(bytes: Buffer, kind: ImageKind): Promise<CleanedImage> {
  // failOn 'error': a truncated or broken file is refused, a camera's harmless warning is not
  const options = { failOn: 'error', limitInputPixels: IMAGE_PIXELS_MAX, animated: true } as const;
  let header: Metadata;
  try {
    // the header alone, read without the limit so that a refusal can say the image's size
    header = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
  } catch (err) {
    return refusal(err, kind);
  }
  if (header.format !== kind) return damaged(kind);
  const frames = header.pages ?? 1;
  const frameHeight = header.pageHeight ?? header.height;
  if (header.width * frameHeight * frames > IMAGE_PIXELS_MAX) return tooManyPixels(header.width, frameHeight, frames);
  try {
    const upright = sharp(bytes, options).rotate().timeout({ seconds: CLEAN_SECONDS_MAX });
    const { data, info } = await encode(upright, kind, bytes).toBuffer({ resolveWithObject: true });
    return { ok: true, bytes: data, width: info.width, height: info.pageHeight ?? info.height };
  } catch (err) {
    return refusal(err, kind);
  }
}

/** The same format again; sharp writes no metadata unless asked to. */
function encode(image: Sharp, kind: ImageKind, input: Buffer): Sharp {
  if (kind === 'png') return image.png();
  if (kind === 'jpeg') return image.jpeg({ quality: 90 });
  if (kind === 'webp') return isLosslessWebp(input) ? image.webp({ lossless: true }) : image.webp({ quality: 90 });
  return image.gif();
}

/** A WebP whose image data is VP8L (lossless) rather than VP8: a screenshot saved as WebP often is. */
function isLosslessWebp(bytes: Buffer): boolean {
  // RIFF chunks after the 12-byte header: VP8L, or VP8X then ALPH/ANIM/ANMF…; an animation's frames nest theirs
  for (let at = 12; at + 8 <= bytes.length; ) {
    const fourcc = bytes.toString('latin1', at, at + 4);
    if (fourcc === 'VP8L') return true;
    if (fourcc === 'VP8 ') return false;
    // ANMF frame: 16 bytes of frame header, then the frame's own chunks
    at += fourcc === 'ANMF' ? 8 + 16 : 8 + bytes.readUInt32LE(at + 4) + (bytes.readUInt32LE(at + 4) % 2);
  }
  return false;
}

function refusal(err: unknown, kind: ImageKind): CleanedImage {
  const message = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(message)) return tooManyPixels(null, null, 1);
  if (/timeout/i.test(message))
    return { ok: false, code: 'file_too_large', message: 'This image takes too long to process; try a smaller one.' };
  return damaged(kind);
}

function damaged(kind: ImageKind): CleanedImage {
  const name = { png: 'PNG', jpeg: 'JPEG', webp: 'WebP', gif: 'GIF' }[kind];
  return {
    ok: false,
    code: 'file_damaged',
    message: `This file starts like a ${name} image but could not be read as one; it may be damaged or incomplete.`,
  };
}

function tooManyPixels(width: number | null, height: number | null, frames: number): CleanedImage {
  const size =
    width && height
      ? `This image is ${width} × ${height} pixels${frames > 1 ? ` in ${frames} frames` : ''}; `
      : 'This image has too many pixels; ';
  return {
    ok: false,
    code: 'file_too_large',
    message: `${size}images of up to ${IMAGE_PIXELS_MAX / 1_000_000} megapixels can be attached.`,
  };
}
