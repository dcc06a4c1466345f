/**
 * The floor of the sealed design, the anchors of pool/cold-start and pool/call-rtt: a bare
 * sandboxed frame that starts a bare worker (the same CSP, a MessagePort from the page), and a
 * bare round trip to a worker inside such a frame; and the floor of a sealed start of the pool
 * benchmark's tools, such a worker importing their module. Written without any of Moat's code.
 */
import { type BenchCase, time } from '../case';
import poolToolsMiniUrl from '../workers/pool-tools-mini.worker.ts?worker&url';
import { COLD_START_PAUSE_MS, ROUND_TRIPS } from './anchors';
import { bareFramedWorker, IMPORTER } from './bare-frame';

/** Answers each message with 5 MB of fresh bytes, transferred; says 'up' first. */
const BYTES = `onmessage = (e) => { const port = e.ports[0]; const bytes = new Uint8Array(5 * 1024 * 1024).fill(7); port.onmessage = () => { const copy = bytes.slice(); port.postMessage(copy.buffer, [copy.buffer]); }; port.postMessage('up'); };`;

function portRoundTrip(port: MessagePort, data: unknown): Promise<unknown> {
  return new Promise((resolve) => {
    port.onmessage = (event) => resolve(event.data);
    port.postMessage(data);
  });
}

export const framedAnchorCases: BenchCase[] = [
  {
    name: 'anchor/framed-5mb-transfer',
    unit: 'ms',
    note: 'a worker inside a sandboxed frame sends 5 MB of bytes to the page (a fresh ArrayBuffer, transferred), asked over a MessagePort',
    async setup() {
      const framed = await bareFramedWorker(BYTES);
      return { sample: () => time(() => portRoundTrip(framed.port, 'send')), teardown: () => framed.close() };
    },
  },
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
    name: 'anchor/framed-tools-cold-start',
    unit: 'ms',
    anchor: 'anchor/framed-worker-cold-start',
    note: "a bare sandboxed frame (the sealed CSP) starting a bare blob worker that imports the pool benchmark's tools module (moat-sdk/worker, zod/mini, the tools: the text pool/cold-start's pool reads, fetched beforehand) from a blob and answers once over a port from the page: the floor of a sealed start of these tools",
    pauseMs: COLD_START_PAUSE_MS,
    repeat: 25,
    async setup() {
      const module = await (await fetch(poolToolsMiniUrl)).text();
      return {
        sample: async () => {
          let close = () => {};
          const elapsed = await time(async () => {
            ({ close } = await bareFramedWorker(IMPORTER, module));
          });
          close();
          return elapsed;
        },
      };
    },
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
];
