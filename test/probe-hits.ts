/**
 * The probe server (test/probe-server.ts) seen from one browser test: URLs that carry a tag of
 * the test's own, and the requests that reached the server with it. Test files that run side by
 * side share the server, so a test counts only its own requests and never resets the record.
 */
import { expect, inject } from 'vitest';

export interface Probe {
  /** The server's origin. */
  readonly server: string;
  /** What `url` appends to a path: the tag, as a query. */
  readonly query: string;
  /** The server's URL for `path` ('/fetch', '/x.js'), tagged. */
  url(path: string): string;
  /**
   * This test's requests so far, as `GET /fetch` or `UPGRADE /ws` (the tag taken off). With
   * `udp`, also every UDP datagram the server got (a WebTransport's QUIC packets), which carry
   * no tag: those of the other tests running beside this one are among them.
   */
  hits(options?: { udp?: boolean }): Promise<string[]>;
  /** Resolves with `hits(options)` once it holds something; fails after `timeoutMs` (5 s). */
  reached(options?: { udp?: boolean; timeoutMs?: number }): Promise<string[]>;
}

export function probeTag(): Probe {
  const server = inject('probeUrl');
  const query = `?probe=${Math.random().toString(36).slice(2)}`;
  const hits = async ({ udp = false } = {}) => {
    const all = (await (await fetch(`${server}/__hits`)).json()) as string[];
    return all.flatMap((hit) =>
      hit.endsWith(query) ? [hit.slice(0, -query.length)] : udp && hit === 'UDP' ? [hit] : [],
    );
  };
  return {
    server,
    query,
    url: (path) => `${server}${path}${query}`,
    hits,
    async reached({ udp = false, timeoutMs = 5_000 } = {}) {
      await expect.poll(() => hits({ udp }), { timeout: timeoutMs, interval: 20 }).not.toEqual([]);
      return hits({ udp });
    },
  };
}
