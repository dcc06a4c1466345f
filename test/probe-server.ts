/**
 * A second local server for the network tests (Vitest globalSetup): it counts every request and
 * WebSocket upgrade that reaches it, and every UDP datagram to the same port (a WebTransport's
 * QUIC packets, recorded as `UDP`), so a test can prove a denied tool reached nothing. Files that
 * run side by side share it: each test tags its URLs and reads its own hits (test/probe-hits.ts);
 * nothing resets the record.
 */
import { createSocket } from 'node:dgram';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    probeUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const hits: string[] = [];
  const headers = {
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
    'Cache-Control': 'no-store',
  };
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/__hits') {
      res.writeHead(200, { ...headers, 'Content-Type': 'application/json' });
      res.end(JSON.stringify(hits));
      return;
    }
    hits.push(`${req.method} ${url}`);
    if (url.includes('.js')) {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/javascript' });
      res.end('export const reached = true;');
    } else if (url.includes('events')) {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/event-stream' });
      res.end('data: hello\n\n');
    } else {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/plain' });
      res.end('reached');
    }
  });
  server.on('upgrade', (req, socket) => {
    hits.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const udp = createSocket('udp4');
  udp.on('message', () => hits.push('UDP'));
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(port, '127.0.0.1', () => resolve());
  });
  project.provide('probeUrl', `http://127.0.0.1:${port}`);
  return () => new Promise<void>((resolve) => udp.close(() => server.close(() => resolve())));
}
