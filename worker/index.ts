/**
 * Moat's worker side: what runs inside a tool worker. The tool runtime (`defineTool`,
 * `serveTools`) arrives with the worker-pool issue; until then this entry exposes the shared,
 * worker-safe layers a tool may use.
 */
export * from '../src/errors/index';
export * from '../src/json/index';
export * from '../src/messages/index';
