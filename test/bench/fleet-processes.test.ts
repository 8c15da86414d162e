/**
 * The CPU accounting the fleet benchmarks explain their ratios with (bench/fleet-processes.ts): a process's figure
 * includes its descendants (an API or worker process crawls in child processes), and the machine's busy time grows
 * while something burns CPU. Real processes, read from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { machineCpuSeconds, treeCpuSeconds } from '../../bench/fleet-processes.js';
import { until } from '../helpers/until.js';

// A parent that only waits, and its child that spins until killed: all the CPU is the grandchild's.
const PARENT = `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
process.on('SIGTERM', () => { child.kill('SIGKILL'); process.exit(0); });
setInterval(() => {}, 1000);
`;

let parent: ChildProcess | null = null;

/** utime + stime of one process alone, from /proc/PID/stat (clock ticks of 1/100 s). */
function ownCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) / 100;
}

afterEach(async () => {
  if (parent && parent.exitCode === null) {
    const exited = new Promise((resolve) => parent?.once('exit', resolve));
    parent.kill('SIGTERM');
    await exited;
  }
  parent = null;
});

describe('fleet bench CPU accounting', () => {
  it("counts a process's descendants' CPU, and the machine's busy time grows meanwhile", async () => {
    const machineBefore = machineCpuSeconds();
    parent = spawn(process.execPath, ['-e', PARENT], { stdio: 'ignore' });
    const pid = parent.pid as number;
    await until(() => (treeCpuSeconds([pid])[0] ?? 0) >= 0.5, 'half a CPU second in the spinning grandchild', 120_000);
    // The parent alone has used far less than its tree: most of the figure is the grandchild's.
    const tree = treeCpuSeconds([pid])[0] ?? 0;
    expect(tree - ownCpuSeconds(pid)).toBeGreaterThanOrEqual(0.4);
    const machineAfter = machineCpuSeconds();
    expect(machineAfter.busy - machineBefore.busy).toBeGreaterThanOrEqual(0.5);
    expect(machineAfter.busy).toBeLessThanOrEqual(machineAfter.total);
    // A pid that does not exist counts nothing.
    expect(treeCpuSeconds([2 ** 22 + 1])).toEqual([0]);
  });
});
