/**
 * The demo's OAuth redirect page (oauth-callback.html): an MCP server's authorization server
 * sends the user back here. finishOAuth() trades the code for tokens (kept in IndexedDB) and tells
 * the chat, which waits for the sign-in window to finish.
 */
import { finishOAuth } from 'moat-sdk/mcp';

const status = document.getElementById('oauth-status') as HTMLParagraphElement;
try {
  const { url, popup } = await finishOAuth();
  status.textContent = `Signed in to ${url}. You can close this window.`;
  if (popup) window.close();
  else location.replace('./');
} catch (error) {
  status.textContent = error instanceof Error ? error.message : String(error);
}
