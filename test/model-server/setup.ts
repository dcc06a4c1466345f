/** Vitest globalSetup: the wire-protocol model server for the run; tests get its URL by `inject('modelServerUrl')`. */
import type { TestProject } from 'vitest/node';
import { startModelServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    modelServerUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startModelServer();
  project.provide('modelServerUrl', server.url);
  return () => server.close();
}
