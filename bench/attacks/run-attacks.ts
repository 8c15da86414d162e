/**
 * `npm run bench -- --attacks`: the issue-33 attack measurements, each in its own process, one after the other (they
 * start servers and would disturb each other's latencies): the victim's answer time at rest and while the attack
 * runs, as each script prints it. Timing lives here, not in the tests: the tests assert the mechanisms (refused
 * before running, served while the attack is in flight), which holds on any machine; these figures depend on the load,
 * which is printed with them. Figures go to docs/security.md beside each bound.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

const ATTACKS = ['graphql-cost.ts', 'svg-render.ts', 'webhook-flood.ts'];

function run(script: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, script)], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (code) => resolve(code));
  });
}

export async function runAttacks(): Promise<void> {
  for (const script of ATTACKS) {
    console.log(`\n== ${script} (load average ${os.loadavg().map((l) => l.toFixed(1)).join(' · ')})`);
    const code = await run(script);
    if (code !== 0) {
      console.log(`== ${script} exited ${code}`);
      process.exitCode = 1;
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await runAttacks();
