/** Registering scenarios on the model server and reading back what it was sent (Node and browser tests alike). */
import type { RecordedRequest, Scenario } from './server';

export type { Fault, RecordedRequest, Scenario, ScriptTurn } from './server';

let count = 0;

/** Register a scenario under a fresh id (the model name to ask for). */
export async function addScenario(url: string, init: Omit<Scenario, 'id'>, prefix = 's'): Promise<string> {
  const id = `${prefix}-${++count}-${Math.random().toString(36).slice(2, 8)}`;
  const res = await fetch(`${url}/_scenarios`, { method: 'POST', body: JSON.stringify({ id, ...init }) });
  if (!res.ok) throw new Error(`The model server refused the scenario: ${res.status}`);
  return id;
}

/** The requests the server received for a scenario, in order. */
export async function requestsOf(url: string, id: string): Promise<RecordedRequest[]> {
  return (await fetch(`${url}/_requests/${encodeURIComponent(id)}`)).json();
}
