/// <reference lib="webworker" />
// A worker that serves a tool not made by defineTool: serveTools must refuse it at start.
import { serveTools } from 'moat-sdk/worker';

serveTools([{ name: 'hand_made', description: 'Not checked.', run: () => 1 }] as never);
