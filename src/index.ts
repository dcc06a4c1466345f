/**
 * Moat: the main-thread SDK. Pure layers (messages, JSON, errors) run anywhere, Node included.
 */
export * from './agent/index';
export * from './chat/index';
export * from './errors/index';
export * from './invoker/index';
export * from './json/index';
export * from './messages/index';
export * from './models/index';
export * from './pool/index';
export * from './providers/index';
export * from './sandbox/index';
export * from './store/index';
export * from './stream/index';
