/**
 * Moved to src/frame/once-until-failure.ts (worker/ uses it, and must not import the pool). This
 * re-export stays only until src/mcp imports it from there.
 */
export { type Kept, onceUntilFailure } from '../frame/once-until-failure';
