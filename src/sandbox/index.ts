export {
  type CodeRunOptions,
  type CodeRunResult,
  CodeSandbox,
  type CodeSandboxOptions,
  createCodeSandbox,
  type LogEntry,
  type SandboxTools,
} from './code-sandbox';
export { type CodeToolOptions, codeTool, signatureOf } from './code-tool';
