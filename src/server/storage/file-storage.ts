// Where the files the server makes are kept (report files): behind one interface, so a
// deployment may put them in an object store; by default a folder under DATA_DIR. Keys are
// relative paths the server builds itself ("reports/<company>/<id>.csv"), never a caller's text.
// A file is written by appending at a known offset: a step that died half-way is cut back to the
// length its transaction recorded before the next step appends, so no row is ever written twice.
import { createReadStream } from 'node:fs';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';

export interface FileStorage {
  /** Cuts the file to `offset` bytes (creating it empty when absent) and appends `bytes`; answers the new length. */
  writeAt(key: string, offset: number, bytes: Uint8Array): Promise<number>;
  /** The file's length, or null when there is none. */
  size(key: string): Promise<number | null>;
  read(key: string): Readable;
  remove(key: string): Promise<void>;
}

const KEY = /^[a-z0-9-]+(\/[a-z0-9-]+)*\.[a-z0-9]{2,5}$/;

/** A folder on disk: `root/<key>`. */
export function folderStorage(root: string): FileStorage {
  const base = resolve(root);
  const pathOf = (key: string) => {
    if (!KEY.test(key)) throw new Error(`not a storage key: ${key}`);
    const path = join(base, key);
    if (!path.startsWith(base + sep)) throw new Error(`not a storage key: ${key}`);
    return path;
  };
  return {
    async writeAt(key, offset, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const file = await open(path, 'a+');
      try {
        await file.truncate(offset);
        if (bytes.length) await file.write(bytes, 0, bytes.length, offset);
        await file.sync();
        return offset + bytes.length;
      } finally {
        await file.close();
      }
    },
    async size(key) {
      try {
        return (await stat(pathOf(key))).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    read: (key) => createReadStream(pathOf(key)),
    remove: (key) => rm(pathOf(key), { force: true }),
  };
}

/** The default: DATA_DIR/files (./.data/files), beside the embedded database and the secret key. */
export const defaultFileStorage = (): FileStorage => folderStorage(join(process.env.DATA_DIR || './.data', 'files'));
