/// <reference lib="webworker" />
import { serveTools } from 'moat-sdk/worker';
import { stormTools } from '../storm-tools';

serveTools(stormTools(false));
