/**
 * A cassette kept in one JSON file, for Node (recording against a live server from a script, replaying in
 * tests and CI). The file is read once when opened; every `put` rewrites it through a temporary file and a
 * rename, so an interrupted recording never leaves half a file behind. Writes are serialised.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import {
  type CassetteEntry,
  type CassetteStore,
  parseCassetteFile,
  serializeCassette,
} from '../../core/models/replay.ts';

export class JsonFileCassetteStore implements CassetteStore {
  readonly path: string;
  readonly #entries: Map<string, CassetteEntry>;
  #writing: Promise<void> = Promise.resolve();

  private constructor(path: string, entries: Map<string, CassetteEntry>) {
    this.path = path;
    this.#entries = entries;
  }

  /** Opens `path`; a missing file is an empty cassette (created on the first `put`). */
  static async open(path: string): Promise<JsonFileCassetteStore> {
    let text: string | undefined;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const entries = new Map<string, CassetteEntry>();
    if (text !== undefined) {
      const file = parseCassetteFile(JSON.parse(text), path);
      for (const [hash, entry] of Object.entries(file.entries)) entries.set(hash, entry);
    }
    return new JsonFileCassetteStore(path, entries);
  }

  async get(hash: string): Promise<CassetteEntry | undefined> {
    return this.#entries.get(hash);
  }

  async put(hash: string, entry: CassetteEntry): Promise<void> {
    this.#entries.set(hash, entry);
    const write = this.#writing.then(async () => {
      const temporary = `${this.path}.${process.pid}.tmp`;
      await writeFile(temporary, serializeCassette(this.#entries), 'utf8');
      await rename(temporary, this.path);
    });
    // A failed write is reported to its caller; later writes still run.
    this.#writing = write.catch(() => {});
    return write;
  }
}
