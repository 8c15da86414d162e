import { Writable } from 'node:stream';

/**
 * A progress bar on the last line of a terminal (stderr), which other output does not break: every line written
 * through `print` or the `logs` stream first clears the bar, then the bar is drawn again below it. Not on a
 * terminal (piped, CI), there is no bar: lines pass through as they are.
 */
export class ProgressLine {
  private done = 0;
  private label = '';
  private readonly tty: boolean;

  constructor(
    private readonly total: number,
    private readonly bar: NodeJS.WritableStream & { isTTY?: boolean; columns?: number } = process.stderr,
  ) {
    this.tty = bar.isTTY === true;
  }

  /** Shows what is being worked on now. */
  start(label: string): void {
    this.label = label;
    this.draw();
  }

  /** Counts one item as done. */
  advance(): void {
    this.done += 1;
    this.draw();
  }

  /** Writes a whole line to `out` (stdout by default) above the bar. */
  print(line: string, out: NodeJS.WritableStream = process.stdout): void {
    this.clear();
    out.write(line.endsWith('\n') ? line : `${line}\n`);
    this.draw();
  }

  /** A stream for a logger: each log line is printed above the bar, on the bar's stream. */
  logs(): Writable {
    return new Writable({
      write: (chunk: Buffer | string, _encoding, callback) => {
        this.print(chunk.toString(), this.bar);
        callback();
      },
    });
  }

  /** Removes the bar (call once, when the work is over). */
  finish(): void {
    this.clear();
    this.label = '';
  }

  private clear(): void {
    if (this.tty) this.bar.write('\r\x1b[2K');
  }

  private draw(): void {
    if (!this.tty) return;
    const width = 20;
    const filled = this.total === 0 ? width : Math.round((this.done / this.total) * width);
    const text = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${this.done}/${this.total} ${this.label}`;
    this.bar.write(`\r\x1b[2K${text.slice(0, Math.max(10, (this.bar.columns ?? 80) - 1))}`);
  }
}
