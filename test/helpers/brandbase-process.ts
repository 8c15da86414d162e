import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { reapOnExit } from './child-reaper.js';
import { CLI_RUN_TIMEOUT_MS, SERVER_START_DEADLINE_MS, useProcessTimeouts } from './process-timeouts.js';

// Every test file that starts brandbase processes gets timeouts sized for a busy machine (process-timeouts.ts).
useProcessTimeouts();

const BIN = path.resolve(import.meta.dirname, '../../bin/brandbase.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Which program a helper runs: this tree's by default, or another release's `bin/brandbase.js` (release-tree.ts). */
export interface ProgramOption {
  bin?: string;
}

/** Runs the `brandbase` command exactly as a user would (`node bin/brandbase.js ...`: the built program, dist/). */
export function runCli(args: string[], env: Record<string, string>, options: { cwd?: string } & ProgramOption = {}): Promise<CliResult> {
  const { bin = BIN, ...execOptions } = options;
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, timeout: CLI_RUN_TIMEOUT_MS, ...execOptions }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
    reapOnExit(child);
  });
}

/** Runs an admin command with --json and returns the one JSON object it must print. */
export async function runJson(args: string[], env: Record<string, string>, program: ProgramOption = {}): Promise<Record<string, unknown>> {
  const result = await runCli([...args, '--json'], env, program);
  if (result.code !== 0) throw new Error(`brandbase ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  const lines = result.stdout.trim().split('\n');
  if (lines.length !== 1) throw new Error(`expected exactly one line of JSON, got: ${result.stdout}`);
  return JSON.parse(lines[0] ?? '') as Record<string, unknown>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** Starts `brandbase serve` and waits until /healthz answers. */
export async function startServer(env: Record<string, string>, args: string[] = ['serve'], program: ProgramOption = {}): Promise<ServerProcess> {
  // freePort() releases the port before the server binds it: another test's process can take it in between. Rare,
  // but not a reason for a test to fail, so a start that lost its port is tried again on another.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(env, args, program.bin ?? BIN);
    } catch (error) {
      if (env.PORT || attempt >= 3 || !(error instanceof Error) || !error.message.includes('EADDRINUSE')) throw error;
    }
  }
}

async function startServerOnce(env: Record<string, string>, args: string[], bin: string): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = reapOnExit(spawn(process.execPath, [bin, ...args], { env: { ...process.env, HOST: '127.0.0.1', ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] }));
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  // Generous: on a busy 2-core machine a start (the server's modules loaded, crawl workers started) can take long.
  const deadline = Date.now() + SERVER_START_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`brandbase serve exited early:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return { child, baseUrl, output: () => output, exited };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`brandbase serve did not start:\n${output}`);
}
