/**
 * rsync's standard output as a file of our own, not a pipe. rsync writes a line per file (and with
 * `--info=progress2` a progress line per file); through a pipe each write woke the extension host, which read
 * it, decoded it and emitted it as a stream event: 20,000 wake-ups for a 10,000-file first sync, CPU taken
 * from the rsync and ssh beside it on a small machine. A file takes the writes without waking anyone, and the
 * sync reads what is new once a second (its progress) and the rest when rsync ends.
 *
 * The file is made in a folder of its own under the system's temporary folder (mode 0600 in a 0700 folder)
 * and, where the system allows it (not Windows), removed from the disk at once: rsync and we keep it open,
 * so nothing is left behind even if the window is killed. It holds the names of the synced files.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';

const CHUNK = 256 * 1024;

export class RsyncOutputFile {
  private readonly decoder = new StringDecoder('utf8');
  private readonly buffer = Buffer.allocUnsafe(CHUNK);
  private position = 0;
  private closed = false;
  /** The file and its folder, while they are still on the disk (Windows: until close). */
  private paths: { file: string; dir: string } | undefined;

  private constructor(
    /** rsync's stdout (spawn's stdio) and our reading end: one open file. */
    readonly fd: number,
    file: string,
    dir: string,
  ) {
    this.paths = { file, dir };
    if (process.platform !== 'win32') this.remove();
  }

  static open(): RsyncOutputFile {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tensorpool-rsync-'));
    const file = path.join(dir, 'output');
    try {
      return new RsyncOutputFile(fs.openSync(file, 'wx+', 0o600), file, dir);
    } catch (e) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  }

  /** What rsync wrote since the last read (a character cut between two reads waits for the next). */
  read(): string {
    if (this.closed) return '';
    let text = '';
    for (;;) {
      const n = fs.readSync(this.fd, this.buffer, 0, CHUNK, this.position);
      if (n === 0) return text;
      this.position += n;
      text += this.decoder.write(this.buffer.subarray(0, n));
    }
  }

  /** Once rsync has ended: the rest, then the file is closed (and removed, if it is still there). */
  finish(): string {
    if (this.closed) return '';
    const rest = this.read() + this.decoder.end();
    this.close();
    return rest;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    fs.closeSync(this.fd);
    this.remove();
  }

  private remove(): void {
    if (!this.paths) return;
    try {
      fs.rmSync(this.paths.dir, { recursive: true, force: true });
      this.paths = undefined;
    } catch {
      // Windows: the open file cannot go yet; close() tries again.
    }
  }
}
