/** Vitest globalSetup: the MCP test server for the run; tests get its URL by `inject('mcpServerUrl')`. */
import type { TestProject } from 'vitest/node';
import { startMcpTestServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    mcpServerUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startMcpTestServer();
  project.provide('mcpServerUrl', server.url);
  return () => server.close();
}
