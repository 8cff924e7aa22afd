export type ImageKind = 'png' | 'jpeg';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

/**
 * The image kind when BOTH the file name's extension (jpg, jpeg, png) and the leading magic
 * bytes agree; undefined otherwise. A text file renamed .png, or a PNG renamed .gif, is refused.
 */
export function sniffImage(fileName: string, bytes: Buffer): ImageKind | undefined {
  const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (ext === 'png' && bytes.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC)) return 'png';
  if ((ext === 'jpg' || ext === 'jpeg') && bytes.subarray(0, JPEG_MAGIC.length).equals(JPEG_MAGIC)) return 'jpeg';
  return undefined;
}
