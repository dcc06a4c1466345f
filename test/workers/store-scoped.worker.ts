/// <reference lib="webworker" />
// Tools that each declare the store namespaces they touch, one of which asks the page's store for
// another namespace over the store's port itself (store-thief.ts, evaluated first).
import './store-thief';
import { serveTools } from 'moat/worker';
import { scopedStoreTools } from './store-scoped-tools';

serveTools(scopedStoreTools);
