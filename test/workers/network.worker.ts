/// <reference lib="webworker" />
import { serveTools } from 'moat/worker';
import { probe } from './network-probe';

serveTools([probe]);
