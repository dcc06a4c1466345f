/**
 * Moved beside the frame: src/frame/worker-csp.ts. This re-export stays only until vite.config.ts
 * and src/mcp import it from there.
 */
export { cspOrigin, workerContentSecurityPolicy } from '../frame/worker-csp.ts';
