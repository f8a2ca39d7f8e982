// Reads a V8 CPU profile (node --cpu-prof) and says where the time went: self time by place
// (a package, or a file of this repository) and by function, as shares of the samples.
import { readFile } from 'node:fs/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  byPlace: [place: string, share: number][];
  byFunction: [fn: string, share: number][];
}

/** `node_modules/undici/lib/x.js` → `undici`; `src/delivery/worker.ts` → itself; V8 internals by name. */
function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (modules) return modules[1]!;
  if (url.startsWith('node:')) return url;
  const own = url.match(/\/((?:src|dist|bench)\/.*)$/);
  return own ? own[1]! : url;
}

function top(counts: Map<string, number>, total: number, count: number): [string, number][] {
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, value]) => [key, value / total]);
}

/**
 * Counts the samples from the first one whose stack holds a function named `from` (so that
 * start-up, such as loading and compiling modules, is left out).
 */
export async function summarizeProfile(
  file: string,
  { from, count = 12 }: { from?: string; count?: number } = {},
): Promise<ProfileSummary> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const stackHolds = (id: number, name: string) => {
    for (let current: number | undefined = id; current !== undefined; current = parentOf.get(current)) {
      if (byId.get(current)!.callFrame.functionName === name) return true;
    }
    return false;
  };
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  let counting = from === undefined;
  profile.samples.forEach((id, index) => {
    const node = byId.get(id)!;
    const delta = profile.timeDeltas[index] ?? 0;
    counting ||= stackHolds(id, from!);
    if (!counting) return;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') return;
    total += delta;
    const place = placeOf(url, functionName);
    byPlace.set(place, (byPlace.get(place) ?? 0) + delta);
    const name = `${functionName || '(anonymous)'} ${place}${url ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + delta);
  });
  return { totalMs: total / 1000, byPlace: top(byPlace, total, count), byFunction: top(byFunction, total, count) };
}
