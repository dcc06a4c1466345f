export {
  type CodeRunOptions,
  type CodeRunResult,
  CodeSandbox,
  type CodeSandboxOptions,
  createCodeSandbox,
  type LogEntry,
  type SandboxTools,
} from './code-sandbox';
export { type CodeArtifact, type CodeToolOptions, codeTool, type NestedCall, signatureOf } from './code-tool';
