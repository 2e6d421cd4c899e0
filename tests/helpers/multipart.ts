/** Builds a multipart/form-data body by hand, so tests control every byte of the upload. */
export function multipart(
  field: string,
  filename: string,
  contentType: string,
  bytes: Uint8Array,
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----skillstake${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
      `Content-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, Buffer.from(bytes), tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The first bytes of each accepted format, padded so the type can be recognised. */
export const SAMPLE_FILES = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff, 0xe0],
  gif: [...Buffer.from('GIF89a')],
  webp: [...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBPVP8 ')],
  bmp: [...Buffer.from('BM')],
  tiff: [0x49, 0x49, 0x2a, 0x00],
  heic: [0, 0, 0, 0x18, ...Buffer.from('ftypheic')],
  heif: [0, 0, 0, 0x18, ...Buffer.from('ftypmif1')],
  pdf: [...Buffer.from('%PDF-1.7')],
  exe: [0x4d, 0x5a, 0x90, 0x00],
} as const;

export function sampleFile(kind: keyof typeof SAMPLE_FILES, sizeBytes = 256): Uint8Array {
  const bytes = new Uint8Array(sizeBytes);
  bytes.set(SAMPLE_FILES[kind]);
  return bytes;
}
