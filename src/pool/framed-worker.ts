/**
 * Moved beside the frame: src/frame/framed-worker.ts. This re-export stays only until src/mcp and
 * bench/browser/bare-frame.ts import it from there.
 */
export { FRAME_DEAD_MS, framedWorkers, sealedFrameCsp, sealedWorkers } from '../frame/framed-worker';
