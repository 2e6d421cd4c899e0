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
  // The signature and the header chunk's length and name, as every PNG starts.
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, ...Buffer.from('IHDR')],
  jpeg: [0xff, 0xd8, 0xff, 0xe0],
  gif: [...Buffer.from('GIF89a')],
  webp: [...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBPVP8 ')],
  bmp: [...Buffer.from('BM')],
  tiff: [0x49, 0x49, 0x2a, 0x00],
  heic: [0, 0, 0, 0x18, ...Buffer.from('ftypheic')],
  heif: [0, 0, 0, 0x18, ...Buffer.from('ftypmif1')],
  pdf: [...Buffer.from('%PDF-1.7')],
  mp4: [0, 0, 0, 0x18, ...Buffer.from('ftypisom'), 0, 0, 2, 0, ...Buffer.from('isomiso2mp41')],
  // An EBML header whose DocType is "webm".
  webm: [
    0x1a,
    0x45,
    0xdf,
    0xa3,
    0x9f,
    0x42,
    0x86,
    0x81,
    0x01,
    0x42,
    0xf7,
    0x81,
    0x01,
    0x42,
    0xf2,
    0x81,
    0x04,
    0x42,
    0xf3,
    0x81,
    0x08,
    0x42,
    0x82,
    0x84,
    ...Buffer.from('webm'),
    0x42,
    0x87,
    0x81,
    0x04,
    0x42,
    0x85,
    0x81,
    0x02,
  ],
  exe: [0x4d, 0x5a, 0x90, 0x00],
} as const;

export function sampleFile(kind: keyof typeof SAMPLE_FILES, sizeBytes = 256): Uint8Array {
  const bytes = new Uint8Array(sizeBytes);
  bytes.set(SAMPLE_FILES[kind]);
  return bytes;
}

/** A multipart body of text fields and at most one file, in the order given. */
export function multipartForm(
  fields: Record<string, string>,
  file?: { field: string; filename: string; contentType: string; bytes: Uint8Array },
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----skillstake${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    ),
  );
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; ` +
          `filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
