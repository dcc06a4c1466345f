// The route as a Cloudflare Worker (module form), its key and upstream from the environment.
import { createModelProxy } from '../../src/server/index.ts';
import { routeOptions } from './checks.mjs';

export default {
  fetch(request, env) {
    return createModelProxy({ ...routeOptions(env.UPSTREAM), apiKey: env.API_KEY })(request);
  },
};
