/** What the page's client run says, from the page to the harness (plain data). */

export interface Failure {
  name: string;
  message: string;
  cause?: string;
}

export interface CallRecord {
  name: string;
  args: Record<string, unknown>;
  /** The tool message's status, or 'threw' when the invoker rejected. */
  status: 'success' | 'error' | 'threw';
  content?: unknown;
  error?: Failure;
}

export interface ClientRun {
  url: string;
  /** The tools the client listed (as offered to a model). */
  tools: string[];
  skipped: { name: string; reason: string }[];
  calls: CallRecord[];
  /** Connecting or listing failed. */
  error?: Failure;
}
