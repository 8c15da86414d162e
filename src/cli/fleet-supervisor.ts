/**
 * Runs the members of a local fleet (`brandbase fleet`): each an ordinary `brandbase serve --no-worker` or
 * `brandbase worker` OS process, its output prefixed with its name. Signals are forwarded; a member that exits on
 * its own is reported and never restarted (a supervisor such as systemd does that in production: docs/deployment.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface FleetMember {
  /** `api-1`, `worker-2`, ...: the prefix of its lines. */
  name: string;
  args: string[];
  /** Settings of this member on top of the fleet's environment (its ports). */
  env: Record<string, string>;
}

export interface MemberExit {
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** False when it exited on its own, while the fleet was not stopping. */
  expected: boolean;
}

/** The built program every member runs: two levels above dist/cli/ or dist/chunks/, as for `--version`. */
const BIN = fileURLToPath(new URL('../../bin/brandbase.js', import.meta.url));

function prefixLines(stream: NodeJS.ReadableStream | null, prefix: string, out: NodeJS.WritableStream): void {
  if (!stream) return;
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => out.write(`${prefix}${line}\n`));
}

export class FleetSupervisor {
  private readonly children = new Map<string, ChildProcess>();
  private readonly exits: MemberExit[] = [];
  private stopping = false;
  private readonly width: number;

  constructor(
    private readonly members: FleetMember[],
    private readonly report: (line: string) => void,
  ) {
    this.width = Math.max(...members.map((m) => m.name.length));
  }

  /** Starts every member; resolves when all have exited (after stop(), or each on its own). */
  run(): Promise<MemberExit[]> {
    const exited = this.members.map((member) => this.start(member));
    return Promise.all(exited).then(() => this.exits);
  }

  /** Forwards `signal` to every running member; a second stop kills what is still running. */
  stop(signal: NodeJS.Signals): void {
    const force = this.stopping;
    this.stopping = true;
    for (const [name, child] of this.children) {
      this.report(`fleet: ${force ? 'killing' : `sending ${signal} to`} ${name} (pid ${child.pid ?? '?'})`);
      child.kill(force ? 'SIGKILL' : signal);
    }
  }

  /** True when every member stopped cleanly (code 0) because the fleet was stopped. */
  allStoppedCleanly(): boolean {
    return this.exits.every((e) => e.expected && e.code === 0);
  }

  private start(member: FleetMember): Promise<void> {
    const child = spawn(process.execPath, [BIN, ...member.args], { env: { ...process.env, ...member.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.children.set(member.name, child);
    const prefix = `${member.name.padEnd(this.width)} | `;
    prefixLines(child.stdout, prefix, process.stdout);
    prefixLines(child.stderr, prefix, process.stderr);
    this.report(`fleet: started ${member.name} (pid ${child.pid ?? '?'}): brandbase ${member.args.join(' ')}`);
    return new Promise((resolve) => {
      child.on('error', (error) => this.report(`fleet: ${member.name} could not start: ${error.message}`));
      child.on('close', (code, signal) => {
        this.children.delete(member.name);
        // An exit while the fleet stops is the expected outcome of the forwarded signal; any other is reported.
        const expected = this.stopping;
        this.exits.push({ name: member.name, code, signal, expected });
        if (!expected) this.report(`fleet: ${member.name} exited on its own (${signal ?? `code ${String(code)}`}); it is not restarted, the others keep running`);
        resolve();
      });
    });
  }
}
