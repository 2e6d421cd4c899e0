import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where uploaded files live. Keys are made by the server (never from a file name) and the
 * folder is outside anything served statically, so a file is reachable only through the
 * upload route and its permission check.
 */
export interface FileStore {
  /** Streams into a temporary object; `commit` makes it permanent under `key`. */
  write(
    source: Readable,
  ): Promise<{ sizeBytes: number; commit(key: string): Promise<void>; discard(): Promise<void> }>;
  read(key: string): Readable;
  exists(key: string): Promise<boolean>;
}

export function createLocalFileStore(dataDir: string): FileStore {
  const root = resolve(dataDir, 'uploads');
  const temporary = join(root, '.incoming');
  mkdirSync(temporary, { recursive: true });
  const pathOf = (key: string) => {
    if (!/^[0-9a-f-]{36}\.[a-z0-9]{3,4}$/.test(key)) throw new Error(`not a storage key: ${key}`);
    return join(root, key);
  };
  return {
    async write(source) {
      const tempPath = join(temporary, randomUUID());
      try {
        await pipeline(source, createWriteStream(tempPath, { flags: 'wx', mode: 0o600 }));
      } catch (error) {
        await rm(tempPath, { force: true });
        throw error;
      }
      const { size } = await stat(tempPath);
      return {
        sizeBytes: size,
        commit: (key) => rename(tempPath, pathOf(key)),
        discard: () => rm(tempPath, { force: true }),
      };
    },
    read: (key) => createReadStream(pathOf(key)),
    exists: async (key) =>
      stat(pathOf(key)).then(
        () => true,
        () => false,
      ),
  };
}
