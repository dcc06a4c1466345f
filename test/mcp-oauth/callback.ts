// The OAuth redirect page's script (callback.html): as an app's would be, and it tells the tests
// what finishOAuth said.
import { finishOAuth } from '../../src/mcp/oauth';

const told = new BroadcastChannel('moat-oauth-test-callback');
try {
  const finished = await finishOAuth();
  told.postMessage(finished);
  if (finished.popup) window.close();
} catch (error) {
  told.postMessage({ error: String(error) });
}
