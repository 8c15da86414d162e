/**
 * Watches a running `brandbase serve` while it crawls: /healthz asked again and again (one request at a time,
 * each answer timed), and the memory of the server process and of its crawl workers read from /proc (Linux).
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProbeResult {
  /** /healthz answers received (200) and failed (anything else, or no answer). */
  answers: number;
  failures: number;
  /** Slowest and median /healthz answer, in milliseconds. */
  worstMs: number;
  medianMs: number;
  /** Peak resident memory of the server process so far (VmHWM), in MB. */
  serverPeakMb: number;
  /** Highest resident memory seen of any crawl worker process (VmHWM while it lived), in MB. */
  workerPeakMb: number;
  /** Highest sum seen of the server's and its crawl workers' resident memory, in MB. */
  totalPeakMb: number;
  durationMs: number;
}

function status(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/status`, 'latin1');
  } catch {
    return null;
  }
}

function kb(text: string | null, field: 'VmRSS' | 'VmHWM'): number {
  const match = text ? new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text) : null;
  return match ? Number(match[1]) : 0;
}

/** The crawl worker processes of `pid` (children whose command line runs crawl-worker). */
export function crawlWorkerPids(pid: number): number[] {
  const children: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const list = readFileSync(`/proc/${pid}/task/${task}/children`, 'latin1').trim();
      if (list) children.push(...list.split(/\s+/).map(Number));
    }
  } catch {
    return [];
  }
  return children.filter((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, 'latin1').includes('crawl-worker');
    } catch {
      return false;
    }
  });
}

/** Peak resident memory of `pid` so far (VmHWM), in MB. */
export function peakMb(pid: number): number {
  return Math.round(kb(status(pid), 'VmHWM') / 1024);
}

export interface Probe {
  stop(): Promise<ProbeResult>;
}

/** Starts asking `${baseUrl}/healthz` in a loop and sampling memory, until stop(). */
export function probeHealth(baseUrl: string, serverPid: number): Probe {
  const latencies: number[] = [];
  let failures = 0;
  let workerPeakKb = 0;
  let totalPeakKb = 0;
  let running = true;
  const started = performance.now();
  const sample = (): void => {
    let total = kb(status(serverPid), 'VmRSS');
    for (const worker of crawlWorkerPids(serverPid)) {
      const text = status(worker);
      total += kb(text, 'VmRSS');
      workerPeakKb = Math.max(workerPeakKb, kb(text, 'VmHWM'));
    }
    totalPeakKb = Math.max(totalPeakKb, total);
  };
  const sampler = setInterval(sample, 20);
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      try {
        // A hang guard, not a latency bound (latency is reported, not asserted): only no answer at all is a failure.
        const res = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(60_000) });
        await res.arrayBuffer();
        if (res.status === 200) latencies.push(performance.now() - t0);
        else failures += 1;
      } catch {
        failures += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      clearInterval(sampler);
      sample();
      const sorted = [...latencies].sort((a, b) => a - b);
      return {
        answers: latencies.length,
        failures,
        worstMs: Math.round(sorted.at(-1) ?? 0),
        medianMs: Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0),
        serverPeakMb: peakMb(serverPid),
        workerPeakMb: Math.round(workerPeakKb / 1024),
        totalPeakMb: Math.round(totalPeakKb / 1024),
        durationMs: Math.round(performance.now() - started),
      };
    },
  };
}
