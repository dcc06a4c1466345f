/**
 * What the page needs to run inline tools (tools that need the DOM): describing them (zod → JSON
 * Schema) and executing them (validation with zod). One module, loaded by the invoker only when
 * it has inline tools, so that a page whose tools all live in workers carries no zod.
 */
export { describeTool } from './describe-tool';
export { executeTool } from './execute-tool';
