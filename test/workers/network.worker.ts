/// <reference lib="webworker" />
import { serveTools } from 'moat-sdk/worker';
import { probe } from './network-probe';

serveTools([probe]);
