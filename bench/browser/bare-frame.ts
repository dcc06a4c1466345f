/**
 * A bare sealed frame, written without any of Moat's code but its Content-Security-Policy: a
 * sandboxed frame (the sealed CSP) that starts a blob worker and hands it a MessagePort from the
 * page. The floor of the sealed design, for the framed anchors and the first-load floor page.
 */
import { sealedFrameCsp } from '../../src/frame/framed-worker';

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
export const ECHO = `onmessage = (e) => { const port = e.ports[0]; port.onmessage = (m) => port.postMessage(m.data); port.postMessage('up'); };`;

/** Imports the module it is sent, then says 'up' (its port is held before the module runs), or why not. */
export const IMPORTER = `onmessage = (e) => { onmessage = null; const port = e.ports[0]; import(e.data).then(() => port.postMessage('up'), (x) => port.postMessage('failed: ' + x)); };`;

/**
 * A bare sandboxed frame with a worker in it, and the page's end of the port to that worker.
 * `module` may still be on its way (a fetch): the frame starts meanwhile, as the pool's does.
 */
export function bareFramedWorker(
  source = ECHO,
  module?: string | Promise<string>,
): Promise<{ port: MessagePort; close: () => void }> {
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
      Promise.resolve(module).then(
        (text) => frame.contentWindow?.postMessage({ source, module: text }, '*', [port2]),
        (error: unknown) => {
          frame.remove();
          reject(error);
        },
      );
    };
    addEventListener('message', loaded);
    document.body.append(frame);
  });
}
