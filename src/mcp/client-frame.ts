/**
 * Where an MCP server's client runs: its worker (the official SDK, reaching the frame as text) in
 * a sandboxed frame of its own, whose Content-Security-Policy connects to the server's origin and
 * nowhere else. `mcpServer` talks to it; the benchmark's sealed floor drives it bare.
 */
import { FRAME_DEAD_MS, sealedFrameCsp } from '../frame/framed-worker';
import { type FrameWorker, SandboxedFrame } from '../frame/sandboxed-frame';

export interface ClientFrame {
  frame: SandboxedFrame;
  worker: FrameWorker;
  /** The page's end of the worker's port (see protocol.ts). */
  port: MessagePort;
}

/** Start the client for a server at `origin`; the frame is watched, so a dead one says so. */
export async function startClientFrame(origin: string, title: string): Promise<ClientFrame> {
  const { default: text } = await import('./client-worker.ts?bundled');
  const frame = new SandboxedFrame({ csp: sealedFrameCsp([origin]), title });
  frame.watch(true, FRAME_DEAD_MS);
  frame.load({ modules: [{ url: 'moat:mcp-client', parts: [text] }], entry: 0 });
  const channel = new MessageChannel();
  const worker = frame.spawn(channel.port2);
  // Whatever the client says shows its frame's process alive (see SandboxedFrame.watch).
  channel.port1.addEventListener('message', () => worker.heard());
  return { frame, worker, port: channel.port1 };
}
