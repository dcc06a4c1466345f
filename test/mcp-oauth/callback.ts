// The OAuth redirect page's script (callback.html): as an app's would be.
import { finishOAuth } from '../../src/mcp/oauth';

try {
  await finishOAuth();
} finally {
  window.close();
}
