import { type ChatModel, scriptedModel } from 'moat-sdk';
import { planTurn } from './offline-rules';

/** The demo's default model: no key, no network; it streams its answers like a provider. */
export function offlineModel(): ChatModel {
  return scriptedModel((messages) => planTurn(messages), { chunkSize: 3, delayMs: 12, name: 'offline-demo' });
}
