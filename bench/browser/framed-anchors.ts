/**
 * The floor of the sealed design, the anchors of pool/cold-start and pool/call-rtt: a bare
 * sandboxed frame that starts a bare worker (the same CSP, a MessagePort from the page), and a
 * bare round trip to a worker inside such a frame; and the floor of a sealed start of the pool
 * benchmark's tools, such a worker importing their module. Written without any of Moat's code.
 */
import { sealedFrameCsp } from '../../src/pool/framed-worker';
import { type BenchCase, time } from '../case';
import poolToolsMiniUrl from '../workers/pool-tools-mini.worker.ts?worker&url';
import { COLD_START_PAUSE_MS, ROUND_TRIPS } from './anchors';

/**
 * The frame's script: make a worker from the source it is sent, hand it the port, and the URL of
 * a module made from the text sent with it, if any.
 */
function bareFrameMain(): void {
  addEventListener('message', (event: MessageEvent) => {
    const { source, module } = event.data as { source: string; module?: string };
    const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    const url = module === undefined ? '' : URL.createObjectURL(new Blob([module], { type: 'text/javascript' }));
    worker.postMessage(url, [event.ports[0] as MessagePort]);
  });
  parent.postMessage('loaded', '*');
}

/** Echoes on the port it is given; says 'up' first. */
const ECHO = `onmessage = (e) => { const port = e.ports[0]; port.onmessage = (m) => port.postMessage(m.data); port.postMessage('up'); };`;

/** Imports the module it is sent, then says 'up' (its port is held before the module runs), or why not. */
const IMPORTER = `onmessage = (e) => { onmessage = null; const port = e.ports[0]; import(e.data).then(() => port.postMessage('up'), (x) => port.postMessage('failed: ' + x)); };`;

/** Answers each message with 5 MB of fresh bytes, transferred; says 'up' first. */
const BYTES = `onmessage = (e) => { const port = e.ports[0]; const bytes = new Uint8Array(5 * 1024 * 1024).fill(7); port.onmessage = () => { const copy = bytes.slice(); port.postMessage(copy.buffer, [copy.buffer]); }; port.postMessage('up'); };`;

/** A bare sandboxed frame with a worker in it, and the page's end of the port to that worker. */
function bareFramedWorker(source = ECHO, module?: string): Promise<{ port: MessagePort; close: () => void }> {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.style.display = 'none';
  frame.srcdoc = `<meta http-equiv="Content-Security-Policy" content="${sealedFrameCsp([])}"><script>(${bareFrameMain})()</script>`;
  const { port1, port2 } = new MessageChannel();
  return new Promise((resolve, reject) => {
    const loaded = (event: MessageEvent) => {
      if (event.source !== frame.contentWindow || event.data !== 'loaded') return;
      removeEventListener('message', loaded);
      port1.onmessage = (event) => {
        port1.onmessage = null;
        if (typeof event.data === 'string' && event.data.startsWith('failed')) {
          frame.remove();
          reject(new Error(event.data));
          return;
        }
        resolve({
          port: port1,
          close: () => {
            port1.close();
            frame.remove();
          },
        });
      };
      frame.contentWindow?.postMessage({ source, module }, '*', [port2]);
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
