/**
 * What a first-load page tells bench/first-load.ts: the time from navigation to its first result
 * (performance.now() counts from the navigation's start), when its own code began to run, and
 * what it fetched when (resource timing), for finding where the time goes.
 */
export interface FirstLoad {
  ms: number;
  codeReady: number;
  resources: { name: string; start: number; end: number; bytes: number }[];
  /** performance.mark()s made on the way (none in Moat's code: for a local trace, add your own). */
  marks: { name: string; at: number }[];
}

declare global {
  interface Window {
    firstLoad?: FirstLoad;
  }
}

export function report(codeReady: number): void {
  const ms = performance.now();
  const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({
    name: r.name,
    start: r.startTime,
    end: r.responseEnd,
    bytes: r.encodedBodySize,
  }));
  const marks = performance.getEntriesByType('mark').map((m) => ({ name: m.name, at: m.startTime }));
  window.firstLoad = { ms, codeReady, resources, marks };
}
