// Reads a V8 CPU profile (`node --cpu-prof`) and says where the time went: by area (our bundled
// server, each npm package, Node's own modules, V8's garbage collector, idle) and by function,
// counting self time only, so that the shares add up to the profile's whole length.
import { readFileSync } from 'node:fs';
import { table } from './common.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The area a frame's code belongs to, from its script's URL. */
function areaOf(url: string, functionName: string): string {
  if (url === '') {
    // V8's pseudo-frames: (idle), (garbage collector), (program), (root).
    return functionName.startsWith('(') ? functionName : 'native';
  }
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage?.[1]) return inPackage[1];
  if (url.startsWith('node:')) return 'node';
  if (url.includes('/dist/server/')) return 'our server';
  return url;
}

export interface ProfileSummary {
  /** Milliseconds sampled in all. */
  totalMs: number;
  areas: Array<{ area: string; ms: number }>;
  functions: Array<{ name: string; area: string; ms: number }>;
}

export function summarizeProfile(path: string): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  const areas = new Map<string, number>();
  const functions = new Map<string, { name: string; area: string; ms: number }>();
  let totalMs = 0;
  for (const [id, ms] of selfMs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    totalMs += ms;
    const area = areaOf(frame.url, frame.functionName);
    areas.set(area, (areas.get(area) ?? 0) + ms);
    const file = frame.url.split('/').at(-1) ?? '';
    const name = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
    const entry = functions.get(name) ?? { name, area, ms: 0 };
    entry.ms += ms;
    functions.set(name, entry);
  }
  return {
    totalMs,
    areas: [...areas].map(([area, ms]) => ({ area, ms })).sort((a, b) => b.ms - a.ms),
    functions: [...functions.values()].sort((a, b) => b.ms - a.ms),
  };
}

/** The summary as two tables: every area above 0.5%, and the `top` costliest functions. */
export function formatProfile(summary: ProfileSummary, top = 25): string {
  const share = (ms: number) => `${((ms / summary.totalMs) * 100).toFixed(1)}%`;
  return [
    table(
      summary.areas
        .filter((row) => row.ms / summary.totalMs >= 0.005)
        .map((row) => ({ area: row.area, 'self ms': row.ms.toFixed(0), share: share(row.ms) })),
    ),
    '',
    table(
      summary.functions.slice(0, top).map((row) => ({
        function: row.name,
        area: row.area,
        'self ms': row.ms.toFixed(0),
        share: share(row.ms),
      })),
    ),
  ].join('\n');
}
