/**
 * `moat-sdk/mcp`: MCP and WebMCP. `mcpServer`, `exposeTools` and `pageTools` are in `moat-sdk` too;
 * OAuth for MCP servers (`browserOAuth`, `finishOAuth`) is here.
 */
export { type AllowTools, type McpServer, type McpServerOptions, type McpTool, mcpServer } from './mcp-server';
export {
  type BrowserOAuth,
  type BrowserOAuthOptions,
  browserOAuth,
  finishOAuth,
  type McpAuthProvider,
  type McpOAuthClient,
  type McpOAuthTokens,
} from './oauth';
export { type ExposedTools, type ExposeToolsOptions, exposeTools, pageTools } from './webmcp';
