// What a chat page imports from Moat (bench/node/bundle.ts measures it, minified and gzipped).
import { createAgent, createWorkerPool, openAICompatible, openIndexedDBStore } from '../../src/index';

export { createAgent, createWorkerPool, openAICompatible, openIndexedDBStore };
