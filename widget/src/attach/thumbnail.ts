/**
 * Draws an image file into `canvas`, centred and cropped to fill it. Decoded with
 * `createImageBitmap`, never through a `blob:` or `data:` URL: the host page's CSP (`img-src`)
 * may refuse both, and a canvas needs no address at all. Resolves false when the browser cannot
 * decode the file (the chip shows a file icon instead; the server still decides from the bytes).
 *
 * @example if (!(await drawThumbnail(canvas, file))) showIcon();
 */
export async function drawThumbnail(canvas: HTMLCanvasElement, file: Blob): Promise<boolean> {
  try {
    const bitmap = await createImageBitmap(file);
    const { width, height } = canvas;
    const scale = Math.max(width / bitmap.width, height / bitmap.height);
    const w = width / scale;
    const h = height / scale;
    canvas.getContext('2d')?.drawImage(bitmap, (bitmap.width - w) / 2, (bitmap.height - h) / 2, w, h, 0, 0, width, height);
    bitmap.close();
    return true;
  } catch {
    return false;
  }
}
