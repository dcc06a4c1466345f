/// <reference lib="webworker" />
import { serveTools } from 'moat/worker';
import { stormTools } from '../storm-tools';

serveTools(stormTools(false));
