/** `node --import ./node20.mjs …`: registers ./node20-hooks.mjs (the conformance CLI on Node 20). */
import { register } from 'node:module';

register('./node20-hooks.mjs', import.meta.url);
