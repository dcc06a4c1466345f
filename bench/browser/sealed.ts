/**
 * Sealed tools (the default) against the floor of their design: a bare sandboxed frame that
 * starts a bare worker (the same CSP, a blob worker, a MessagePort from the page), and a bare
 * round trip to a worker inside such a frame. Written without any of Moat's code.
 */
import { sealedFrameCsp } from '../../src/pool/framed-worker';
import { createWorkerPool, type WorkerPool } from '../../src/pool/worker-pool';
import { type BenchCase, time } from '../case';
import poolToolsMiniUrl from '../workers/pool-tools-mini.worker.ts?worker&url';
import { COLD_START_PAUSE_MS, ROUND_TRIPS } from './anchors';

/** The frame's script: make a worker from the source it is sent, hand it the port. */
function bareFrameMain(): void {
  addEventListener('message', (event: MessageEvent) => {
    const source = event.data as string;
    const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    worker.postMessage('port', [event.ports[0] as MessagePort]);
  });
  parent.postMessage('loaded', '*');
}

/** Echoes on the port it is given; says 'up' first. */
const ECHO = `onmessage = (e) => { const port = e.ports[0]; port.onmessage = (m) => port.postMessage(m.data); port.postMessage('up'); };`;

/** A bare sandboxed frame with a worker in it, and the page's end of the port to that worker. */
function bareFramedWorker(): Promise<{ port: MessagePort; close: () => void }> {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.style.display = 'none';
  frame.srcdoc = `<meta http-equiv="Content-Security-Policy" content="${sealedFrameCsp(true)}"><script>(${bareFrameMain})()</script>`;
  const { port1, port2 } = new MessageChannel();
  return new Promise((resolve) => {
    const loaded = (event: MessageEvent) => {
      if (event.source !== frame.contentWindow || event.data !== 'loaded') return;
      removeEventListener('message', loaded);
      port1.onmessage = () => {
        port1.onmessage = null;
        resolve({
          port: port1,
          close: () => {
            port1.close();
            frame.remove();
          },
        });
      };
      frame.contentWindow?.postMessage(ECHO, '*', [port2]);
    };
    addEventListener('message', loaded);
    document.body.append(frame);
  });
}

function portRoundTrip(port: MessagePort, data: unknown): Promise<unknown> {
  return new Promise((resolve) => {
    port.onmessage = (event) => resolve(event.data);
    port.postMessage(data);
  });
}

export const sealedCases: BenchCase[] = [
  {
    name: 'anchor/framed-worker-cold-start',
    unit: 'ms',
    note: 'a bare sandboxed frame (the sealed CSP) starting a bare blob worker that answers once over a port from the page: the floor of a sealed start',
    pauseMs: COLD_START_PAUSE_MS,
    repeat: 25,
    setup: () => ({
      sample: async () => {
        let close = () => {};
        const elapsed = await time(async () => {
          ({ close } = await bareFramedWorker());
        });
        close();
        return elapsed;
      },
    }),
  },
  {
    name: 'anchor/framed-postmessage-rtt',
    unit: 'ms',
    note: `a bare round trip over a MessagePort to a worker inside a sandboxed frame, mean of ${ROUND_TRIPS} sequential trips`,
    async setup() {
      const framed = await bareFramedWorker();
      return {
        sample: async () =>
          (await time(async () => {
            for (let i = 0; i < ROUND_TRIPS; i++) await portRoundTrip(framed.port, i);
          })) / ROUND_TRIPS,
        teardown: () => framed.close(),
      };
    },
  },
  {
    name: 'pool/cold-start-sealed',
    unit: 'ms',
    anchor: 'anchor/framed-worker-cold-start',
    target: { max: 1.25 },
    repeat: 25,
    pauseMs: COLD_START_PAUSE_MS,
    note: 'createWorkerPool({ worker: url }) to the first result: the page reads the built tools module, the frame and its worker, the module imported from a blob (moat/worker, zod/mini tools), handshake, one call',
    setup: () => ({
      sample: async () => {
        let pool: WorkerPool | undefined;
        const elapsed = await time(() => {
          pool = createWorkerPool({ worker: poolToolsMiniUrl, size: 1 });
          return pool.call({ id: 'first', name: 'noop', args: { i: 1 } });
        });
        await pool?.close();
        return elapsed;
      },
    }),
  },
  {
    name: 'pool/call-rtt-sealed',
    unit: 'ms',
    anchor: 'anchor/framed-postmessage-rtt',
    target: { max: 1.3 },
    note: `one trivial tool call through a warm sealed pool (validated with zod, converted, revived), mean of ${ROUND_TRIPS} sequential calls`,
    async setup() {
      const pool = createWorkerPool({ worker: poolToolsMiniUrl, size: 1 });
      await pool.call({ id: 'warm', name: 'noop', args: { i: 0 } });
      return {
        sample: async () =>
          (await time(async () => {
            for (let i = 0; i < ROUND_TRIPS; i++) await pool.call({ id: `r${i}`, name: 'noop', args: { i } });
          })) / ROUND_TRIPS,
        teardown: () => pool.close(),
      };
    },
  },
];
